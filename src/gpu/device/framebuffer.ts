import { GpuResource } from './gpu-resource.ts';
import type { RenderTexture } from './render-texture.ts';

/**
 * A framebuffer with one texture attached (level 0 of a 2D {@link RenderTexture}) at `attachment`
 * (`COLOR_ATTACHMENT0`, `DEPTH_ATTACHMENT`); attached again on restore (textures are restored first), or none
 * for a framebuffer whose owner attaches per pass. Leaves the framebuffer binding null.
 */
export class Framebuffer extends GpuResource<WebGLFramebuffer> {
  readonly kind = 'framebuffer';

  /** @throws Error when the framebuffer cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext, private readonly attachment: number, private readonly texture: RenderTexture | null, private readonly label = 'Framebuffer') {
    super(gl);
    void this.start();
  }

  protected create(): WebGLFramebuffer | null {
    return this.gl.createFramebuffer();
  }

  protected fill(framebuffer: WebGLFramebuffer): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    if (this.texture) gl.framebufferTexture2D(gl.FRAMEBUFFER, this.attachment, gl.TEXTURE_2D, this.texture.handle, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  protected destroy(framebuffer: WebGLFramebuffer): void {
    this.gl.deleteFramebuffer(framebuffer);
  }

  protected override describe(): string {
    return this.label;
  }
}
