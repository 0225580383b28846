import type { ModelAsset } from '../asset/model-asset.ts';
import type { RootMotionMode } from '../animation/root-motion.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';

/** How a crowd's instances are posed: `'live'` (CPU pose per instance, O(N·J)) or `'baked'` (GPU picks baked frames, O(N)). */
export type CrowdMode = 'live' | 'baked';

/** `Crowd` settings (src/crowd/crowd.ts). */
export interface CrowdOptions {
  /** Most instances the crowd holds (its arrays and blocks are sized for them once). */
  readonly capacity: number;
  /** Initial `Crowd.mode`; default `'live'`. */
  readonly mode?: CrowdMode;
  /** Frames per second clips are baked at for baked mode (on first use); default 30. */
  readonly bakeRate?: number;
  /**
   * Skinning mode and weight policy (src/skinning/skinning-method.ts), as `SkinnedRenderer.draw` takes them;
   * default LBS with normalised weights. Fixed for the crowd: its blocks and baked frames are laid out for it.
   */
  readonly method?: SkinningMethod;
  /** Initial `Crowd.rootMotion`; default `'off'`. */
  readonly rootMotion?: RootMotionMode;
  /**
   * Props every instance carries, composed into `Crowd.asset` in this order (`withProp`): each drawn where
   * `propMatrix` puts a single model's attachment, in the instance's pose, live and baked. Default none.
   */
  readonly props?: readonly CrowdProp[];
  /**
   * The memory budget (src/asset/memory-budget.ts) the per-instance arrays must fit:
   * `capacity ·` {@link crowdInstanceBytes}, checked before they are allocated. Default
   * `DEFAULT_MEMORY_BUDGET_BYTES` (512 MiB).
   */
  readonly memoryBudgetBytes?: number;
  /**
   * `'auto'` (default): live instances are posed by the WebAssembly SIMD crowd kernel (`CrowdKernel`, all
   * instances in one call) where the platform compiles it and the crowd is of the kind it poses
   * (`crowdKernelSupports`: LBS, no morph targets, clips the sampling kernel samples whole), else one by one in JavaScript
   * (`AnimatedModel.evaluate`). `'js'`: always one by one.
   */
  readonly backend?: 'auto' | 'js';
  /**
   * Clips an instance plays at once, an integer ≥ 2 (default 2: its clip and its blended clip, `Crowd.blend`);
   * more hold extra clips (`Crowd.extraClipIndices`), as an animation graph's blend trees and transitions play
   * them (`Crowd.setAnimationGraph`; 2·(1 + states fading out) for 1D trees). Each costs memory per instance
   * ({@link crowdInstanceBytes}, `crowdKernelInstanceBytes`).
   */
  readonly clipsPerInstance?: number;
}

/**
 * Bytes a `Crowd` holds per instance of its capacity, whatever its mode: clip, time, speed, world matrix
 * and box, draw order, root-motion placement, and the blended clip's index, time, speed, weight and fade rate
 * (200 bytes), each extra clip's index, time and weight (14 bytes; `extraClips` =
 * {@link CrowdOptions.clipsPerInstance} − 2), plus its live block of `blockTexels` RGBA float texels (16 bytes each).
 */
export function crowdInstanceBytes(blockTexels: number, extraClips = 0): number {
  return 2 + 8 + 4 + 64 + 48 + 4 + 48 + (2 + 8 + 4 + 4 + 4) + (2 + 8 + 4) * extraClips + 16 * blockTexels;
}

/** A prop on a joint of every instance of a crowd ({@link CrowdOptions.props}; the arguments of `withProp`). */
export interface CrowdProp {
  /** The prop's model (rigid or skinned), at its rest pose. */
  readonly asset: ModelAsset;
  /** A joint index or name of the crowd's model. */
  readonly joint: number | string;
  /**
   * 16 numbers, column-major: the prop's model space → the joint's frame (translation · rotation · scale, the
   * model's units: metres for glTF); default identity.
   */
  readonly offset?: ArrayLike<number>;
}

/** {@link CrowdOptions.clipsPerInstance}, default 2. @throws RangeError when it is not an integer ≥ 2 */
export function clipSlotsOf(options: CrowdOptions): number {
  const slots = options.clipsPerInstance ?? 2;
  if (!Number.isInteger(slots) || slots < 2) throw new RangeError(`Crowd: clipsPerInstance must be an integer ≥ 2, not ${slots}`);
  return slots;
}
