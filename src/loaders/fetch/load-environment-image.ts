import type { EquirectImage } from '../../asset/equirect-image.ts';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../../asset/memory-budget.ts';
import { decodeRgbe, looksLikeRgbe } from '../rgbe.ts';
import { requirePositiveBytes } from '../require-positive-bytes.ts';

/** Bytes one decoded PNG/JPEG texel takes (RGBA8). */
const BITMAP_TEXEL_BYTES = 4;

/**
 * Width and height from a PNG (IHDR) or JPEG (the first SOFn marker) header, or null when `bytes` is neither
 * or the header is cut short: read before decoding, so an image too big for the budget is never decoded.
 */
export function encodedImageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 <= bytes.length) {
      if (bytes[offset] !== 0xff) return null;
      const marker = bytes[offset + 1];
      if (marker === 0xff) { offset++; continue; }
      const length = view.getUint16(offset + 2);
      // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: view.getUint16(offset + 7), height: view.getUint16(offset + 5) };
      }
      offset += 2 + length;
    }
  }
  return null;
}

/**
 * Fetches and decodes the equirectangular environment image at `url` (model-viewer's `environment-image` /
 * `skybox-image`): a Radiance `.hdr` (recognised by its `#?` signature; src/loaders/rgbe.ts) as linear RGB
 * float32, anything else by the browser (`createImageBitmap`: PNG, JPEG, WebP…) as sRGB. The decoded size
 * (12 bytes a texel for .hdr, 4 for the others) must fit `memoryBudgetBytes` (default 512 MiB, the model
 * loaders' budget); it is read from the header and refused before any pixel is decoded (PNG, JPEG, .hdr).
 * @throws Error naming `url` when the fetch fails (network, HTTP status), the bytes are not a decodable
 *   image, or the image is over the budget; RangeError for a non-positive budget
 */
export async function loadEnvironmentImage(url: string, memoryBudgetBytes = DEFAULT_MEMORY_BUDGET_BYTES): Promise<EquirectImage> {
  requirePositiveBytes('memoryBudgetBytes', memoryBudgetBytes);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${url}: could not fetch the environment image (${(e as Error).message})`, { cause: e });
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`.trim());
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (looksLikeRgbe(bytes)) {
    const { width, height, rgb } = decodeRgbe(url, bytes, memoryBudgetBytes);
    return Object.freeze({ name: url, width, height, rgb, bitmap: null });
  }
  const size = encodedImageSize(bytes);
  const budget = (width: number, height: number) => {
    if (width * height * BITMAP_TEXEL_BYTES > memoryBudgetBytes) {
      throw new Error(`${url}: ${width} × ${height} image would decode to ${Math.round(width * height * BITMAP_TEXEL_BYTES / 2 ** 20)} MiB, over the memory budget of ${Math.round(memoryBudgetBytes / 2 ** 20)} MiB`);
    }
  };
  if (size) budget(size.width, size.height);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes]), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  } catch (e) {
    throw new Error(`${url}: not a decodable image (.hdr, PNG or JPEG expected)`, { cause: e });
  }
  if (!size) {
    try {
      budget(bitmap.width, bitmap.height);
    } catch (e) {
      bitmap.close();
      throw e;
    }
  }
  return Object.freeze({ name: url, width: bitmap.width, height: bitmap.height, rgb: null, bitmap });
}
