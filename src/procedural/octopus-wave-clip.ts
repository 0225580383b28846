import type { AnimationChannel, AnimationClip } from '../asset/animation-clip.ts';
import type { OctopusRig } from './octopus-rig.ts';
import { TENTACLE_COUNT, TENTACLE_JOINTS } from './octopus-rig.ts';
import { storeKeyQuaternion, tentacleAxes, tentacleJointRotation } from './tentacle-joint-keys.ts';

/** Length of the `wave` loop, seconds. */
export const WAVE_DURATION = 2.4;
/** When tentacle k starts to reach up: WAVE_FIRST + WAVE_STAGGER·k seconds (one after another round the ring). */
const WAVE_FIRST = 0.06;
const WAVE_STAGGER = 0.2;
/** Extra delay of chain joint j, × j seconds: the tip follows the base. */
const WAVE_JOINT_LAG = 0.03;

/**
 * One tentacle's reach, as keys relative to the joint's start (seconds): rest, rising, up and swung to
 * one side, swung to the other, coming down, rest.
 */
const REACH_TIMES = [0, 0.14, 0.26, 0.38, 0.5, 0.7];
/** Bend at each reach key as a fraction of the joint's {@link REACH_BEND}. */
const REACH_BEND_PROFILE = [0, 0.55, 1, 1, 0.7, 0];
/** Sway at each reach key as a fraction of the joint's {@link REACH_SWAY}: the wave itself. */
const REACH_SWAY_PROFILE = [0, 0, 1, -1, 0, 0];
/**
 * Bend of chain joint j at full reach, radians: the base and the hanging middle lift outward and up, the
 * tip joints straighten the rest pose's upward curl so the arm reaches rather than coils.
 */
const REACH_BEND = [0.85, 0.55, 0.35, 0.15, -0.35, -0.45];
/** Sideways sway of chain joint j at the wave's extremes, radians (tips most). */
const REACH_SWAY = [0.05, 0.08, 0.12, 0.16, 0.22, 0.28];

/** Head bob: key times (seconds, the quarter periods of the loop) and height above rest (metres). */
const HEAD_TIMES = [0, 0.6, 1.2, 1.8, 2.4];
const HEAD_RISE = [0, 0.03, 0, 0.03, 0];
/** Head sway along X, x = HEAD_SIDE_AMPLITUDE·sin(2πt/WAVE_DURATION) metres: sin and cos at the head keys. */
const HEAD_SIDE_AMPLITUDE = 0.02;
const HEAD_SIN = [0, 1, 0, -1, 0];
const HEAD_COS = [1, 0, -1, 0, 1];

/**
 * Tangents (units per second) for keys (times[i], values[i]) of a Hermite curve: zero at the ends and
 * wherever the key is a turning point or a plateau (the neighbours are not on opposite sides), so the curve
 * eases in and out there; elsewhere the central slope (v_{i+1} − v_{i−1})/(t_{i+1} − t_{i−1}), limited to
 * 3 × the smaller one-sided slope so no interval overshoots its keys (Fritsch & Carlson, "Monotone
 * piecewise cubic interpolation", 1980) — Blender's "auto clamped" handles.
 */
export function autoClampedTangents(times: readonly number[], values: readonly number[]): number[] {
  const n = times.length;
  const tangents = new Array<number>(n).fill(0);
  for (let i = 1; i < n - 1; i++) {
    const before = (values[i] - values[i - 1]) / (times[i] - times[i - 1]);
    const after = (values[i + 1] - values[i]) / (times[i + 1] - times[i]);
    if (!(before * after > 0)) continue;
    const central = (values[i + 1] - values[i - 1]) / (times[i + 1] - times[i - 1]);
    const limit = 3 * Math.min(Math.abs(before), Math.abs(after));
    tangents[i] = Math.sign(central) * Math.min(Math.abs(central), limit);
  }
  return tangents;
}

/**
 * The head's BEZIER translation: it bobs up 3 cm twice per loop (flat handles at every key, so each rise
 * and fall eases in and out) while swaying ±2 cm along X once per loop, x = 0.02·sin(2πt/2.4 s) m (keys at
 * the quarter periods, handles on the sine's tangent, so the Bézier follows the sine within 1.1 % of its
 * amplitude); Z stays at rest (handles on the flat line). Every handle sits a third of its interval from its
 * key in time, so the time curve is linear and each component is a cubic Hermite of the key values and
 * slopes.
 */
function createHeadBob(rig: OctopusRig): AnimationChannel {
  const times = Float32Array.from(HEAD_TIMES);
  const n = times.length, c = 3, stride = 5 * c;
  const rest = rig.restPose.translations;
  const values = new Float32Array(n * stride);
  const omega = (2 * Math.PI) / WAVE_DURATION;
  for (let i = 0; i < n; i++) {
    const t = HEAD_TIMES[i];
    // The loop wraps: the first key's in-interval is the last interval, and vice versa.
    const inSpan = i > 0 ? t - HEAD_TIMES[i - 1] : HEAD_TIMES[n - 1] - HEAD_TIMES[n - 2];
    const outSpan = i < n - 1 ? HEAD_TIMES[i + 1] - t : HEAD_TIMES[1] - HEAD_TIMES[0];
    const value = [rest[0] + HEAD_SIDE_AMPLITUDE * HEAD_SIN[i], rest[1] + HEAD_RISE[i], rest[2]];
    // Value slopes, metres per second: the sine's derivative along X, flat (eased) along Y and Z.
    const slope = [HEAD_SIDE_AMPLITUDE * omega * HEAD_COS[i], 0, 0];
    const base = i * stride;
    for (let e = 0; e < c; e++) {
      values[base + e] = -inSpan / 3;
      values[base + c + e] = value[e] - (inSpan / 3) * slope[e];
      values[base + 2 * c + e] = value[e];
      values[base + 3 * c + e] = outSpan / 3;
      values[base + 4 * c + e] = value[e] + (outSpan / 3) * slope[e];
    }
  }
  return { joint: 0, path: 'translation', interpolation: 'BEZIER', times, values };
}

/**
 * `wave`, a seamless 2.4 s loop: the tentacles reach up one after another round the ring and wave.
 * Tentacle k starts at 0.06 + 0.2·k s, its chain joint j 0.03·j s later (the tip follows the base); over
 * 0.7 s each joint rises to its reach bend, swings sideways one way and the other, and comes back down:
 * HERMITE rotation keys `rest · rot(b, bend) · rot(b × Y, sway)` at the reach times, with explicit
 * tangents dq/dt (quaternion units per second) from the angles' auto-clamped rates — zero at the turning
 * points, so every swing eases in and out. Each channel holds 8 keys: the rest pose at 0 and 2.4 s and the
 * 6 reach keys between (the last reach ends by 2.31 s), so the loop joins with matching pose and velocity.
 * The head bobs on a BEZIER translation channel ({@link createHeadBob}).
 */
export function createWaveClip(rig: OctopusRig): AnimationClip {
  const { restPose } = rig;
  const channels: AnimationChannel[] = [createHeadBob(rig)];
  const q = new Float64Array(4), rate = new Float64Array(4);
  const n = REACH_TIMES.length + 2;
  for (let k = 0; k < TENTACLE_COUNT; k++) {
    const tentacle = rig.tentacles[k];
    const axes = tentacleAxes(rig, k);
    for (let j = 0; j < TENTACLE_JOINTS; j++) {
      const joint = tentacle.joints[j];
      const rest = Float64Array.from(restPose.rotations.subarray(4 * joint, 4 * joint + 4));
      const start = WAVE_FIRST + WAVE_STAGGER * k + WAVE_JOINT_LAG * j;
      const keyTimes = [0, ...REACH_TIMES.map((t) => start + t), WAVE_DURATION];
      const bends = [0, ...REACH_BEND_PROFILE.map((f) => f * REACH_BEND[j]), 0];
      const sways = [0, ...REACH_SWAY_PROFILE.map((f) => f * REACH_SWAY[j]), 0];
      const bendRates = autoClampedTangents(keyTimes, bends);
      const swayRates = autoClampedTangents(keyTimes, sways);
      const times = Float32Array.from(keyTimes);
      const values = new Float32Array(2 * 4 * n);
      for (let i = 0; i < n; i++) {
        tentacleJointRotation(q, rate, rest, axes, bends[i], sways[i], bendRates[i], swayRates[i]);
        const sign = storeKeyQuaternion(values, 8 * i, q, i > 0 ? values.subarray(8 * i - 8, 8 * i - 4) : null);
        for (let e = 0; e < 4; e++) values[8 * i + 4 + e] = sign * rate[e] + 0; // + 0: no −0 in a resting key
      }
      channels.push({ joint, path: 'rotation', interpolation: 'HERMITE', times, values });
    }
  }
  // The duration is the last key time, as stored (float32).
  return { name: 'wave', duration: channels[0].times[HEAD_TIMES.length - 1], channels };
}
