import { MAX_PALETTE_STRIDE } from './palette-path.ts';

/**
 * The uniform-buffer form of a skinning palette: a `UNIFORM_BUFFER` laid out as the std140 block
 * `Palette { vec4 u_jointBlock[stride·capacity]; }` of `shaders/skinned.vert` (`PALETTE_UBO`): joint i's
 * `stride` vectors (`palette-rows.ts` for LBS, `dual-quaternion-palette.ts` for DQS) at byte 16·stride·i.
 * WebGL2 requires the bound buffer to be at least the block's size, so it is sized for the compiled
 * `capacity` at the largest stride, not the skin's joint count.
 */
export interface PaletteBuffer {
  readonly buffer: WebGLBuffer;
  /** Joints the buffer holds room for at the largest stride (the compiled array size, `paletteCapacity`). */
  readonly capacity: number;
}

/** Uniform buffer binding point of the `Palette` block. */
export const PALETTE_BLOCK_BINDING = 0;

/**
 * Allocates a palette buffer of `capacity` joints (`64·capacity` bytes, DYNAMIC_DRAW), contents zero.
 * @throws Error when the buffer cannot be created (context lost)
 */
export function createPaletteBuffer(gl: WebGL2RenderingContext, capacity: number): PaletteBuffer {
  const buffer = gl.createBuffer();
  if (!buffer) throw new Error('createPaletteBuffer: gl.createBuffer failed (context lost?)');
  gl.bindBuffer(gl.UNIFORM_BUFFER, buffer);
  gl.bufferData(gl.UNIFORM_BUFFER, 16 * MAX_PALETTE_STRIDE * Math.max(1, capacity), gl.DYNAMIC_DRAW);
  gl.bindBuffer(gl.UNIFORM_BUFFER, null);
  return { buffer, capacity: Math.max(1, capacity) };
}

/**
 * Uploads `jointCount` joints of `stride` vectors each (`Float32Array(≥ 4·stride·jointCount)`) with one
 * `bufferSubData` and binds the buffer to {@link PALETTE_BLOCK_BINDING}. Allocates nothing.
 * @throws RangeError when `jointCount` exceeds the buffer's capacity
 */
export function uploadPaletteBuffer(gl: WebGL2RenderingContext, target: PaletteBuffer, rows: Float32Array, jointCount: number, stride: number): void {
  if (jointCount > target.capacity) throw new RangeError(`uploadPaletteBuffer: ${jointCount} joints, room for ${target.capacity}`);
  gl.bindBuffer(gl.UNIFORM_BUFFER, target.buffer);
  gl.bufferSubData(gl.UNIFORM_BUFFER, 0, rows, 0, 4 * stride * jointCount);
  gl.bindBuffer(gl.UNIFORM_BUFFER, null);
  gl.bindBufferBase(gl.UNIFORM_BUFFER, PALETTE_BLOCK_BINDING, target.buffer);
}
