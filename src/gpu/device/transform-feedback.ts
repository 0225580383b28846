import { GpuResource } from './gpu-resource.ts';

/** A transform feedback object (it holds no data of its own: its buffers are bound per capture). */
export class TransformFeedback extends GpuResource<WebGLTransformFeedback> {
  readonly kind = 'transformFeedback';

  /** @throws Error when it cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext, private readonly label = 'TransformFeedback') {
    super(gl);
    void this.start();
  }

  protected create(): WebGLTransformFeedback | null {
    return this.gl.createTransformFeedback();
  }

  protected fill(): void {}

  protected destroy(feedback: WebGLTransformFeedback): void {
    this.gl.deleteTransformFeedback(feedback);
  }

  protected override describe(): string {
    return this.label;
  }
}
