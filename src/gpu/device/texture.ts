import type { ImageAsset } from '../../asset/model-asset.ts';
import type { TextureSampler } from '../../asset/material-texture.ts';
import { GpuResource } from './gpu-resource.ts';
import { decodeTgaPixels, isTgaMimeType } from '../../asset/decode-tga.ts';

/**
 * A 1×1 opaque white SRGB8_ALPHA8 texture: the base colour texture of materials without one (and what stands
 * for a texture not decoded yet). Restored from the constant.
 */
export class WhiteTexture extends GpuResource<WebGLTexture> {
  readonly kind = 'texture';

  /** @throws Error when the texture cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext) {
    super(gl);
    void this.start();
  }

  protected create(): WebGLTexture | null {
    return this.gl.createTexture();
  }

  protected fill(texture: WebGLTexture): void {
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.SRGB8_ALPHA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, WHITE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  }

  protected destroy(texture: WebGLTexture): void {
    this.gl.deleteTexture(texture);
  }
}

const WHITE = new Uint8Array([255, 255, 255, 255]);

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
 * no flip, no premultiplication, no colour-space conversion). An {@link ImageTexture} uploads and closes it.
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

/** Decoded RGBA8 pixels of each mip level, level 0 first (level i is `max(1, width >> i)` wide), rows top to bottom. */
export interface DecodedLevels {
  readonly width: number;
  readonly height: number;
  readonly levels: readonly Uint8Array[];
}

/** What an {@link ImageTexture} is made from. */
export interface ImageTextureSource {
  /**
   * Decodes the image (again on each restore): an ImageBitmap (`decodeImage`, closed once uploaded) or decoded
   * levels (a transcoded KTX2 image, ktx2-texture.ts). Nothing decoded is kept between uploads: the asset's
   * encoded bytes are the copy a restore reads.
   */
  decode(): Promise<ImageBitmap | DecodedLevels>;
  readonly sampler: TextureSampler | undefined;
  /** SRGB8_ALPHA8 (colour: base colour and emissive, so sampling returns linear values) or RGBA8 (data). */
  readonly srgb: boolean;
  readonly label: string;
}

/**
 * A material's image as a texture, sampled as its sampler says (glTF 2.0 §5.26; {@link applySampler}). The
 * image is decoded asynchronously, so the texture is usable only once {@link ready} (its first upload) has
 * resolved; a restore decodes and uploads again the same way (the context reports itself restored after).
 * ImageBitmaps are uploaded as they come (no flip, no premultiplication, no colour-space conversion; glTF's
 * v-down texture coordinates need no flip), mipmaps generated when the minification filter uses them; decoded
 * levels are uploaded level by level (their own mip chain when there are several).
 */
export class ImageTexture extends GpuResource<WebGLTexture> {
  readonly kind = 'texture';
  /** Resolves once the first upload is done; rejects when the image cannot be decoded. */
  readonly ready: Promise<void>;
  private uploaded = false;

  /** @throws Error when the texture cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext, private readonly source: ImageTextureSource) {
    super(gl);
    this.ready = this.start() ?? Promise.resolve();
  }

  /** Whether an upload has landed (false again from a context loss until the restore's upload lands). */
  get isUploaded(): boolean {
    return this.uploaded && !this.device.isLost;
  }

  protected create(): WebGLTexture | null {
    return this.gl.createTexture();
  }

  protected async fill(texture: WebGLTexture): Promise<void> {
    const losses = this.device.losses;
    const decoded = await this.source.decode();
    try {
      // Lost, or disposed, while decoding: the texture went with its context or its owner.
      if (losses !== this.device.losses || this.isDisposed || this.gl.isContextLost()) return;
      const gl = this.gl, srgb = this.source.srgb;
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
      gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
      if ('levels' in decoded) {
        gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
        decoded.levels.forEach((pixels, level) => {
          const width = Math.max(1, decoded.width >> level), height = Math.max(1, decoded.height >> level);
          gl.texImage2D(gl.TEXTURE_2D, level, srgb ? gl.SRGB8_ALPHA8 : gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
        });
        if (decoded.levels.length > 1) gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, decoded.levels.length - 1);
        applySampler(gl, this.source.sampler, decoded.levels.length > 1 ? 'given' : 'generate');
      } else {
        gl.texImage2D(gl.TEXTURE_2D, 0, srgb ? gl.SRGB8_ALPHA8 : gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, decoded);
        applySampler(gl, this.source.sampler, 'generate');
      }
      this.uploaded = true;
    } finally {
      if (!('levels' in decoded)) decoded.close();
    }
  }

  protected destroy(texture: WebGLTexture): void {
    this.gl.deleteTexture(texture);
  }

  protected override describe(): string {
    return this.source.label;
  }
}

/**
 * Sets the bound TEXTURE_2D's wraps and filters from `sampler` (defaults: REPEAT, LINEAR magnification, LINEAR_MIPMAP_LINEAR minification, trilinear).
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
