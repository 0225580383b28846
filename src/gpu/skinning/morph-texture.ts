import type { PrimitiveAsset } from '../../asset/model-asset.ts';
import { DataTexture } from '../device/data-texture.ts';

/**
 * Morph targets on the GPU (`MORPH_TARGETS` variant of shaders/skinned.vert, docs/explanation/skinning-formulas.md M0):
 *
 * - **Deltas**, one RGBA32F texture per primitive with targets ({@link packMorphDeltas}): per target t, per
 *   vertex v, `A` texels — the POSITION delta, then the NORMAL delta when any target has one, then the TANGENT
 *   delta when any target has one and the primitive has tangents (xyz; w unused) — texel
 *   `(t·vertexCount + v)·A + slot`, rows of `width` texels, texel i at `(i % width, i / width)`. The shader
 *   addresses its vertex by `gl_VertexID` (the index value under `drawElements`), so no vertex attribute is
 *   spent and the target count is not limited by them.
 * - **Active targets**, one RG32F texture per model ({@link MorphActiveList}): before each draw of a morphed
 *   instance, the (target index, weight) pairs of its targets whose weight is not 0, in target order, and
 *   their count `u_morphActiveCount`. The shader loops over those only, so a target at weight 0 costs nothing,
 *   and the list has a texel for every target of the largest mesh: no target is ever dropped. An instance with
 *   no active target is drawn with the variant without `MORPH_TARGETS`.
 */

/** Texels per row of a deltas texture (rows wrap; WebGL2 guarantees MAX_TEXTURE_SIZE ≥ 2048). */
export const MORPH_TEXTURE_WIDTH = 2048;

/** A primitive's morph deltas packed for upload. */
export interface MorphDeltas {
  /** `Float32Array(4·width·height)`: RGBA texels in the layout above, zero-padded to whole rows. */
  readonly texels: Float32Array;
  readonly width: number;
  readonly height: number;
  /** `u_morphLayout`: (vertexCount, texels per vertex A, NORMAL slot or −1, TANGENT slot or −1). */
  readonly layout: Int32Array;
}

/**
 * Packs `primitive.morphTargets` in the deltas layout (module comment).
 * @param maxTextureSize the context's `MAX_TEXTURE_SIZE`: the texture may have at most that many rows
 * @returns the packed deltas, or null for a primitive without morph targets
 * @throws RangeError when the deltas need more rows than `maxTextureSize`
 */
export function packMorphDeltas(primitive: PrimitiveAsset, maxTextureSize: number): MorphDeltas | null {
  const targets = primitive.morphTargets;
  if (!targets || targets.count === 0) return null;
  const n = targets.count, vertexCount = primitive.vertexCount;
  const normalSlot = targets.normals ? 1 : -1;
  const tangentSlot = targets.tangents && primitive.tangents ? (normalSlot >= 0 ? 2 : 1) : -1;
  const perVertex = 1 + (normalSlot >= 0 ? 1 : 0) + (tangentSlot >= 0 ? 1 : 0);
  const count = n * vertexCount * perVertex;
  const width = Math.max(1, Math.min(MORPH_TEXTURE_WIDTH, count));
  const height = Math.max(1, Math.ceil(count / width));
  if (height > maxTextureSize) {
    throw new RangeError(`${n} morph targets of ${vertexCount} vertices need ${count} texels, more than a ${width} × ${maxTextureSize} texture holds`);
  }
  const texels = new Float32Array(4 * width * height);
  const put = (deltas: Float32Array | null, slot: number) => {
    if (!deltas || slot < 0) return;
    for (let i = 0; i < n * vertexCount; i++) {
      const o = 4 * (i * perVertex + slot);
      texels[o] = deltas[3 * i]; texels[o + 1] = deltas[3 * i + 1]; texels[o + 2] = deltas[3 * i + 2];
    }
  };
  put(targets.positions, 0);
  put(targets.normals, normalSlot);
  put(targets.tangents, tangentSlot);
  return { texels, width, height, layout: Int32Array.of(vertexCount, perVertex, normalSlot, tangentSlot) };
}

/**
 * {@link MorphDeltas} as an RGBA32F texture (NEAREST, no mipmaps; read with texelFetch). `texels` gives the
 * deltas' texels: the packing already made for the first upload, packed again from the asset on a restore (so
 * no packed copy is kept). Leaves it bound to TEXTURE_2D of the active unit.
 * @throws Error when the texture cannot be created (context lost)
 */
export function createMorphDeltasTexture(gl: WebGL2RenderingContext, deltas: Pick<MorphDeltas, 'width' | 'height'>, texels: () => Float32Array): DataTexture {
  return new DataTexture(gl, {
    internalFormat: gl.RGBA32F, width: deltas.width, height: deltas.height, label: 'morph deltas texture',
    contents: { format: gl.RGBA, type: gl.FLOAT, texels: texels as () => Float32Array<ArrayBuffer> },
  });
}

/**
 * The active-targets list of one model: an RG32F texture with a texel per target of its largest mesh and the
 * scratch it is filled from, both made once ({@link MorphActiveList.upload} allocates nothing).
 */
export class MorphActiveList {
  /** Restored to its size only: the list is uploaded before each draw that reads it. */
  readonly storage: DataTexture;
  /** Texels per row and rows: `width · height ≥ capacity`. */
  readonly width: number;
  readonly height: number;
  /** `Float32Array(2·width·height)`: (target index, weight) pairs, the active ones first. */
  private readonly pairs: Float32Array;

  /**
   * @param capacity the most morph targets of any mesh of the model (≥ 1)
   * @throws Error when the texture cannot be created (context lost)
   */
  constructor(private readonly gl: WebGL2RenderingContext, capacity: number) {
    this.width = Math.max(1, Math.min(MORPH_TEXTURE_WIDTH, capacity));
    this.height = Math.max(1, Math.ceil(capacity / this.width));
    this.pairs = new Float32Array(2 * this.width * this.height);
    this.storage = new DataTexture(gl, { internalFormat: gl.RG32F, width: this.width, height: this.height, label: 'MorphActiveList' });
  }

  /** The texture in the context as it is now. */
  get texture(): WebGLTexture {
    return this.storage.handle;
  }

  /**
   * Writes the (target, weight) pairs of the weights `weights[offset … offset + count)` that are not 0, in
   * target order, and uploads the rows they fill to the texture, left bound to TEXTURE_2D of the active unit.
   * Allocates nothing.
   * @returns the number of active targets (0: nothing uploaded; draw without `MORPH_TARGETS`)
   * @throws RangeError when `count` exceeds the list's capacity or `weights` is too short
   */
  upload(weights: Float32Array, offset: number, count: number): number {
    if (count > this.width * this.height || offset + count > weights.length) {
      throw new RangeError(`MorphActiveList: weights ${offset}…${offset + count - 1} of ${weights.length} for a list of ${this.width * this.height}`);
    }
    const pairs = this.pairs;
    let active = 0;
    for (let t = 0; t < count; t++) {
      const w = weights[offset + t];
      if (w === 0) continue;
      pairs[2 * active] = t;
      pairs[2 * active + 1] = w;
      active++;
    }
    if (active === 0) return 0;
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, this.width, Math.ceil(active / this.width), gl.RG, gl.FLOAT, pairs, 0);
    return active;
  }
}

