import type { GpuPrimitive } from '../skinning/gpu-model.ts';
import { BASE_COLOR_UNIT, type SkinningProgram } from '../skinning/program-cache.ts';
import type { DrawStyle } from './draw-style.ts';

/**
 * Sets a `WEIGHT_VIEW` program's uniforms (shaders/debug-weights.frag) for one primitive: `u_weightMode` 0 for
 * the `weights` heat map, 1 for the `influences` count; `u_weightJoint` the skin-local index of the selected
 * joint in `skin` (`style.weightJointBySkin`, −1 when the skin does not hold it), or for a rigid primitive
 * (`skin` −1) 0 when it hangs on the selected node (weight 1) and −1 otherwise.
 */
export function bindWeightView(gl: WebGL2RenderingContext, program: SkinningProgram, style: DrawStyle, skin: number, node: number): void {
  gl.uniform1i(program.u_weightMode, style.surface === 'weights' ? 0 : 1);
  const joint = skin >= 0 ? style.weightJointBySkin[skin] ?? -1 : node === style.weightNode ? 0 : -1;
  gl.uniform1i(program.u_weightJoint, joint);
}

/** The primitive whose wireframe {@link drawEdges} draws: its VAO as drawn (its own or a skinned-vertex one); the caller's scratch. */
export interface EdgeTarget {
  primitive: GpuPrimitive;
  vao: WebGLVertexArrayObject;
  /** A 1×1 white texture (`GpuModel.whiteTexture`), bound as the base colour so the edge colour is drawn as given. */
  white: WebGLTexture;
}

/**
 * The wireframe of a primitive just drawn: its edge list (`style.edgesOf`) as LINES through the program just
 * used (so the edges are skinned as the surface is), in the style's edge colour; the VAO's own index buffer is
 * bound back after.
 */
export function drawEdges(gl: WebGL2RenderingContext, program: SkinningProgram, target: EdgeTarget, style: DrawStyle): void {
  const { primitive, vao } = target;
  const edges = style.edgesOf!(primitive);
  const indexBuffer = primitive.buffers[primitive.buffers.length - 1];
  // Making the edge buffer (first use) may have unbound the VAO.
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, edges.buffer);
  gl.uniform4fv(program.u_baseColorFactor, style.edgeColor);
  gl.activeTexture(gl.TEXTURE0 + BASE_COLOR_UNIT);
  gl.bindTexture(gl.TEXTURE_2D, target.white);
  gl.drawElements(gl.LINES, edges.count, gl.UNSIGNED_INT, 0);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
}
