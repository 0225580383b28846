import type { EquirectImage } from '../../asset/equirect-image.ts';
import { GpuResource } from '../device/gpu-resource.ts';

/**
 * An equirectangular environment image as a 2D texture with a full mip chain (REPEAT across, CLAMP_TO_EDGE
 * down; trilinear): RGB16F for a Radiance image's floats, SRGB8_ALPHA8 for a PNG/JPEG bitmap. Restored from
 * the image, which it keeps by reference (the caller's `EquirectImage`, not a copy). Leaves TEXTURE_2D unbound.
 */
export class EquirectTexture extends GpuResource<WebGLTexture> {
  readonly kind = 'texture';

  /** @throws Error when the texture cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext, readonly image: EquirectImage) {
    super(gl);
    void this.start();
  }

  protected create(): WebGLTexture | null {
    return this.gl.createTexture();
  }

  protected fill(texture: WebGLTexture): void {
    const gl = this.gl, image = this.image;
    const levels = Math.floor(Math.log2(Math.max(image.width, image.height))) + 1;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    if (image.rgb) {
      gl.texStorage2D(gl.TEXTURE_2D, levels, gl.RGB16F, image.width, image.height);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, image.width, image.height, gl.RGB, gl.FLOAT, image.rgb);
    } else if (image.bitmap) {
      gl.texStorage2D(gl.TEXTURE_2D, levels, gl.SRGB8_ALPHA8, image.width, image.height);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, gl.RGBA, gl.UNSIGNED_BYTE, image.bitmap);
    }
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  protected destroy(texture: WebGLTexture): void {
    this.gl.deleteTexture(texture);
  }

  protected override describe(): string {
    return this.image.name;
  }
}
