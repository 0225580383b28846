import type { ImageAsset, TextureSampler } from '../../asset/model-asset.ts';
import { decodeTgaPixels, isTgaMimeType } from '../../asset/decode-tga.ts';

/** A 1×1 opaque white SRGB8_ALPHA8 texture: the base colour texture of materials without one. */
export function createWhiteTexture(gl: WebGL2RenderingContext): WebGLTexture {
  const texture = gl.createTexture();
  if (!texture) throw new Error('createWhiteTexture: gl.createTexture failed (context lost?)');
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.SRGB8_ALPHA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array([255, 255, 255, 255]));
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  return texture;
}

/** Whether an image is KTX2 (KHR_texture_basisu), transcoded by ktx2-texture.ts rather than decoded here. */
export function isKtx2MimeType(mimeType: string): boolean {
  return /^image\/ktx2$/i.test(mimeType);
}

/** MIME types Sinew decodes: what `createImageBitmap` reads, plus TGA (decoded in script, MD5's textures). */
export function isBrowserDecodable(mimeType: string): boolean {
  return /^image\/(png|jpeg|jpg|webp|gif|bmp|avif)$/i.test(mimeType) || isTgaMimeType(mimeType);
}

/**
 * Decodes an encoded image (`createImageBitmap` of a Blob — or, for TGA, of the pixels decoded in script —
 * no flip, no premultiplication, no colour-space conversion). The caller uploads it with {@link uploadImageTexture} and closes it.
 * @throws Error naming the image when decoding fails (rejects the promise)
 */
export async function decodeImage(image: ImageAsset, where: string): Promise<ImageBitmap> {
  let source: Blob | ImageData;
  if (isTgaMimeType(image.mimeType)) {
    const pixels = await decodeTgaPixels(image.name, image.data, where);
    source = new ImageData(pixels.data, pixels.width, pixels.height);
  } else {
    source = new Blob([image.data as Uint8Array<ArrayBuffer>], { type: image.mimeType });
  }
  try {
    return await createImageBitmap(source, {
      imageOrientation: 'none',
      premultiplyAlpha: 'none',
      colorSpaceConversion: 'none',
    });
  } catch (error) {
    throw new Error(`${where}: image "${image.name}" (${image.mimeType}) could not be decoded: ${(error as Error).message}`);
  }
}

/**
 * Uploads a decoded image as an SRGB8_ALPHA8 texture (colour: base colour and emissive, so sampling returns
 * linear values) or, with `srgb` false, an RGBA8 one (data: metallic-roughness, normal, occlusion), sampled
 * as `sampler` says (glTF 2.0 §5.26): its wraps, its filters, and mipmaps generated only when the
 * minification filter uses them. Without a sampler, or for a filter the sampler leaves out: REPEAT, LINEAR
 * magnification, LINEAR_MIPMAP_LINEAR minification (trilinear). glTF's v-down texture coordinates need no flip.
 */
export function uploadImageTexture(gl: WebGL2RenderingContext, bitmap: ImageBitmap, sampler?: TextureSampler, srgb = true): WebGLTexture {
  const texture = gl.createTexture();
  if (!texture) throw new Error('uploadImageTexture: gl.createTexture failed (context lost?)');
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.texImage2D(gl.TEXTURE_2D, 0, srgb ? gl.SRGB8_ALPHA8 : gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  applySampler(gl, sampler, 'generate');
  return texture;
}

/** Decoded RGBA8 pixels of each mip level, level 0 first (level i is `max(1, width >> i)` wide), rows top to bottom. */
export interface DecodedLevels {
  readonly width: number;
  readonly height: number;
  readonly levels: readonly Uint8Array[];
}

/**
 * Uploads decoded levels (a transcoded KTX2 image, ktx2-texture.ts) as an SRGB8_ALPHA8 texture (RGBA8 with
 * `srgb` false, as {@link uploadImageTexture})
 * sampled as `sampler` says ({@link applySampler}): the given mip levels when there are several, else mipmaps
 * generated when the minification filter uses them.
 */
export function uploadLevelsTexture(gl: WebGL2RenderingContext, decoded: DecodedLevels, sampler?: TextureSampler, srgb = true): WebGLTexture {
  const texture = gl.createTexture();
  if (!texture) throw new Error('uploadLevelsTexture: gl.createTexture failed (context lost?)');
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  decoded.levels.forEach((pixels, level) => {
    const width = Math.max(1, decoded.width >> level), height = Math.max(1, decoded.height >> level);
    gl.texImage2D(gl.TEXTURE_2D, level, srgb ? gl.SRGB8_ALPHA8 : gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  });
  if (decoded.levels.length > 1) gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, decoded.levels.length - 1);
  applySampler(gl, sampler, decoded.levels.length > 1 ? 'given' : 'generate');
  return texture;
}

/**
 * Sets the bound TEXTURE_2D's wraps and filters from `sampler` (defaults as {@link uploadImageTexture}).
 * @param mipmaps `generate`: generate the mip levels from level 0 when the minification filter uses them;
 *   `given`: the levels were uploaded (a KTX2 file's own)
 */
export function applySampler(gl: WebGL2RenderingContext, sampler: TextureSampler | undefined, mipmaps: 'generate' | 'given'): void {
  const minFilter = sampler?.minFilter ?? gl.LINEAR_MIPMAP_LINEAR;
  if (mipmaps === 'generate' && minFilter !== gl.NEAREST && minFilter !== gl.LINEAR) gl.generateMipmap(gl.TEXTURE_2D);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, minFilter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, sampler?.magFilter ?? gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, sampler?.wrapS ?? gl.REPEAT);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, sampler?.wrapT ?? gl.REPEAT);
}

/** A key naming an (image, sampler, colour space) triple: textures with equal keys share one GL texture. */
export function textureKey(image: number, sampler: TextureSampler | undefined, srgb = true): string {
  const key = sampler ? `${image}:${sampler.wrapS}:${sampler.wrapT}:${sampler.magFilter ?? ''}:${sampler.minFilter ?? ''}` : `${image}`;
  return srgb ? key : `${key}:linear`;
}
