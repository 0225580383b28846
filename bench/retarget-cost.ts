/**
 * Retargeting costs for `npm run bench` (bench/run-bench.ts): what a clip from another file costs per frame
 * against the character's own clip, and what retargeting it costs at load.
 */
import type { AnimationClip } from '../src/asset/animation-clip.ts';
import { retargetClip, type RetargetSide } from '../src/animation/retarget-clip.ts';
import type { Skeleton } from '../src/skeleton/skeleton.ts';
import { generateRig } from './generated-rig.ts';

/**
 * `clip` as it comes out of retargeting from a namespaced copy of `side` (`mixamorig:` names, the same rest
 * pose): the clip a character gets from an animation-only file exported for it.
 */
export function retargetedFromNamespacedCopy(clip: AnimationClip, side: RetargetSide): AnimationClip {
  const source: RetargetSide = { ...side, skeleton: { ...side.skeleton, names: side.skeleton.names.map((name) => `mixamorig:${name}`) } };
  return retargetClip(clip, source, side, { translation: 'scaled' });
}

/**
 * Milliseconds to retarget a generated 60-joint, 30 s LINEAR clip (30 keys per second on every joint's
 * translation, rotation and scale; scale channels are ignored by the rule) onto a namespaced copy of its
 * skeleton: the median of `runs`.
 */
export function retargetLoadMs(runs = 5): number {
  const rig = generateRig(60, 4, 7);
  const cycle = rig.clips[0];
  const seconds = 30, keys = 30 * seconds + 1, cycleKeys = cycle.channels[0].times.length - 1;
  const times = Float32Array.from({ length: keys }, (_, k) => k / 30);
  const clip: AnimationClip = {
    name: 'long', duration: seconds,
    channels: cycle.channels.map((channel) => {
      const stride = channel.values.length / (cycleKeys + 1);
      const values = new Float32Array(stride * keys);
      for (let k = 0; k < keys; k++) values.set(channel.values.subarray(stride * (k % cycleKeys), stride * (k % cycleKeys + 1)), stride * k);
      return { ...channel, times, values };
    }),
  };
  const side: RetargetSide = { skeleton: rig.skeleton as Skeleton, restPose: rig.restPose };
  const elapsed: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    retargetedFromNamespacedCopy(clip, side);
    elapsed.push(performance.now() - started);
  }
  return elapsed.sort((a, b) => a - b)[runs >> 1];
}
