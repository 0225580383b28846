import { describe, expect, it } from 'vitest';
import { decodeTgaPixels, isTgaMimeType } from '../../../src/asset/decode-tga.ts';

/**
 * A hand-built uncompressed true-colour TGA (type 2, 32 bits per pixel, 8 alpha bits): 18-byte header, then
 * BGRA pixels, rows bottom to top unless `topLeft` (descriptor bit 5).
 */
function tga(width: number, height: number, rgbaTopDown: number[][], topLeft: boolean): Uint8Array {
  const bytes = new Uint8Array(18 + 4 * width * height);
  bytes[2] = 2; // uncompressed true-colour
  bytes[12] = width & 255; bytes[13] = width >> 8;
  bytes[14] = height & 255; bytes[15] = height >> 8;
  bytes[16] = 32;
  bytes[17] = 8 | (topLeft ? 0x20 : 0);
  for (let row = 0; row < height; row++) {
    const sourceRow = topLeft ? row : height - 1 - row;
    for (let x = 0; x < width; x++) {
      const [r, g, b, a] = rgbaTopDown[sourceRow * width + x];
      bytes.set([b, g, r, a], 18 + 4 * (row * width + x));
    }
  }
  return bytes;
}

describe('decodeTgaPixels', () => {
  // 2 × 3 image, top row red/green, middle blue/white, bottom half-transparent grey/black.
  const pixels = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255], [128, 128, 128, 128], [0, 0, 0, 255]];

  for (const topLeft of [false, true]) {
    it(`returns RGBA rows top to bottom from a ${topLeft ? 'top-left' : 'bottom-left'} origin file`, async () => {
      const decoded = await decodeTgaPixels('t.tga', tga(2, 3, pixels, topLeft), 'model.md5mesh');
      expect([decoded.width, decoded.height]).toEqual([2, 3]);
      expect(Array.from(decoded.data)).toEqual(pixels.flat());
    });
  }

  it('names the model and image for a malformed file', async () => {
    await expect(decodeTgaPixels('skin.tga', new Uint8Array([0, 0, 99, 0, 0]), 'Bob.md5mesh')).rejects.toThrow(/^Bob\.md5mesh: image "skin\.tga" \(image\/x-tga\) could not be decoded/);
  });

  it('recognises TGA MIME types', () => {
    expect(['image/x-tga', 'image/tga', 'image/x-targa'].every(isTgaMimeType)).toBe(true);
    expect(isTgaMimeType('image/png')).toBe(false);
  });
});
