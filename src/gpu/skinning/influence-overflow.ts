import { DataTexture } from '../device/data-texture.ts';

/**
 * Influences beyond the 8 a vertex's attributes carry (`a_joints`/`a_weights`: slots 0–3,
 * `a_joints1`/`a_weights1`: slots 4–7; shaders/skinned.vert): slots 8… of every vertex go to one RG32F texture
 * per primitive, read by the `INFLUENCE_OVERFLOW` shader variant through the per-vertex `a_overflow` attribute
 * (first texel, count). Nothing is dropped: the shader blends every slot, as `skinVertices` does.
 */

/** Texels per row of an overflow texture (rows wrap; the last row is partial). */
export const OVERFLOW_TEXTURE_WIDTH = 1024;

/**
 * The shader's influence variant for a primitive of `influenceCount` slots per vertex: 4 (attributes
 * `a_joints`/`a_weights` only), 8 (`INFLUENCES_8`), or 12 (`INFLUENCES_8` + `INFLUENCE_OVERFLOW`, any count above 8).
 * @throws RangeError when `influenceCount` is not a positive multiple of 4
 */
export function influenceVariant(influenceCount: number): 4 | 8 | 12 {
  if (!(Number.isInteger(influenceCount) && influenceCount > 0 && influenceCount % 4 === 0)) {
    throw new RangeError(`influenceVariant: ${influenceCount} is not a positive multiple of 4`);
  }
  return influenceCount <= 4 ? 4 : influenceCount <= 8 ? 8 : 12;
}

/** CPU layout of a primitive's overflow influences. */
export interface OverflowLayout {
  /** `Float32Array(2·texelCount)`, RG texels: (joint index, weight) of slots 8…c−1 of vertex 0, then vertex 1, … */
  readonly texels: Float32Array;
  /** `Uint32Array(2·vertexCount)`: per vertex (first texel, count); count = c − 8 for every vertex. */
  readonly ranges: Uint32Array;
  /** Texture size: width ≤ {@link OVERFLOW_TEXTURE_WIDTH}, height ⌈texels / width⌉ (≥ 1). */
  readonly width: number;
  readonly height: number;
}

/**
 * Packs slots 8…c−1 of each vertex (vertex-major, slot order kept, zero weights too, so `implicit-last`
 * finds the last slot) into texels, padded to whole rows.
 * @param joints `c·vertexCount` joint indices (vertex-major), c = `influenceCount` > 8
 * @param weights `c·vertexCount` weights
 * @throws RangeError when `influenceCount` ≤ 8 or the arrays are too short
 */
export function packOverflow(joints: ArrayLike<number>, weights: ArrayLike<number>, influenceCount: number, vertexCount: number): OverflowLayout {
  const c = influenceCount, extra = c - 8;
  if (extra <= 0) throw new RangeError(`packOverflow: ${c} influences per vertex need no overflow`);
  if (joints.length < c * vertexCount || weights.length < c * vertexCount) {
    throw new RangeError(`packOverflow: ${vertexCount} vertices of ${c} influences need ${c * vertexCount} joints and weights`);
  }
  const count = extra * vertexCount;
  const width = Math.max(1, Math.min(OVERFLOW_TEXTURE_WIDTH, count));
  const height = Math.max(1, Math.ceil(count / width));
  const texels = new Float32Array(2 * width * height);
  const ranges = new Uint32Array(2 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    ranges[2 * v] = extra * v;
    ranges[2 * v + 1] = extra;
    for (let k = 0; k < extra; k++) {
      const t = extra * v + k, i = c * v + 8 + k;
      texels[2 * t] = weights[i] !== 0 ? joints[i] : 0;
      texels[2 * t + 1] = weights[i];
    }
  }
  return { texels, ranges, width, height };
}

/**
 * An {@link OverflowLayout} as an RG32F texture (NEAREST, no mipmaps; read with texelFetch), restored from
 * `layout` (the packing is the upload's source and its restore's). Leaves it bound to TEXTURE_2D of the active unit.
 * @throws Error when the texture cannot be created (context lost)
 */
export function createOverflowTexture(gl: WebGL2RenderingContext, layout: OverflowLayout): DataTexture {
  return new DataTexture(gl, {
    internalFormat: gl.RG32F, width: layout.width, height: layout.height, label: 'influence overflow texture',
    contents: { format: gl.RG, type: gl.FLOAT, texels: layout.texels as Float32Array<ArrayBuffer> },
  });
}
