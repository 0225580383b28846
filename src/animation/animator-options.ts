import type { LocalPose } from '../skeleton/local-pose.ts';
import type { LoopMode } from './loop-mode.ts';
import type { MotionRoot } from './root-motion.ts';
import type { BlendingBackend } from './blending-job.ts';
import type { PoseFactory } from './animator-layer.ts';
import type { SamplingBackend } from './sampling-context.ts';

/** Options of `Animator.play`. */
export interface PlayOptions {
  /** Crossfade duration in seconds from what the layer plays now to this clip; 0 (default) cuts. */
  readonly fade?: number;
  /** Default `'loop'`. */
  readonly loop?: LoopMode;
  /** Playback rate, default 1; negative plays backwards. */
  readonly speed?: number;
  /**
   * `loop` and `pingpong`: how many times the clip plays before it finishes (each wrap or bounce ends one, as
   * `<model-viewer>`'s `play({repetitions})`): an integer ≥ 1, default `Infinity`. The last one's end fires
   * `finished` instead of `loop` and the clip holds there (`ClipPlayer.finished`). Ignored by `once`.
   */
  readonly repetitions?: number;
  /** Layer index, default 0 (the base layer). */
  readonly layer?: number;
  /**
   * Clip time to start at, seconds. Default 0, or the clip's end for a negative speed in `once` mode.
   */
  readonly startTime?: number;
  /**
   * Additive layers: the reference pose the clip is taken relative to. Default: the clip itself at
   * `referenceTime` over the rest pose given to `Animator.evaluate` (computed once, on the first
   * evaluate after `play`).
   */
  readonly reference?: LocalPose;
  /** Additive layers: clip time of the default reference pose, seconds, default 0. */
  readonly referenceTime?: number;
}

/** Options of the `Animator` constructor. */
export interface AnimatorOptions {
  /** Clips a layer holds at once (fading ones included), default 4. */
  readonly maxClipsPerLayer?: number;
  /**
   * `Int32Array(w)`: the joint carrying each of the model's w morph weights (`LocalPose.morphWeights`; its mesh
   * instance's node), so layers' per-joint masks apply to them. Absent: the model has no morph weights.
   */
  readonly morphWeightJoints?: Int32Array;
  /** The joint whose travel `Animator.rootMotion` takes out (`findMotionRoot`); absent: no root motion. */
  readonly motionRoot?: MotionRoot | null;
  /**
   * Makes the back end of one clip player's streamed channels (`SamplingContext.kernel`), called once
   * per layer slot on its first `play`: `() => createSamplingKernel()` for WebAssembly SIMD (src/pose/), as
   * `AnimatedModel` does. Absent, or returning null: the portable loops of `sampleClip`.
   */
  readonly samplingKernel?: () => SamplingBackend | null;
  /**
   * Makes the poses the layers sample and blend in (`createLocalPose`'s layout and initial values): where the
   * sampling kernel writes in place, as `AnimatedModel` does with `KernelArena.createPose`. Default
   * `createLocalPose`.
   */
  readonly createPose?: PoseFactory;
  /**
   * The back end of every blend (`BlendingJob.kernel`: crossfades, layers with or without masks, additive
   * layers): the pose room's `BlendingKernel`, on poses made by `createPose` in the same memory, with the
   * layers' masks copied where it reads them (`BlendingBackend.createJointWeights`). Absent or null: the
   * portable loops.
   */
  readonly blendingKernel?: BlendingBackend | null;
}
