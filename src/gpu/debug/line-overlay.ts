import vertexSource from '../../../shaders/debug-lines.vert?raw';
import fragmentSource from '../../../shaders/debug-lines.frag?raw';
import { ShaderProgram } from '../device/shader-program.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';
import { VertexArray } from '../device/vertex-array.ts';

/**
 * Draws coloured lines and points over the frame (the viewer's skeleton, bounding boxes and normals) with
 * `shaders/debug-lines.vert|frag`, depth test off so they show through the mesh. Positions are in display
 * space relative to the model origin, the space of `SkinnedRenderer.lastViewProjection`. Owns one program,
 * one VAO and two dynamic buffers (grown as needed, never shrunk); allocates nothing per draw once grown.
 */
export class LineOverlay {
  private readonly program: ShaderProgram;
  /** Sized for {@link capacity} vertices (contents written by each draw); made again, with the VAO, to grow. */
  private positionBuffer: GpuBuffer | null = null;
  private colorBuffer: GpuBuffer | null = null;
  private vao: VertexArray | null = null;
  private u_viewProjection: WebGLUniformLocation | null = null;
  private u_pointSize: WebGLUniformLocation | null = null;
  private u_points: WebGLUniformLocation | null = null;
  private capacity = 0;
  private disposed = false;

  /** @throws Error when the program fails to build or a GL object cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext) {
    // Locations are read again at each link (a context restore links again).
    this.program = new ShaderProgram(gl, { name: 'debug-lines.vert+debug-lines.frag', vertex: vertexSource, fragment: fragmentSource }, (program) => {
      this.u_viewProjection = gl.getUniformLocation(program, 'u_viewProjection');
      this.u_pointSize = gl.getUniformLocation(program, 'u_pointSize');
      this.u_points = gl.getUniformLocation(program, 'u_points');
    });
  }

  /** Buffers and VAO for `capacity` vertices, the old ones deleted. */
  private grow(capacity: number): void {
    const gl = this.gl;
    this.releaseBuffers();
    const positions = new GpuBuffer(gl, gl.ARRAY_BUFFER, 12 * capacity, gl.DYNAMIC_DRAW, 'LineOverlay positions');
    const colors = new GpuBuffer(gl, gl.ARRAY_BUFFER, 16 * capacity, gl.DYNAMIC_DRAW, 'LineOverlay colours');
    this.positionBuffer = positions;
    this.colorBuffer = colors;
    this.vao = new VertexArray(gl, () => {
      gl.bindBuffer(gl.ARRAY_BUFFER, positions.handle);
      gl.enableVertexAttribArray(0);
      gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
      gl.bindBuffer(gl.ARRAY_BUFFER, colors.handle);
      gl.enableVertexAttribArray(1);
      gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 0, 0);
    }, 'LineOverlay vertex array');
    this.capacity = capacity;
  }

  private releaseBuffers(): void {
    this.vao?.dispose();
    this.positionBuffer?.dispose();
    this.colorBuffer?.dispose();
    this.vao = this.positionBuffer = this.colorBuffer = null;
  }

  /** Size of the points {@link drawPoints} draws, pixels (default 1). */
  pointSize = 1;

  /**
   * Draws `count` vertices as `LINES` (pairs), depth test off, alpha blended.
   * @param viewProjection `Float32Array(16)`, column-major (`SkinnedRenderer.lastViewProjection`)
   * @param positions `Float32Array(≥ 3·count)`: xyz per vertex
   * @param colors `Float32Array(≥ 4·count)`: RGBA per vertex, in [0, 1]
   */
  drawLines(viewProjection: Float32Array, positions: Float32Array, colors: Float32Array, count: number): void {
    this.drawVertices(viewProjection, positions, colors, count, this.gl.LINES);
  }

  /** Draws `count` vertices as round `POINTS` of {@link pointSize} pixels, as {@link drawLines} draws lines. */
  drawPoints(viewProjection: Float32Array, positions: Float32Array, colors: Float32Array, count: number): void {
    this.drawVertices(viewProjection, positions, colors, count, this.gl.POINTS);
  }

  private drawVertices(viewProjection: Float32Array, positions: Float32Array, colors: Float32Array, count: number, mode: number): void {
    if (this.disposed || count <= 0) return;
    const gl = this.gl;
    gl.bindVertexArray(null);
    if (count > this.capacity) this.grow(Math.max(count, 2 * this.capacity));
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer!.handle);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, positions, 0, 3 * count);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.colorBuffer!.handle);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, colors, 0, 4 * count);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    gl.useProgram(this.program.handle);
    gl.uniformMatrix4fv(this.u_viewProjection, false, viewProjection);
    gl.uniform1f(this.u_pointSize, mode === gl.POINTS ? this.pointSize : 1);
    gl.uniform1i(this.u_points, mode === gl.POINTS ? 1 : 0);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(this.vao!.handle);
    gl.drawArrays(mode, 0, count);
    gl.bindVertexArray(null);
    gl.disable(gl.BLEND);
    gl.enable(gl.DEPTH_TEST);
  }

  /** Deletes the program, VAO and buffers (forgets them when the context is lost). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.program.dispose();
    this.releaseBuffers();
  }
}
