import type { AnimationChannel, AnimationClip } from '../asset/animation-clip.ts';
import type { OctopusRig } from './octopus-rig.ts';
import { TENTACLE_COUNT } from './octopus-rig.ts';
import { storeKeyQuaternion, tentacleAxes, tentacleJointRotation } from './tentacle-joint-keys.ts';

/** Length of the `curl` loop, seconds. */
export const CURL_DURATION = 3;
/** Key times of every `curl` channel, seconds: 7 keys, 0.5 s apart. */
const CURL_KEY_TIMES = Array.from({ length: 7 }, (_, i) => (i * CURL_DURATION) / 6);
/** Seconds one joint takes to curl in and relax again. */
const CURL_SPAN = 1.5;
/** When the first joint (tentacle 0's base) starts to curl, seconds. */
const CURL_START = 0.5;
/** Extra delay of chain joint j (× j) and of tentacle k (× k), seconds: the curl rolls down each arm and round the ring. */
const JOINT_LAG = 0.06;
const TENTACLE_LAG = 0.025;
/** How far the head sinks at full curl, metres. */
const HEAD_SINK = 0.05;

/**
 * Curl amount in [0, 1] of a joint whose curl starts at `start`, at time t (seconds): sin²(π(t − start)/CURL_SPAN)
 * inside [start, start + CURL_SPAN], else 0 (relaxed, at rest).
 */
function curlAmount(t: number, start: number): number {
  const x = (t - start) / CURL_SPAN;
  return x <= 0 || x >= 1 ? 0 : Math.sin(Math.PI * x) ** 2;
}

/**
 * `curl`, a seamless 3 s loop of sparse keys interpolated by Catmull-Rom (`CATMULLROM`): all tentacles curl
 * in under the body and relax again, the curl rolling from base to tip and round the ring. Every channel
 * has 7 keys, 0.5 s apart; chain joint j of tentacle k has curl amount c = sin²(π(t − t₀)/1.5 s) from its
 * start t₀ = 0.5 + 0.06·j + 0.025·k s for 1.5 s (0 otherwise), sampled at the keys. At amount c the base
 * joint opens by 0.25·c rad and chain joint j ≥ 1 bends in by c·(0.15 + 0.22·j) rad (tips most, 1.25 rad;
 * 4 rad along the chain at full curl, which tucks the tips in under the body): the rotation is
 * `rest · rot(b, bend)` about the tentacle's bend axis b. The head sinks by 5 cm × the curl of
 * a joint starting at 0.7 s (a CATMULLROM translation channel).
 *
 * No curl starts before 0.5 s and every one has ended by 2.475 s, so the first two and the last two keys
 * of every channel are the rest pose: the one-sided end slopes of the Catmull-Rom spline are then zero,
 * and the loop joins with matching pose and velocity (first key = last key). Between a resting key and a
 * moving one the spline swings slightly the other way (at most 4/27 · ½ ≈ 7.4 % of the change over the
 * next key): a small anticipation before the curl and follow-through after it.
 */
export function createCurlClip(rig: OctopusRig): AnimationClip {
  const times = Float32Array.from(CURL_KEY_TIMES);
  const keyCount = times.length;
  const { restPose } = rig;
  const channels: AnimationChannel[] = [];

  const head = new Float32Array(3 * keyCount);
  for (let i = 0; i < keyCount; i++) {
    head[3 * i] = restPose.translations[0];
    head[3 * i + 1] = restPose.translations[1] - HEAD_SINK * curlAmount(times[i], CURL_START + 0.2);
    head[3 * i + 2] = restPose.translations[2];
  }
  channels.push({ joint: 0, path: 'translation', interpolation: 'CATMULLROM', times, values: head });

  const q = new Float64Array(4);
  for (let k = 0; k < TENTACLE_COUNT; k++) {
    const tentacle = rig.tentacles[k];
    const axes = tentacleAxes(rig, k);
    for (let j = 0; j < tentacle.joints.length; j++) {
      const joint = tentacle.joints[j];
      const rest = Float64Array.from(restPose.rotations.subarray(4 * joint, 4 * joint + 4));
      const start = CURL_START + JOINT_LAG * j + TENTACLE_LAG * k;
      const values = new Float32Array(4 * keyCount);
      for (let i = 0; i < keyCount; i++) {
        const c = curlAmount(times[i], start);
        const bend = j === 0 ? 0.25 * c : -c * (0.15 + 0.22 * j);
        tentacleJointRotation(q, null, rest, axes, bend, 0);
        storeKeyQuaternion(values, 4 * i, q, i > 0 ? values.subarray(4 * i - 4, 4 * i) : null);
      }
      channels.push({ joint, path: 'rotation', interpolation: 'CATMULLROM', times, values });
    }
  }
  return { name: 'curl', duration: times[keyCount - 1], channels };
}
