import { computeDualQuaternionPalette } from '../../skinning/dual-quaternion-palette.ts';
import { packPaletteRows } from '../../skinning/palette-rows.ts';
import type { SkinningMethod } from '../../skinning/skinning-method.ts';
import type { GpuModel } from './gpu-model.ts';
import { PALETTE_BLOCK_BINDING, uploadPaletteBuffer } from './palette-buffer.ts';
import { paletteStride, type PalettePath } from './palette-path.ts';
import { uploadPaletteTexture } from './palette-texture.ts';
import { PALETTE_UNIT, type SkinningProgram } from './program-cache.ts';

/**
 * The palette one {@link bindSkinPalette} call binds: the skin's matrices, how they are packed and where they go.
 * Callers keep one and rewrite it per call (no allocation per draw).
 */
export interface SkinPaletteRequest {
  /** `Float32Array(16·jointCount)`, column-major skinning matrices of the skin. */
  skinMatrices: Float32Array;
  jointCount: number;
  /** LBS packs 3×4 rows, DQS dual quaternions. */
  method: SkinningMethod;
  palettePath: PalettePath;
  /** Joints the program's palette holds (`paletteCapacity`). */
  capacity: number;
  /** The draw's serial: the palette is packed and uploaded once per serial. */
  serial: number;
}

/**
 * Makes skin `skin`'s palette readable by `program` on `request.palettePath`: packed from `request.skinMatrices` (LBS 3×4 rows,
 * or DQS dual quaternions: src/skinning/palette-rows.ts, dual-quaternion-palette.ts) and uploaded once per
 * draw `request.serial`, whichever primitive of whichever instance comes first; later primitives of the same draw only
 * bind it (the uniform path sets it on each program).
 * @returns milliseconds spent packing and uploading
 */
export function bindSkinPalette(
  gl: WebGL2RenderingContext, program: SkinningProgram, gpuModel: GpuModel, skin: number, request: SkinPaletteRequest,
): number {
  const start = performance.now();
  const { skinMatrices, jointCount, method, palettePath, capacity, serial } = request;
  const stride = paletteStride(method.skinning);
  const rows = gpuModel.paletteRows[skin];
  const fresh = gpuModel.paletteFrames[skin] !== serial;
  if (fresh) {
    if (method.skinning === 'dqs') computeDualQuaternionPalette(rows, skinMatrices, jointCount);
    else packPaletteRows(rows, skinMatrices, jointCount);
    gpuModel.paletteFrames[skin] = serial;
  }
  if (palettePath === 'uniform') {
    gl.uniform4fv(program.u_joints, rows, 0, 4 * stride * jointCount);
  } else if (palettePath === 'ubo') {
    const buffer = gpuModel.paletteBuffer(skin, capacity);
    if (fresh) uploadPaletteBuffer(gl, buffer, rows, jointCount, stride);
    else gl.bindBufferBase(gl.UNIFORM_BUFFER, PALETTE_BLOCK_BINDING, buffer.buffer);
  } else {
    gl.activeTexture(gl.TEXTURE0 + PALETTE_UNIT);
    const texture = gpuModel.paletteTextures[skin];
    if (fresh) uploadPaletteTexture(gl, texture, rows, stride);
    else gl.bindTexture(gl.TEXTURE_2D, texture.texture);
  }
  return performance.now() - start;
}
