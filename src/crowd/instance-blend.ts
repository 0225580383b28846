import { BlendingJob, blendLayers, type BlendingLayer } from '../animation/blending-job.ts';
import { createLocalPose, type LocalPose } from '../skeleton/local-pose.ts';
import type { PoseSource } from '../scene/pose-source.ts';

/** A pose source sampled at a time it is given: `ClipSample`, `InPlaceClipSample`. */
export interface TimedPoseSource extends PoseSource {
  /** Sets the time sampled (seconds); returns the source. */
  at(time: number): PoseSource;
}

/** Per instance: its clip's time, its blended clip's time and weight (a `Crowd`'s arrays). */
export interface BlendedInstances {
  readonly times: Float64Array;
  readonly blendTimes: Float64Array;
  readonly blendWeights: Float32Array;
}

/**
 * A {@link PoseSource} for a crowd instance playing two clips at once, one by one in JavaScript (the path of
 * crowds the crowd kernel does not pose): clip A at its time blended with clip B at its own by weight w, as the
 * `Animator`'s two-layer crossfade blends (`blendLayers`, src/animation/blending-job.ts: layers A at 1 − w and B at
 * w). w ≤ 0 is A alone and w ≥ 1 B alone, each exactly as sampled. B is evaluated before A, so a source shared
 * by both (the same clip) keeps A's state last (an in-place source's `motion`). Allocates nothing per frame.
 */
export class InstanceBlend implements PoseSource {
  private a: TimedPoseSource | null = null;
  private b: TimedPoseSource | null = null;
  private instances: BlendedInstances | null = null;
  private k = 0;
  private readonly other: LocalPose;
  private readonly job = new BlendingJob();
  private readonly layerA: BlendingLayer;
  private readonly layerB: BlendingLayer;

  /** @param jointCount, morphWeightCount the model's (B's pose is made to match) */
  constructor(jointCount: number, morphWeightCount: number) {
    this.other = createLocalPose(jointCount, morphWeightCount);
    this.layerA = this.job.addLayer(this.other);
    this.layerB = this.job.addLayer(this.other);
    this.job.scratchFor(jointCount);
  }

  /**
   * Sets what {@link evaluate} blends: instance k of `instances`, `a` at its time and `b` at its blended time, B
   * weighing its blend weight (read when evaluated: arrays and an index cross the call, no double to box).
   * Returns this.
   */
  set(a: TimedPoseSource, b: TimedPoseSource, instances: BlendedInstances, k: number): this {
    this.a = a;
    this.b = b;
    this.instances = instances;
    this.k = k;
    return this;
  }

  /** `out` = A and B blended (see the class). */
  evaluate(out: LocalPose, restPose: LocalPose): LocalPose {
    const instances = this.instances!, k = this.k, w = instances.blendWeights[k];
    if (w >= 1) {
      this.b!.at(instances.blendTimes[k]).evaluate(out, restPose);
      return out;
    }
    if (w > 0) this.b!.at(instances.blendTimes[k]).evaluate(this.other, restPose);
    this.a!.at(instances.times[k]).evaluate(out, restPose);
    if (!(w > 0)) return out;
    this.layerA.pose = out;
    this.layerA.weight = 1 - w;
    this.layerB.weight = w;
    blendLayers(out, this.job);
    return out;
  }
}
