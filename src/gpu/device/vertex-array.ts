import { GpuResource } from './gpu-resource.ts';

/**
 * A vertex array object. `setup` binds its attributes and index buffer while it is bound, reading its buffers'
 * current handles ({@link GpuResource.handle}), so the same function makes it and restores it (buffers are
 * restored before vertex arrays, gpu-context.ts `RESOURCE_KINDS`). Leaves no vertex array and no ARRAY_BUFFER bound.
 */
export class VertexArray extends GpuResource<WebGLVertexArrayObject> {
  readonly kind = 'vertexArray';

  /** @throws Error when the vertex array cannot be made (context lost), or what `setup` throws */
  constructor(gl: WebGL2RenderingContext, private readonly setup: (gl: WebGL2RenderingContext) => void, private readonly label = 'VertexArray') {
    super(gl);
    void this.start();
  }

  protected create(): WebGLVertexArrayObject | null {
    return this.gl.createVertexArray();
  }

  protected fill(vao: WebGLVertexArrayObject): void {
    const gl = this.gl;
    gl.bindVertexArray(vao);
    try {
      this.setup(gl);
    } finally {
      gl.bindVertexArray(null);
      gl.bindBuffer(gl.ARRAY_BUFFER, null);
    }
  }

  protected destroy(vao: WebGLVertexArrayObject): void {
    this.gl.deleteVertexArray(vao);
  }

  protected override describe(): string {
    return this.label;
  }
}
