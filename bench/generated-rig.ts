/**
 * A generated benchmark character: a branching skeleton of `jointCount` joints (each joint's parent one of
 * the 8 joints before it, so chains branch and fan out), a LINEAR clip animating translation, rotation and
 * scale of every joint (30 keys per second), one skin over all joints with inverse bind matrices from the
 * rest pose, and a skinned primitive of `vertexCount` vertices with 4 influences each. Deterministic.
 */
import { mat4, quat } from 'gl-matrix';
import type { AnimationChannel, AnimationClip } from '../src/asset/animation-clip.ts';
import type { PrimitiveAsset, SkinAsset } from '../src/asset/model-asset.ts';
import type { LocalPose } from '../src/skeleton/local-pose.ts';
import { createLocalPose } from '../src/skeleton/local-pose.ts';
import { localToModel } from '../src/skeleton/local-to-model.ts';
import type { Skeleton } from '../src/skeleton/skeleton.ts';

export interface GeneratedRig {
  readonly skeleton: Skeleton;
  readonly restPose: LocalPose;
  readonly skin: SkinAsset;
  readonly clips: AnimationClip[];
  readonly primitive: PrimitiveAsset;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function generateRig(jointCount: number, vertexCount: number, seed = 1): GeneratedRig {
  const rnd = random(seed);
  const parents = new Int32Array(jointCount);
  parents[0] = -1;
  for (let i = 1; i < jointCount; i++) parents[i] = Math.max(0, i - 1 - Math.floor(rnd() * 8));
  const skeleton: Skeleton = {
    jointCount,
    names: Array.from({ length: jointCount }, (_, i) => `joint${i}`),
    parents,
    sourceIndices: Int32Array.from({ length: jointCount }, (_, i) => i),
  };
  const restPose = createLocalPose(jointCount);
  for (let i = 0; i < jointCount; i++) {
    restPose.translations.set([rnd() * 0.1 - 0.05, 0.1 + rnd() * 0.2, rnd() * 0.1 - 0.05], 3 * i);
    const q = quat.fromEuler(quat.create(), rnd() * 20 - 10, rnd() * 20 - 10, rnd() * 20 - 10);
    restPose.rotations.set(q, 4 * i);
  }
  // One clip, 1 s, 31 keys per channel, translation + rotation + scale of every joint.
  const keys = 31;
  const times = Float32Array.from({ length: keys }, (_, k) => k / (keys - 1));
  const channels: AnimationChannel[] = [];
  for (let j = 0; j < jointCount; j++) {
    const phase = rnd() * Math.PI * 2, amplitude = 10 + rnd() * 30;
    const t = new Float32Array(3 * keys), r = new Float32Array(4 * keys), s = new Float32Array(3 * keys);
    const restQ = restPose.rotations.subarray(4 * j, 4 * j + 4) as unknown as quat;
    for (let k = 0; k < keys; k++) {
      const a = Math.sin(phase + 2 * Math.PI * times[k]);
      for (let c = 0; c < 3; c++) t[3 * k + c] = restPose.translations[3 * j + c] * (1 + 0.1 * a);
      const wobble = quat.fromEuler(quat.create(), amplitude * a, 0.5 * amplitude * a, 0);
      r.set(quat.multiply(quat.create(), restQ, wobble), 4 * k);
      s.set([1 + 0.05 * a, 1 - 0.05 * a, 1], 3 * k);
    }
    channels.push(
      { joint: j, path: 'translation', interpolation: 'LINEAR', times, values: t },
      { joint: j, path: 'rotation', interpolation: 'LINEAR', times, values: r },
      { joint: j, path: 'scale', interpolation: 'LINEAR', times, values: s },
    );
  }
  // A second clip: the same rig with other phases, for blending.
  const channels2 = channels.map((ch) => ({ ...ch, values: shiftKeys(ch.values, ch.path === 'rotation' ? 4 : 3, 7) }));
  const clips = [
    { name: 'wave', duration: 1, channels },
    { name: 'wave-shifted', duration: 1, channels: channels2 },
  ];
  const world = localToModel(new Float32Array(16 * jointCount), skeleton, restPose);
  const inverseBindMatrices = new Float32Array(16 * jointCount);
  for (let j = 0; j < jointCount; j++) {
    const m = world.subarray(16 * j, 16 * j + 16) as unknown as mat4;
    inverseBindMatrices.set(mat4.invert(mat4.create(), m)!, 16 * j);
  }
  const skin: SkinAsset = { name: 'generated', joints: Int32Array.from({ length: jointCount }, (_, i) => i), inverseBindMatrices };
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount);
  const joints = jointCount <= 256 ? new Uint8Array(4 * vertexCount) : new Uint16Array(4 * vertexCount);
  const weights = new Float32Array(4 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const j = Math.floor(rnd() * jointCount);
    for (let c = 0; c < 3; c++) positions[3 * v + c] = world[16 * j + 12 + c] + rnd() * 0.1 - 0.05;
    const n = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], len = Math.hypot(...n);
    normals.set(n.map((x) => x / len), 3 * v);
    const p = Math.max(0, parents[j]);
    const influences = [j, p, Math.floor(rnd() * jointCount), Math.floor(rnd() * jointCount)];
    const w = [0.4 + rnd(), rnd() * 0.5, rnd() * 0.2, rnd() * 0.1];
    const sum = w[0] + w[1] + w[2] + w[3];
    for (let k = 0; k < 4; k++) {
      joints[4 * v + k] = influences[k];
      weights[4 * v + k] = w[k] / sum;
    }
  }
  const indices = new Uint32Array(vertexCount - (vertexCount % 3)).map((_, i) => i);
  const primitive: PrimitiveAsset = { vertexCount, positions, normals, uvs: null, joints, weights, indices, material: 0 };
  return { skeleton, restPose, skin, clips, primitive };
}

/** Rotates the key values by `shift` keys (same times), keeping each element whole. */
function shiftKeys(values: Float32Array, c: number, shift: number): Float32Array {
  const keys = values.length / c;
  const out = new Float32Array(values.length);
  for (let k = 0; k < keys; k++) out.set(values.subarray(((k + shift) % keys) * c, ((k + shift) % keys) * c + c), k * c);
  return out;
}
