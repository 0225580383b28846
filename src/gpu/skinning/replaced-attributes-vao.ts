import type { GpuPrimitive } from './gpu-model.ts';
import { ATTRIBUTE_LOCATIONS } from './gpu-model.ts';
import { VertexArray } from '../device/vertex-array.ts';
import type { GpuBuffer } from '../device/gpu-buffer.ts';

/** An attribute a {@link vaoReplacing} VAO reads from a buffer of its own: tightly packed floats. */
export interface ReplacedAttribute {
  /** Attribute location (`ATTRIBUTE_LOCATIONS`). */
  readonly location: number;
  readonly buffer: GpuBuffer;
  /** Floats per vertex (1–4). */
  readonly size: number;
}

/**
 * A VAO that reads `replaced` attributes from their own buffers and every other attribute exactly as
 * `primitive`'s own VAO reads it (whatever buffer, stride and offset), with the primitive's index buffer: the
 * same triangles over other vertex data. A resource: a context restore sets it up again the same way (the
 * primitive's VAO, made before it, is restored before it). Leaves no VAO or ARRAY_BUFFER bound.
 * @throws Error when the VAO cannot be made (context lost)
 */
export function vaoReplacing(gl: WebGL2RenderingContext, primitive: GpuPrimitive, replaced: readonly ReplacedAttribute[]): VertexArray {
  const L = ATTRIBUTE_LOCATIONS;
  const own = new Set(replaced.map((r) => r.location));
  const integer = new Set<number>([L.a_joints, L.a_joints1, L.a_overflow]);
  return new VertexArray(gl, () => {
    // Read the primitive's attributes (its VAO bound), then set this one's (VertexArray bound it first).
    const vao = gl.getParameter(gl.VERTEX_ARRAY_BINDING) as WebGLVertexArrayObject;
    gl.bindVertexArray(primitive.vao);
    const attributes = gl.getParameter(gl.MAX_VERTEX_ATTRIBS) as number;
    const shared = [];
    for (let loc = 0; loc < attributes; loc++) {
      if (own.has(loc) || !gl.getVertexAttrib(loc, gl.VERTEX_ATTRIB_ARRAY_ENABLED)) continue;
      shared.push({
        loc,
        buffer: gl.getVertexAttrib(loc, gl.VERTEX_ATTRIB_ARRAY_BUFFER_BINDING) as WebGLBuffer,
        size: gl.getVertexAttrib(loc, gl.VERTEX_ATTRIB_ARRAY_SIZE) as number,
        type: gl.getVertexAttrib(loc, gl.VERTEX_ATTRIB_ARRAY_TYPE) as number,
        normalized: gl.getVertexAttrib(loc, gl.VERTEX_ATTRIB_ARRAY_NORMALIZED) as boolean,
        stride: gl.getVertexAttrib(loc, gl.VERTEX_ATTRIB_ARRAY_STRIDE) as number,
        offset: gl.getVertexAttribOffset(loc, gl.VERTEX_ATTRIB_ARRAY_POINTER),
      });
    }
    gl.bindVertexArray(vao);
    for (const r of replaced) {
      gl.bindBuffer(gl.ARRAY_BUFFER, r.buffer.handle);
      gl.enableVertexAttribArray(r.location);
      gl.vertexAttribPointer(r.location, r.size, gl.FLOAT, false, 0, 0);
    }
    for (const a of shared) {
      gl.bindBuffer(gl.ARRAY_BUFFER, a.buffer);
      gl.enableVertexAttribArray(a.loc);
      if (integer.has(a.loc)) gl.vertexAttribIPointer(a.loc, a.size, a.type, a.stride, a.offset);
      else gl.vertexAttribPointer(a.loc, a.size, a.type, a.normalized, a.stride, a.offset);
    }
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, primitive.buffers[primitive.buffers.length - 1]);
  }, 'replaced-attributes vertex array');
}
