/**
 * The layout instanced skinning reads (`shaders/skinned.vert` `INSTANCED`): one block of RGBA32F texels per
 * drawn instance in one texture, instance k's block starting at texel `k·blockTexels`, texels counted
 * row-major across rows {@link INSTANCE_TEXTURE_WIDTH} wide. A block may straddle rows, but a joint's 3 texels
 * never do, nor the 3–4 texels at a block's start: live blocks are `3 + 3·joints` texels, baked blocks 4, baked
 * frames `3·joints`, and the width is a multiple of 12, so the shader computes one texel address per joint.
 *
 * - texels 0–2: the instance's world matrix W' = W·T(O) (O the model origin the palettes are relative to), its
 *   3 rows (the bottom row is 0 0 0 1), so a palette output `p − O` lands at `W·p` in world space.
 * - live mode: then each skin's palette as packed rows (`packPaletteRows`, 3 texels per joint), skin s from
 *   texel `skinOffsets[s]` of the block.
 * - baked mode: texel 3 is `(f₀, f₁, a, 0)`: two frame indices into the baked palette texture
 *   ({@link BakedPalettes}) and the blend factor; the joint matrix is `(1 − a)·K(f₀) + a·K(f₁)`.
 */
export const INSTANCE_TEXTURE_WIDTH = 2040;   // 12 · 170

/** Texels of the world matrix at the start of every block. */
export const WORLD_TEXELS = 3;

/** Palettes baked once: every frame of every clip, each frame `frameTexels` texels of packed rows. */
export interface BakedPalettes {
  /** `Float32Array(4·frameTexels·frameCount)`, padded to whole {@link INSTANCE_TEXTURE_WIDTH} rows: frame f at texel `f·frameTexels`. */
  readonly rows: Float32Array;
  /** Texels per frame: Σ over skins of 3·joints. */
  readonly frameTexels: number;
  /** Frames over all clips. */
  readonly frameCount: number;
  /** Per skin: its first texel within a frame. */
  readonly skinOffsets: Int32Array;
}

/** What `SkinnedRenderer.drawCrowd` reads each frame (written by `Crowd.prepare`, src/crowd/crowd.ts). */
export interface InstanceBlocks {
  /** `'live'`: palettes per instance; `'baked'`: frame indices into {@link baked}. */
  readonly mode: 'live' | 'baked';
  /** Instances to draw this frame (after culling): blocks 0 … drawCount − 1. */
  readonly drawCount: number;
  /** Texels per instance block. */
  readonly blockTexels: number;
  /** `Float32Array(4·blockTexels·capacity)` padded to whole {@link INSTANCE_TEXTURE_WIDTH} rows. */
  readonly blocks: Float32Array;
  /** Live mode: per skin, its palette's first texel within a block. */
  readonly skinOffsets: Int32Array;
  /** Baked mode: the baked palettes (uploaded once, re-uploaded when this object changes). */
  readonly baked: BakedPalettes | null;
  /** The model origin O (`AnimatedModel.origin`) the palettes are relative to. */
  readonly origin: Float64Array;
}

/** Floats to allocate for `texels` texels padded to whole rows of {@link INSTANCE_TEXTURE_WIDTH}. */
export function paddedTexelFloats(texels: number): number {
  return 4 * INSTANCE_TEXTURE_WIDTH * Math.max(1, Math.ceil(texels / INSTANCE_TEXTURE_WIDTH));
}
