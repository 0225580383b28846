import type { LocalPose } from '../skeleton/local-pose.ts';
import { BlendingJob } from './blending-job.ts';
import { ClipSlot } from './clip-slot.ts';

/**
 * How a layer combines with the layers below it (`blendLayers`):
 * - `override`: a crossfade from the result so far to the layer's clips at α = layerWeight·min(1, Σ fade
 *   weights)·mask;
 * - `additive`: each clip is added as `clip − reference`, scaled by layer weight × fade weight × mask.
 */
export type LayerMode = 'override' | 'additive';

/** Options of `Animator.addLayer`. */
export interface LayerOptions {
  /** Default `'override'`. */
  readonly mode?: LayerMode;
  /** Layer weight in [0, 1], default 1. */
  readonly weight?: number;
  /**
   * `Float32Array(jointCount)`: per-joint weights in [0, 1], or null (default) for all joints at 1. Copied (into
   * the blending kernel's memory when there is one): later edits of the array are not seen, set it again.
   */
  readonly mask?: Float32Array | null;
}

/** One layer of an `Animator`: its clips (slots), how it combines, its weight and mask. */
export class AnimatorLayer {
  mode: LayerMode;
  weight: number;
  /** The layer's per-joint weights, {@link maskStore} while one is set, else null. */
  mask: Float32Array | null = null;
  /** `Float32Array(jointCount)`: the copy of the mask last set (where the blending kernel reads it), made on the first. */
  maskStore: Float32Array | null = null;
  readonly slots: ClipSlot[];
  /** Scratch for the blend of this layer's clips. */
  readonly pose: LocalPose;
  /** Blends the layer's clips by their fade weights: record i is slot i (weight 0 while inactive). */
  readonly clips = new BlendingJob();

  constructor(jointCount: number, morphWeightCount: number, capacity: number, options: LayerOptions, createPose: PoseFactory) {
    this.mode = options.mode ?? 'override';
    this.weight = options.weight ?? 1;
    this.slots = Array.from({ length: capacity }, () => new ClipSlot(createPose(jointCount, morphWeightCount)));
    this.pose = createPose(jointCount, morphWeightCount);
    for (const slot of this.slots) this.clips.addLayer(slot.pose, 0.5);
    this.clips.scratchFor(jointCount); // allocated now, not on the first crossfade
  }

  /** Adds free slots (and their blend records) up to `capacity`; allocates. */
  grow(capacity: number, jointCount: number, morphWeightCount: number, createPose: PoseFactory): void {
    while (this.slots.length < capacity) {
      const slot = new ClipSlot(createPose(jointCount, morphWeightCount));
      this.slots.push(slot);
      this.clips.addLayer(slot.pose, 0.5);
    }
  }

  /**
   * Copies `mask` into {@link maskStore} (made by `createJointWeights` on the first mask), or clears the mask.
   * Allocates only on the first mask.
   */
  setMask(mask: Float32Array | null, createJointWeights: () => Float32Array): void {
    if (mask === null) {
      this.mask = null;
      return;
    }
    this.maskStore ??= createJointWeights();
    this.maskStore.set(mask);
    this.mask = this.maskStore;
  }
}

/** Makes a local pose of `jointCount` joints and `morphWeightCount` morph weights: identity rotations, unit scales. */
export type PoseFactory = (jointCount: number, morphWeightCount: number) => LocalPose;
