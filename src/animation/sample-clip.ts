import type { AnimationClip } from './animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { getCompiledClip, sampleCompiledClip } from './compiled-clip.ts';

/**
 * Per-channel keyframe cursors of one clip: `Int32Array(channelCount)`, the last interval found for each
 * channel, so forward playback finds the next interval in O(1) (DESIGN.md "Data layouts"). Channels that
 * share key times with an earlier channel share its entry (compiled-clip.ts); their own entries stay unused.
 */
export type ClipCursor = Int32Array;

/** Allocates a cursor for `clip`, all channels at their first key. */
export function createClipCursor(clip: AnimationClip): ClipCursor {
  return new Int32Array(clip.channels.length);
}

/**
 * Samples every channel of `clip` at `timeSeconds` into `out`, overwriting only the animated properties
 * of the animated joints; the caller first copies the rest pose (`copyLocalPose(out, asset.restPose)`) so
 * joints the clip does not animate stay at rest. Time is clamped to the channel's key range. SEEDS S4
 * item 8: works at any time, not only at keys. Each channel gets exactly `sampleChannel`'s result; the work
 * runs on the clip's compiled form (compiled-clip.ts: channels sharing key times share one key search,
 * and the common kinds run inline), built on the first sample of a clip and cached; after that sampling
 * allocates nothing. A clip's channels and key times must not change once it has been sampled.
 *
 * @param cursor optional per-channel hints from {@link createClipCursor}, updated in place
 * @returns `out`
 */
export function sampleClip(out: LocalPose, clip: AnimationClip, timeSeconds: number, cursor?: ClipCursor): LocalPose {
  scratchClock[0] = timeSeconds;
  return sampleClipAt(out, clip, scratchClock, cursor);
}

const scratchClock = new Float64Array(1);

/**
 * {@link sampleClip} at the time `clock[0]` (seconds, a `Float64Array(1)`): the form players use, so that
 * no floating-point value crosses a call boundary, which V8 would box on the heap (samplers/linear.ts).
 * Allocates nothing.
 */
export function sampleClipAt(out: LocalPose, clip: AnimationClip, clock: Float64Array, cursor?: ClipCursor): LocalPose {
  return sampleCompiledClip(out, getCompiledClip(clip), clock, cursor ?? null);
}
