import { GpuResource } from './gpu-resource.ts';

/**
 * What a {@link GpuBuffer} holds: vertex or index data it keeps a reference to, a function giving the data
 * as it is now (CPU-skinned vertices whose array changes), or a size in bytes it is allocated to.
 */
export type BufferContents = ArrayBufferView<ArrayBuffer> | (() => ArrayBufferView<ArrayBuffer>) | number;

/**
 * A WebGL buffer (`ARRAY_BUFFER`, `ELEMENT_ARRAY_BUFFER`, `UNIFORM_BUFFER`, `TRANSFORM_FEEDBACK_BUFFER`).
 * Static data (a model's vertices) is kept by reference — the asset's own typed array, not a copy — and
 * uploaded again on restore; a buffer made for a size (palettes, transform feedback outputs) is allocated
 * again at that size, its contents being rewritten by their next frame. Leaves the target unbound.
 */
export class GpuBuffer extends GpuResource<WebGLBuffer> {
  readonly kind = 'buffer';

  /**
   * @param target where it is bound to upload (an element array buffer only ever goes to ELEMENT_ARRAY_BUFFER)
   * @param contents the data (referenced, uploaded now and on restore) or a size in bytes
   * @param usage `STATIC_DRAW`, `DYNAMIC_DRAW`, `DYNAMIC_COPY`…
   * @throws Error when the buffer cannot be made (context lost)
   */
  constructor(gl: WebGL2RenderingContext, readonly target: number, private readonly contents: BufferContents, readonly usage: number, private readonly label = 'GpuBuffer') {
    super(gl);
    void this.start();
  }

  /** Bytes held. */
  get byteLength(): number {
    const contents = this.contents;
    return typeof contents === 'number' ? contents : typeof contents === 'function' ? contents().byteLength : contents.byteLength;
  }

  protected create(): WebGLBuffer | null {
    return this.gl.createBuffer();
  }

  protected fill(buffer: WebGLBuffer): void {
    const gl = this.gl;
    // An element array buffer bound outside a VAO would change the bound VAO's index buffer.
    if (this.target === gl.ELEMENT_ARRAY_BUFFER) gl.bindVertexArray(null);
    gl.bindBuffer(this.target, buffer);
    const contents = this.contents;
    if (typeof contents === 'number') gl.bufferData(this.target, contents, this.usage);
    else gl.bufferData(this.target, typeof contents === 'function' ? contents() : contents, this.usage);
    gl.bindBuffer(this.target, null);
  }

  protected destroy(buffer: WebGLBuffer): void {
    this.gl.deleteBuffer(buffer);
  }

  protected override describe(): string {
    return this.label;
  }
}
