import type { AnimationClip } from '../asset/animation-clip.ts';

/**
 * The key times a clip is baked at, seconds (`Float32Array`, strictly increasing):
 * - `fps` given: `k / fps` for k = 0, 1, … up to the clip's duration, plus the duration itself when it is not on that
 *   grid (more than 1 µs past the last grid time);
 * - `fps` absent: the union of the clip's channels' key times (a retargeted clip's: the source's key times,
 *   retargetClip), or 0 alone for a clip without channels.
 * @throws RangeError when `fps` is not a positive finite number
 */
export function bakeKeyTimes(clip: AnimationClip, fps?: number): Float32Array {
  if (fps !== undefined) {
    if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a positive number, got ${fps}`);
    const steps = Math.floor(clip.duration * fps + 1e-9);
    const list: number[] = [];
    for (let k = 0; k <= steps; k++) list.push(k / fps);
    if (clip.duration - list[list.length - 1] > 1e-6) list.push(clip.duration);
    return strictlyIncreasing(Float32Array.from(list));
  }
  if (clip.channels.length > 0 && clip.channels.every((c) => c.times === clip.channels[0].times)) return clip.channels[0].times;
  const set = new Set<number>();
  for (const channel of clip.channels) for (const t of channel.times) set.add(t);
  if (set.size === 0) set.add(0);
  return strictlyIncreasing(Float32Array.from([...set].sort((a, b) => a - b)));
}

/** `times` with any key not above its predecessor dropped (float32 rounding may merge neighbours). */
function strictlyIncreasing(times: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < times.length; i++) if (n === 0 || times[i] > times[n - 1]) times[n++] = times[i];
  return times.slice(0, n);
}
