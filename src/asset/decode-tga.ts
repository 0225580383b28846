import { decodeTga } from '@lunapaint/tga-codec';

/** An image decoded to 8-bit RGBA, rows top to bottom. */
export interface DecodedPixels {
  readonly width: number;
  readonly height: number;
  /** `Uint8ClampedArray(4·width·height)`: R, G, B, A per pixel, row-major from the top-left corner. */
  readonly data: Uint8ClampedArray<ArrayBuffer>;
}

/**
 * Decodes a Truevision TGA file (the textures Doom 3's MD5 models ship with; browsers cannot decode TGA) with
 * @lunapaint/tga-codec, which honours the file's origin bit, so rows come out top to bottom like any decoded
 * image. Images whose alpha is ambiguous (attribute bits 0) and would come out fully transparent are made opaque.
 *
 * @param where the model or file name, for the message
 * @throws Error `where: image "name" (image/x-tga) could not be decoded: …` for a malformed file
 */
export async function decodeTgaPixels(name: string, bytes: Uint8Array, where: string): Promise<DecodedPixels> {
  try {
    const { image } = await decodeTga(bytes, { detectAmbiguousAlphaChannel: true });
    const data = new Uint8ClampedArray(4 * image.width * image.height);
    data.set(image.data.subarray(0, data.length));
    return { width: image.width, height: image.height, data };
  } catch (error) {
    throw new Error(`${where}: image "${name}" (image/x-tga) could not be decoded: ${(error as Error).message}`);
  }
}

/** Whether a MIME type names a TGA image (`image/x-tga`, `image/tga`, `image/x-targa`). */
export function isTgaMimeType(mimeType: string): boolean {
  return /^image\/(x-)?(tga|targa)$/i.test(mimeType);
}
