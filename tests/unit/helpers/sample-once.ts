import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { compileClip, RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';

/**
 * `sampleClip` of `clip` (compiled for `out`'s joint count if it is not yet) with a fresh sampling context:
 * one sample, no cursor history (test code; allocates).
 */
export function sampleClipOnce(out: LocalPose, clip: AnimationClip | RuntimeClip, timeSeconds: number): LocalPose {
  const runtime = clip instanceof RuntimeClip ? clip : compileClip(clip, out.rotations.length >> 2);
  return sampleClip(out, runtime, timeSeconds, new SamplingContext());
}
