import type { AnimationClip } from './animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { findKeyframe } from './keyframe-search.ts';
import { sampleChannel } from './sample-channel.ts';

/**
 * Per-channel keyframe cursors of one clip: `Int32Array(channelCount)`, the last interval found for each
 * channel, so forward playback finds the next interval in O(1) (DESIGN.md "Data layouts").
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
 * item 8: works at any time, not only at keys. Allocates nothing.
 *
 * @param cursor optional per-channel hints from {@link createClipCursor}, updated in place
 * @returns `out`
 */
export function sampleClip(out: LocalPose, clip: AnimationClip, timeSeconds: number, cursor?: ClipCursor): LocalPose {
  const channels = clip.channels;
  for (let i = 0; i < channels.length; i++) {
    const channel = channels[i];
    const key = findKeyframe(channel.times, timeSeconds, cursor ? cursor[i] : 0);
    if (cursor) cursor[i] = key;
    const joint = channel.joint;
    switch (channel.path) {
      case 'translation':
        sampleChannel(channel, timeSeconds, key, out.translations, 3 * joint);
        break;
      case 'rotation':
        sampleChannel(channel, timeSeconds, key, out.rotations, 4 * joint);
        break;
      case 'scale':
        sampleChannel(channel, timeSeconds, key, out.scales, 3 * joint);
        break;
    }
  }
  return out;
}
