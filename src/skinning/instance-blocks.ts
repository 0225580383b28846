import type { SkinningMethod } from './skinning-method.ts';

/**
 * The layout instanced skinning reads (`shaders/skinned.vert` `INSTANCED`): one block of RGBA32F texels per
 * drawn instance in one texture, block b starting at texel `b·blockTexels`, texels counted row-major across
 * rows {@link INSTANCE_TEXTURE_WIDTH} wide. A block may straddle rows, but a joint's `stride` texels never do,
 * nor the 3–4 texels at a block's start: with `stride` 3 (LBS) live blocks are `3 + 3·(joints + rigid)`
 * texels, with `stride` 4 (DQS) `4 + 4·(joints + rigid)`, baked blocks 6 and baked frames `stride·(joints +
 * rigid)`, and the width is a multiple of 12, so the shader computes one texel address per joint.
 *
 * - texels 0–2: the instance's world matrix W' = W·T(O) (O the model origin the palettes are relative to), its
 *   3 rows (the bottom row is 0 0 0 1), so a palette output `p − O` lands at `W·p` in world space. DQS pads
 *   it with one unused texel.
 * - live mode: then the instance's pose ({@link InstancePoseLayout}): each skin's palette (LBS: packed rows,
 *   `packPaletteRows`, 3 texels per joint; DQS: `computeDualQuaternionPalette`, 4 texels per joint), then the
 *   model-space matrix `T(−O)·M` of every rigid mesh instance's node as 3 packed rows (padded to `stride`),
 *   then every morphed mesh instance's weights, 4 per texel (blended linearly between baked frames).
 * - baked mode ({@link BAKED_BLOCK_TEXELS} texels): texel 3 is `(f₀, f₁, a, 0)`: two frame indices into the
 *   baked palette texture ({@link BakedPalettes}, each frame one pose in the same layout) and the blend factor;
 *   a joint's matrix rows are `A = (1 − a)·K(f₀) + a·K(f₁)`, a DQS rotation quaternion the normalised
 *   sign-aligned blend (nlerp). Texel 4 is `(g₀, g₁, b, w)`, the same for the instance's blended clip, weighing
 *   w: rows `(1 − w)·A + w·B`, DQS rotations again by nlerp (w = 0: A alone).
 */
export const INSTANCE_TEXTURE_WIDTH = 2040;   // 12 · 170

/** Texels of the world matrix at the start of every block. */
export const WORLD_TEXELS = 3;

/**
 * Texels of a baked block: the world matrix's 3, `(f₀, f₁, a, 0)` of its clip, `(g₀, g₁, b, w)` of its blended
 * clip (w = 0: none), and one unused, so that 12-texel-aligned rows hold whole blocks.
 */
export const BAKED_BLOCK_TEXELS = 6;

/** Where one pose sits in a live block (after the world texels) or a baked frame. */
export interface InstancePoseLayout {
  /** Texels per joint and per rigid node: 3 (LBS rows), 4 (DQS: rows of S with t, then the quaternion). */
  readonly stride: 3 | 4;
  /** Per skin: its palette's first texel within the pose. */
  readonly skinOffsets: Int32Array;
  /** Per mesh instance: its rigid node's 3 rows' first texel within the pose, −1 for a skinned instance. */
  readonly rigidOffsets: Int32Array;
  /**
   * Per mesh instance: the first texel of its morph weights within the pose (4 per texel, target t in
   * component t mod 4 of texel `morphOffsets[m] + ⌊t/4⌋`), −1 for a mesh without morph targets.
   */
  readonly morphOffsets: Int32Array;
  /** Texels of one pose: `stride·(Σ joints + rigid mesh instances)` + the morph weights, padded to a multiple of `stride`. */
  readonly texels: number;
}

/**
 * The pose layout of a model's skins (`jointCounts[s]` joints each) and mesh instances (`skinOfInstance[m]`,
 * −1 rigid; `morphTargetsOfInstance[m]` targets, 0 none) with `stride` texels per joint and rigid node.
 * Allocates the result.
 */
export function instancePoseLayout(
  jointCounts: readonly number[], skinOfInstance: readonly number[], morphTargetsOfInstance: readonly number[], stride: 3 | 4,
): InstancePoseLayout {
  const skinOffsets = new Int32Array(jointCounts.length), rigidOffsets = new Int32Array(skinOfInstance.length).fill(-1);
  const morphOffsets = new Int32Array(skinOfInstance.length).fill(-1);
  let texels = 0;
  jointCounts.forEach((joints, s) => {
    skinOffsets[s] = texels;
    texels += stride * joints;
  });
  skinOfInstance.forEach((skin, m) => {
    if (skin >= 0) return;
    rigidOffsets[m] = texels;
    texels += stride;
  });
  morphTargetsOfInstance.forEach((targets, m) => {
    if (!(targets > 0)) return;
    morphOffsets[m] = texels;
    texels += Math.ceil(targets / 4);
  });
  // Whole joints, so the next block (live) or frame (baked) starts aligned.
  texels = stride * Math.ceil(texels / stride);
  return { stride, skinOffsets, rigidOffsets, morphOffsets, texels };
}

/** Palettes baked once: every frame of every clip, each frame `frameTexels` texels, one pose ({@link layout}). */
export interface BakedPalettes {
  /** `Float32Array(4·frameTexels·frameCount)`, padded to whole {@link INSTANCE_TEXTURE_WIDTH} rows: frame f at texel `f·frameTexels`. */
  readonly rows: Float32Array;
  /** Texels per frame: `layout.texels`. */
  readonly frameTexels: number;
  /** Frames over all clips. */
  readonly frameCount: number;
  /** Per skin: its first texel within a frame (`layout.skinOffsets`). */
  readonly skinOffsets: Int32Array;
  /** Where each skin and rigid node sits within a frame. */
  readonly layout: InstancePoseLayout;
}

/** What `drawCrowd` (src/crowd/gpu/crowd-pass.ts) reads each frame (written by `Crowd.prepare`, src/crowd/crowd.ts). */
export interface InstanceBlocks {
  /** `'live'`: palettes per instance; `'baked'`: frame indices into {@link baked}. */
  readonly mode: 'live' | 'baked';
  /** Skinning mode and weight policy the palettes are laid out for and the shader blends with. */
  readonly method: SkinningMethod;
  /** Instances to draw this frame (after culling): blocks 0 … drawCount − 1. */
  readonly drawCount: number;
  /**
   * Blocks `mirroredFrom … drawCount − 1` are the instances whose world matrix mirrors (det < 0), drawn with
   * the opposite `frontFace`; blocks before it do not mirror.
   */
  readonly mirroredFrom: number;
  /** Texels per instance block. */
  readonly blockTexels: number;
  /** `Float32Array(4·blockTexels·capacity)` padded to whole {@link INSTANCE_TEXTURE_WIDTH} rows. */
  readonly blocks: Float32Array;
  /** Live mode: per skin, its palette's first texel within a block. */
  readonly skinOffsets: Int32Array;
  /** Live mode: per mesh instance, its rigid node's rows' first texel within a block (−1: skinned). */
  readonly rigidOffsets: Int32Array;
  /** Live mode: per mesh instance, its morph weights' first texel within a block (−1: no morph targets). */
  readonly morphOffsets: Int32Array;
  /**
   * Per mesh instance: 1 when its own placement mirrors in the rest pose (a skin's first skinning matrix, a
   * rigid node's model matrix, det < 0), so its winding flips once more (glTF 2.0 §3.7.4).
   */
  readonly meshMirrored: Uint8Array;
  /** Baked mode: the baked palettes (uploaded once, re-uploaded when this object changes). */
  readonly baked: BakedPalettes | null;
  /** The model origin O (`AnimatedModel.origin`) the palettes are relative to. */
  readonly origin: Float64Array;
  /**
   * Changes whenever the blocks are written again (each `Crowd.prepare`): blocks drawn twice at one revision
   * (the main draw and a shadow pass) are uploaded once.
   */
  readonly revision: number;
}

/** Floats to allocate for `texels` texels padded to whole rows of {@link INSTANCE_TEXTURE_WIDTH}. */
export function paddedTexelFloats(texels: number): number {
  return 4 * INSTANCE_TEXTURE_WIDTH * Math.max(1, Math.ceil(texels / INSTANCE_TEXTURE_WIDTH));
}
