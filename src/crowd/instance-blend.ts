import { BlendingJob, blendLayers, type BlendingLayer } from '../animation/blending-job.ts';
import { createLocalPose, type LocalPose } from '../skeleton/local-pose.ts';
import type { PoseSource } from '../scene/pose-source.ts';
import type { ExtraClips } from './extra-clips.ts';

/** A pose source sampled at a time it is given: `ClipSample`, `InPlaceClipSample`. */
export interface TimedPoseSource extends PoseSource {
  /** Sets the time sampled (seconds); returns the source. */
  at(time: number): PoseSource;
}

/** Per instance: its clip's time, its blended clip's time and weight, its extra clips (a `Crowd`'s arrays). */
export interface BlendedInstances {
  readonly times: Float64Array;
  readonly blendTimes: Float64Array;
  readonly blendWeights: Float32Array;
  readonly extraClips: ExtraClips;
}

/**
 * A {@link PoseSource} for a crowd instance playing two clips at once, one by one in JavaScript (the path of
 * crowds the crowd kernel does not pose): clip A at its time blended with clip B at its own by weight w, as the
 * `Animator`'s two-layer crossfade blends (`blendLayers`, src/animation/blending-job.ts: layers A at 1 − w and B at
 * w). w ≤ 0 is A alone and w ≥ 1 B alone, each exactly as sampled. B is evaluated before A, so a source shared
 * by both (the same clip) keeps A's state last (an in-place source's `motion`). When w > 0 and the instance's
 * first extra clip weighs e₀ > 0, its extra clips (up to the first at weight 0) join as further layers at their
 * weights eⱼ, A at 1 − w − Σ eⱼ (left out when ≤ 0): the crowd kernel's `manyClips`. Allocates nothing per frame.
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
  /** Per extra clip slot, its pose and layer. */
  private readonly extraLayers: BlendingLayer[] = [];
  /** The source of a clip index (`Crowd`'s: in place when its root motion says so). */
  private readonly sourceOf: (clip: number) => TimedPoseSource;

  /**
   * @param jointCount, morphWeightCount the model's (B's pose is made to match)
   * @param extraClips extra clips per instance (`ExtraClips.count`)
   * @param sourceOf the timed source of a clip index (−1 the rest pose), for the extra clips
   */
  constructor(jointCount: number, morphWeightCount: number, extraClips = 0, sourceOf: (clip: number) => TimedPoseSource = () => { throw new RangeError('InstanceBlend: no extra clips'); }) {
    this.other = createLocalPose(jointCount, morphWeightCount);
    this.layerA = this.job.addLayer(this.other);
    this.layerB = this.job.addLayer(this.other);
    for (let j = 0; j < extraClips; j++) this.extraLayers.push(this.job.addLayer(createLocalPose(jointCount, morphWeightCount)));
    this.job.layerCount = 2;
    this.job.scratchFor(jointCount);
    this.sourceOf = sourceOf;
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
    const extra = instances.extraClips, E = extra.count;
    if (w > 0 && E > 0 && extra.weights[E * k] > 0) return this.evaluateMany(out, restPose);
    if (w > 0) this.b!.at(instances.blendTimes[k]).evaluate(this.other, restPose);
    this.a!.at(instances.times[k]).evaluate(out, restPose);
    if (!(w > 0)) return out;
    this.layerA.pose = out;
    this.layerA.weight = 1 - w;
    this.layerB.weight = w;
    blendLayers(out, this.job);
    return out;
  }

  /** `out` = A, B and the extra clips blended (see the class). */
  private evaluateMany(out: LocalPose, restPose: LocalPose): LocalPose {
    const instances = this.instances!, k = this.k, extra = instances.extraClips, E = extra.count, w = instances.blendWeights[k];
    let used = 0, weightA = 1 - w;
    for (; used < E; used++) {
      const e = extra.weights[E * k + used];
      if (!(e > 0)) break;
      weightA -= e;
      this.sampleExtra(used, E * k + used, restPose);
    }
    this.b!.at(instances.blendTimes[k]).evaluate(this.other, restPose);
    if (weightA > 0) this.a!.at(instances.times[k]).evaluate(out, restPose);
    this.layerA.pose = out;
    this.layerA.weight = Math.max(weightA, 0);
    this.layerB.weight = w;
    this.job.layerCount = 2 + used;
    blendLayers(out, this.job);
    this.job.layerCount = 2;
    return out;
  }

  /** Extra slot `j`'s layer: the clip at index `o` of the instances' extra clips sampled, at its weight. */
  private sampleExtra(j: number, o: number, restPose: LocalPose): void {
    const extra = this.instances!.extraClips, layer = this.extraLayers[j];
    this.sourceOf(extra.clipIndices[o]).at(extra.times[o]).evaluate(layer.pose, restPose);
    layer.weight = extra.weights[o];
  }
}
