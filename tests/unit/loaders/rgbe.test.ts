import { describe, expect, it } from 'vitest';
import { FloatType } from 'three';
import { HDRLoader } from 'three/examples/jsm/loaders/HDRLoader.js';
import { decodeRgbe, readRgbeHeader } from '../../../src/loaders/rgbe.ts';
import { encodeHdr } from '../helpers/rgbe-encoder.ts';

// Sinew's RGBE decoder against three.js's HDRLoader (the decoder model-viewer uses) on the same bytes, and
// against values computed by hand.

/** A texel pattern with runs (RLE compresses them) and varied exponents, including e = 0 (black). */
const pattern = (x: number, y: number): number[] => x < 10 ? [200, 100, 50, 129] : [(x * 7 + y) & 255, (x * 3) & 255, y & 255, 120 + ((x + y) % 16) * (x % 5 === 0 ? 0 : 1)];

function threeDecode(bytes: Uint8Array): { width: number; height: number; data: Float32Array } {
  const loader = new HDRLoader().setDataType(FloatType);
  const copy = bytes.slice().buffer;
  return loader.parse(copy) as unknown as { width: number; height: number; data: Float32Array };
}

describe('decodeRgbe', () => {
  for (const rle of [false, true]) {
    it(`matches three.js's HDRLoader (${rle ? 'run-length' : 'flat'} scanlines)`, () => {
      const bytes = encodeHdr(37, 5, pattern, rle);
      const ours = decodeRgbe('t.hdr', bytes, 1 << 20);
      const theirs = threeDecode(bytes);
      expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
      let worst = 0;
      for (let i = 0; i < 37 * 5; i++) {
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(ours.rgb[i * 3 + c] - theirs.data[i * 4 + c]) / Math.max(1e-30, Math.abs(theirs.data[i * 4 + c])));
      }
      expect(worst).toBeLessThan(1e-6);
    });
  }

  it('decodes known values: (r, g, b) · 2^(e − 128) / 255, row 0 the top', () => {
    const bytes = encodeHdr(8, 2, (x, y) => (y === 0 ? [255, 128, 0, 129] : [51, 51, 51, 128]), true);
    const { rgb } = decodeRgbe('t.hdr', bytes, 1 << 20);
    expect(Array.from(rgb.slice(0, 3))).toEqual([2, (128 / 255) * 2, 0].map(Math.fround));
    expect(rgb[8 * 3]).toBeCloseTo(0.2, 7);
  });

  it('refuses a huge image from its header, before decoding (the memory budget)', () => {
    const header = new TextEncoder().encode('#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8192 +X 16384\n');
    expect(readRgbeHeader('huge.hdr', header)).toMatchObject({ width: 16384, height: 8192 });
    expect(() => decodeRgbe('huge.hdr', header, 512 * 1024 * 1024)).toThrow(/huge\.hdr: 16384 × 8192 \.hdr would decode to 1536 MiB, over the memory budget of 512 MiB/);
  });

  it('rejects what is not a supported .hdr with a message naming the file', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(() => decodeRgbe('a.hdr', enc('PNG'), 1e9)).toThrow(/a\.hdr: not a Radiance/);
    expect(() => decodeRgbe('b.hdr', enc('#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\n'), 1e9)).toThrow(/b\.hdr: .*xyze/);
    expect(() => decodeRgbe('c.hdr', enc('#?RADIANCE\n\n+Y 1 +X 1\n'), 1e9)).toThrow(/c\.hdr: .*resolution/);
    const cut = encodeHdr(16, 4, pattern, true);
    expect(() => decodeRgbe('d.hdr', cut.subarray(0, cut.length - 5), 1e9)).toThrow(/d\.hdr: .*(ends early|bad run)/);
  });
});
