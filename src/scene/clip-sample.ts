import { sampleClip } from '../animation/sample-clip.ts';
import type { RuntimeClip } from '../animation/runtime-clip.ts';
import { SamplingContext, type SamplingBackend } from '../animation/sampling-context.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { copyLocalPose } from '../skeleton/local-pose.ts';
import type { PoseSource } from './pose-source.ts';

/**
 * A {@link PoseSource}: one compiled clip at a time the caller sets, or the rest pose when there is no clip.
 * It owns the sampling context (keyframe cursors) of its clip, so sampling it at advancing times is cheap;
 * time is clamped to the clip's keys by the samplers, looping is the caller's business. Allocates nothing
 * after construction.
 */
export class ClipSample implements PoseSource {
  /** The clip sampled, or null for the rest pose. */
  readonly clip: RuntimeClip | null;
  /** Seconds into {@link clip} that {@link evaluate} samples (ignored for the rest pose). */
  time = 0;
  private readonly context: SamplingContext | null;

  /** @param kernel the back end of the channels in the clip's streams (`SamplingContext.kernel`); null: portable */
  constructor(clip: RuntimeClip | null, kernel: SamplingBackend | null = null) {
    this.clip = clip;
    this.context = clip ? new SamplingContext(clip.timelines.length, kernel) : null;
  }

  /** Sets {@link time} to `timeSeconds`; returns this, for `model.evaluate(sample.at(t))`. */
  at(timeSeconds: number): this {
    this.time = timeSeconds;
    return this;
  }

  /** `out` = rest pose, then the clip's channels at {@link time} (`sampleClip`, docs/explanation/skinning-formulas.md S4). */
  evaluate(out: LocalPose, restPose: LocalPose): LocalPose {
    copyLocalPose(out, restPose);
    if (this.clip) sampleClip(out, this.clip, this.time, this.context!);
    return out;
  }
}
