import { quat } from 'gl-matrix';
import type { AnimationChannel, AnimationClip } from '../asset/animation-clip.ts';
import type { OctopusRig } from './octopus-rig.ts';
import { TENTACLE_COUNT } from './octopus-rig.ts';

/** Keys per second of the densely sampled clips (`swim`'s LINEAR channels). */
export const CLIP_KEY_RATE = 30;

/**
 * Extra rotation of one tentacle chain joint at a phase of the loop, in radians: `bend` about the
 * tentacle's bend axis b (positive opens the tentacle outward, negative curls it in and under), `sway`
 * about the joint-local axis b × Y (sideways, out of the tentacle's plane).
 */
interface JointMotion {
  bend: number;
  sway: number;
}

/** Head motion at a phase of the loop: vertical offset (metres) and pitch about X (radians). */
interface HeadMotion {
  rise: number;
  pitch: number;
}

/**
 * Samples a looping clip into LINEAR channels: the head's translation and rotation, and every tentacle
 * joint's rotation, `rest rotation · rot(b, bend) · rot(b × Y, sway)`. Keys at `CLIP_KEY_RATE` per second
 * over [0, duration]; the last key's values are those of phase 0, so the loop is seamless.
 *
 * @param tentacleMotion motion of chain joint `j` of tentacle `k` at loop phase ωt = 2πt/duration
 * @param headMotion head offset at loop phase ωt
 */
function sampleLoop(
  name: string,
  rig: OctopusRig,
  duration: number,
  tentacleMotion: (out: JointMotion, k: number, j: number, phase: number) => void,
  headMotion: (out: HeadMotion, phase: number) => void,
): AnimationClip {
  const keyCount = Math.round(duration * CLIP_KEY_RATE) + 1;
  const times = new Float32Array(keyCount);
  for (let i = 0; i < keyCount; i++) times[i] = (i * duration) / (keyCount - 1);
  const phaseOf = (key: number) => (key === keyCount - 1 ? 0 : (2 * Math.PI * key) / (keyCount - 1));
  const { restPose } = rig;
  const channels: AnimationChannel[] = [];

  const headTranslation = new Float32Array(3 * keyCount);
  const headRotation = new Float32Array(4 * keyCount);
  const head: HeadMotion = { rise: 0, pitch: 0 };
  for (let i = 0; i < keyCount; i++) {
    headMotion(head, phaseOf(i));
    headTranslation[3 * i] = restPose.translations[0];
    headTranslation[3 * i + 1] = restPose.translations[1] + head.rise;
    headTranslation[3 * i + 2] = restPose.translations[2];
    headRotation.set([Math.sin(head.pitch / 2), 0, 0, Math.cos(head.pitch / 2)], 4 * i);
  }
  channels.push({ joint: 0, path: 'translation', interpolation: 'LINEAR', times, values: headTranslation });
  channels.push({ joint: 0, path: 'rotation', interpolation: 'LINEAR', times, values: headRotation });

  const motion: JointMotion = { bend: 0, sway: 0 };
  const bend = new Float64Array(4), sway = new Float64Array(4), q = new Float64Array(4);
  for (let k = 0; k < TENTACLE_COUNT; k++) {
    const tentacle = rig.tentacles[k];
    const bendAxis = Float64Array.from(tentacle.curve.bendAxis);
    // Sway axis a = b × Y = (−b_z, 0, b_x), unit since b is horizontal.
    const swayAxis = Float64Array.of(-bendAxis[2], 0, bendAxis[0]);
    for (let j = 0; j < tentacle.joints.length; j++) {
      const joint = tentacle.joints[j];
      const rest = Float64Array.from(restPose.rotations.subarray(4 * joint, 4 * joint + 4));
      const values = new Float32Array(4 * keyCount);
      for (let i = 0; i < keyCount; i++) {
        tentacleMotion(motion, k, j, phaseOf(i));
        // q = rest · rot(b, bend) · rot(a, sway)
        quat.setAxisAngle(bend, bendAxis, motion.bend);
        quat.setAxisAngle(sway, swayAxis, motion.sway);
        quat.multiply(q, rest, bend);
        quat.multiply(q, q, sway);
        values.set(q, 4 * i);
      }
      channels.push({ joint, path: 'rotation', interpolation: 'LINEAR', times, values });
    }
  }
  return { name, duration: times[keyCount - 1], channels };
}

/**
 * `swim`, a seamless 2 s loop: a travelling wave runs down every tentacle — chain joint j of tentacle k
 * bends by A_j·sin(ωt − 2πk/8 − 0.9·j) about its bend axis (A_j = 0.1 + 0.06·j rad, growing toward the
 * tip) and sways a quarter period later by a third of that; the base joints also open and close together
 * (0.18·sin ωt rad) while the head bobs ±3.5 cm and pitches ±0.05 rad.
 */
export function createSwimClip(rig: OctopusRig): AnimationClip {
  return sampleLoop(
    'swim',
    rig,
    2,
    (out, k, j, phase) => {
      const wave = phase - (2 * Math.PI * k) / TENTACLE_COUNT - 0.9 * j;
      const amplitude = 0.1 + 0.06 * j;
      out.bend = amplitude * Math.sin(wave) + (j === 0 ? 0.18 * Math.sin(phase) : 0);
      out.sway = (amplitude / 3) * Math.cos(wave);
    },
    (out, phase) => {
      out.rise = -0.035 * Math.sin(phase);
      out.pitch = 0.05 * Math.sin(phase + 0.6);
    },
  );
}
