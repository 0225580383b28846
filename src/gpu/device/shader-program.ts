import * as twgl from 'twgl.js';
import { GpuResource } from './gpu-resource.ts';

/** What {@link compileProgram} needs besides the sources. */
export interface ProgramSource {
  /** Name used in error messages, e.g. `skinned.vert+lit.frag [SKINNED PALETTE_TEXTURE]`. */
  readonly name: string;
  /** GLSL ES 3.00 vertex shader source (`#version 300 es` on line 1). */
  readonly vertex: string;
  /** GLSL ES 3.00 fragment shader source. */
  readonly fragment: string;
  /** Varyings captured by transform feedback (captured with SEPARATE_ATTRIBS), set before linking. */
  readonly transformFeedbackVaryings?: readonly string[];
}

/**
 * Inserts `#define` lines right after line 1 (the `#version` line, which GLSL ES requires first).
 * Each entry is `NAME` or `NAME value`. Lines of the source after the first shift down by `defines.length`.
 */
export function insertDefines(source: string, defines: readonly string[]): string {
  if (defines.length === 0) return source;
  const eol = source.indexOf('\n');
  if (eol < 0) throw new Error('shader source has a single line: nowhere to insert #defines after #version');
  return `${source.slice(0, eol + 1)}${defines.map((d) => `#define ${d}\n`).join('')}${source.slice(eol + 1)}`;
}

/**
 * Compiles and links a program through twgl.js with an error callback, so compile and link failures become
 * exceptions rather than console noise. Shaders are detached and deleted once linked (the program keeps
 * working), so {@link deleteProgram} — `gl.deleteProgram` — frees everything.
 *
 * @throws Error `"<name>: shader program failed to build"` followed by twgl's line-numbered source listing
 *   and the driver's info log, when a shader does not compile or the program does not link (nothing leaks:
 *   twgl deletes what it created on failure)
 */
export function compileProgram(gl: WebGL2RenderingContext, source: ProgramSource): WebGLProgram {
  const errors: string[] = [];
  const program = twgl.createProgram(gl, [source.vertex, source.fragment], {
    errorCallback: (message: string) => errors.push(message),
    transformFeedbackVaryings: source.transformFeedbackVaryings ? [...source.transformFeedbackVaryings] : undefined,
    transformFeedbackMode: gl.SEPARATE_ATTRIBS,
  });
  if (!program || errors.length > 0) {
    if (program) deleteProgram(gl, program);
    const log = errors.length > 0 ? errors.join('\n') : 'no log (context lost?)';
    throw new Error(`${source.name}: shader program failed to build\n${log}`);
  }
  for (const shader of gl.getAttachedShaders(program) ?? []) {
    gl.detachShader(program, shader);
    gl.deleteShader(shader);
  }
  return program;
}

/** Deletes a program and any shaders still attached to it. Safe on null. */
export function deleteProgram(gl: WebGL2RenderingContext, program: WebGLProgram | null): void {
  if (!program) return;
  for (const shader of gl.getAttachedShaders(program) ?? []) {
    gl.detachShader(program, shader);
    gl.deleteShader(shader);
  }
  gl.deleteProgram(program);
}

/**
 * A linked program that re-links itself after a context loss from the sources it keeps
 * ({@link compileProgram}). Uniform locations die with the program: `linked` (run after every link, the first
 * included) reads them again and sets what the program keeps between draws (sampler units, block bindings).
 */
export class ShaderProgram extends GpuResource<WebGLProgram> {
  readonly kind = 'program';

  /**
   * @param linked called with the new program after each link, bound with `useProgram`
   * @throws Error as {@link compileProgram}
   */
  constructor(gl: WebGL2RenderingContext, readonly source: ProgramSource, private readonly linked?: (program: WebGLProgram) => void) {
    super(gl);
    void this.start();
  }

  /** `gl.getUniformLocation` on the program as it is now. */
  uniform(name: string): WebGLUniformLocation | null {
    return this.gl.getUniformLocation(this.handle, name);
  }

  protected create(): WebGLProgram | null {
    // The program is made by compileProgram in fill: a placeholder keeps GpuResource's order.
    return PLACEHOLDER;
  }

  protected fill(): void {
    const program = compileProgram(this.gl, this.source);
    this.replace(program);
    if (this.linked) {
      this.gl.useProgram(program);
      this.linked(program);
    }
  }

  protected destroy(program: WebGLProgram): void {
    if (program !== PLACEHOLDER) deleteProgram(this.gl, program);
  }

  protected override describe(): string {
    return this.source.name;
  }
}

const PLACEHOLDER = {} as WebGLProgram;
