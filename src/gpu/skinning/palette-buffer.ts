import { MAX_PALETTE_STRIDE } from './palette-path.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';

/**
 * The uniform-buffer form of a skinning palette: a `UNIFORM_BUFFER` laid out as the std140 block
 * `Palette { vec4 u_jointBlock[stride·capacity]; }` of `shaders/skinned.vert` (`PALETTE_UBO`): joint i's
 * `stride` vectors (`palette-rows.ts` for LBS, `dual-quaternion-palette.ts` for DQS) at byte 16·stride·i.
 * WebGL2 requires the bound buffer to be at least the block's size, so it is sized for the compiled
 * `capacity` at the largest stride, not the skin's joint count.
 */
export class PaletteBuffer {
  /** Joints the buffer holds room for at the largest stride (the compiled array size, `paletteCapacity`). */
  readonly capacity: number;
  /** Restored to its size only: its contents are written before each draw that reads them. */
  private readonly storage: GpuBuffer;

  /** Use {@link createPaletteBuffer}. */
  constructor(gl: WebGL2RenderingContext, capacity: number) {
    this.capacity = Math.max(1, capacity);
    this.storage = new GpuBuffer(gl, gl.UNIFORM_BUFFER, 16 * MAX_PALETTE_STRIDE * this.capacity, gl.DYNAMIC_DRAW, 'palette buffer');
  }

  /** The buffer in the context as it is now. */
  get buffer(): WebGLBuffer {
    return this.storage.handle;
  }

  /** Deletes the buffer. Idempotent. */
  dispose(): void {
    this.storage.dispose();
  }
}

/** Uniform buffer binding point of the `Palette` block. */
export const PALETTE_BLOCK_BINDING = 0;

/**
 * Allocates a palette buffer of `capacity` joints (`64·capacity` bytes, DYNAMIC_DRAW), contents zero.
 * @throws Error when the buffer cannot be created (context lost)
 */
export function createPaletteBuffer(gl: WebGL2RenderingContext, capacity: number): PaletteBuffer {
  return new PaletteBuffer(gl, capacity);
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
