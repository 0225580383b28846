import vertexSource from '../../../shaders/debug-lines.vert?raw';
import fragmentSource from '../../../shaders/debug-lines.frag?raw';
import { compileProgram, deleteProgram } from '../device/shader-program.ts';

/**
 * Draws coloured lines and points over the frame (the viewer's skeleton, bounding boxes and normals) with
 * `shaders/debug-lines.vert|frag`, depth test off so they show through the mesh. Positions are in display
 * space relative to the model origin, the space of `SkinnedRenderer.lastViewProjection`. Owns one program,
 * one VAO and two dynamic buffers (grown as needed, never shrunk); allocates nothing per draw once grown.
 */
export class LineOverlay {
  private readonly program: WebGLProgram;
  private readonly vao: WebGLVertexArrayObject;
  private readonly positionBuffer: WebGLBuffer;
  private readonly colorBuffer: WebGLBuffer;
  private readonly u_viewProjection: WebGLUniformLocation | null;
  private readonly u_pointSize: WebGLUniformLocation | null;
  private readonly u_points: WebGLUniformLocation | null;
  private capacity = 0;
  private disposed = false;

  /** @throws Error when the program fails to build or a GL object cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext) {
    this.program = compileProgram(gl, { name: 'debug-lines.vert+debug-lines.frag', vertex: vertexSource, fragment: fragmentSource });
    const vao = gl.createVertexArray();
    const positions = gl.createBuffer();
    const colors = gl.createBuffer();
    if (!vao || !positions || !colors) throw new Error('LineOverlay: could not create GL objects (context lost?)');
    this.vao = vao;
    this.positionBuffer = positions;
    this.colorBuffer = colors;
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, positions);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, colors);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.u_viewProjection = gl.getUniformLocation(this.program, 'u_viewProjection');
    this.u_pointSize = gl.getUniformLocation(this.program, 'u_pointSize');
    this.u_points = gl.getUniformLocation(this.program, 'u_points');
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
    if (count > this.capacity) {
      this.capacity = Math.max(count, 2 * this.capacity);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, 12 * this.capacity, gl.DYNAMIC_DRAW);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colorBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, 16 * this.capacity, gl.DYNAMIC_DRAW);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, positions, 0, 3 * count);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.colorBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, colors, 0, 4 * count);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    gl.useProgram(this.program);
    gl.uniformMatrix4fv(this.u_viewProjection, false, viewProjection);
    gl.uniform1f(this.u_pointSize, mode === gl.POINTS ? this.pointSize : 1);
    gl.uniform1i(this.u_points, mode === gl.POINTS ? 1 : 0);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(this.vao);
    gl.drawArrays(mode, 0, count);
    gl.bindVertexArray(null);
    gl.disable(gl.BLEND);
    gl.enable(gl.DEPTH_TEST);
  }

  /** Deletes the program, VAO and buffers (forgets them when the context is lost). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    if (gl.isContextLost()) return;
    deleteProgram(gl, this.program);
    gl.deleteVertexArray(this.vao);
    gl.deleteBuffer(this.positionBuffer);
    gl.deleteBuffer(this.colorBuffer);
  }
}
