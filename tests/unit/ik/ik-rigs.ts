import { quat } from 'gl-matrix';
import { createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

/** A skeleton from names and parents (parents first). */
export function makeSkeleton(names: string[], parents: number[]): Skeleton {
  return { jointCount: names.length, names, parents: Int32Array.from(parents), sourceIndices: Int32Array.from(names, (_, i) => i) };
}

/** Sets joint j's local translation and its rotation of `angle` radians about `axis` (normalised here). */
export function setJoint(pose: LocalPose, j: number, t: [number, number, number], axis: [number, number, number] = [0, 0, 1], angle = 0, scale = 1): void {
  pose.translations.set(t, 3 * j);
  const l = Math.hypot(...axis);
  const q = quat.setAxisAngle(quat.create(), [axis[0] / l, axis[1] / l, axis[2] / l], angle);
  pose.rotations.set(q, 4 * j);
  pose.scales.set([scale, scale, scale], 3 * j);
}

/**
 * An arm: root (moved, turned, scaled 1.5) → shoulder → elbow (bent 0.3 rad about z) → wrist twist → hand.
 * Upper bone 0.5, lower bone 0.2 + 0.2 (the twist joint between elbow and hand), in the shoulder's units.
 */
export function armRig(): { skeleton: Skeleton; pose: LocalPose; start: number; mid: number; end: number; upper: number; lower: number; scale: number } {
  const skeleton = makeSkeleton(['root', 'shoulder', 'elbow', 'twist', 'hand'], [-1, 0, 1, 2, 3]);
  const pose = createLocalPose(5);
  setJoint(pose, 0, [0.3, 1, -0.2], [1, 2, 3], 0.4, 1.5);
  setJoint(pose, 1, [0, 0.1, 0], [0, 1, 0], 0.2);
  setJoint(pose, 2, [0, -0.5, 0], [0, 0, 1], 0.3);
  setJoint(pose, 3, [0, -0.2, 0], [0, 1, 0], 0.7);
  setJoint(pose, 4, [0, -0.2, 0]);
  return { skeleton, pose, start: 1, mid: 2, end: 4, upper: 0.5 * 1.5, lower: 0.4 * 1.5, scale: 1.5 };
}

/** Model-space position of every joint (the repo's portable local-to-model, float32), as [x, y, z] per joint. */
export function modelPositions(skeleton: Skeleton, pose: LocalPose): [number, number, number][] {
  const m = localToModel(new Float32Array(16 * skeleton.jointCount), skeleton, pose);
  return Array.from({ length: skeleton.jointCount }, (_, j) => [m[16 * j + 12], m[16 * j + 13], m[16 * j + 14]]);
}

/** Model-space matrices of every joint (float32, column-major). */
export function modelMatrices(skeleton: Skeleton, pose: LocalPose): Float32Array {
  return localToModel(new Float32Array(16 * skeleton.jointCount), skeleton, pose);
}

export const sub = (a: number[], b: number[]): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: number[], b: number[]): [number, number, number] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const length = (a: number[]): number => Math.hypot(a[0], a[1], a[2]);
export const distance = (a: number[], b: number[]): number => length(sub(a, b));

/** A direction of joint j's frame in model space: the model matrix's 3×3 times `axis`. */
export function axisInModel(m: Float32Array, j: number, axis: number[]): [number, number, number] {
  const o = 16 * j;
  return [0, 1, 2].map((r) => m[o + r] * axis[0] + m[o + 4 + r] * axis[1] + m[o + 8 + r] * axis[2]) as [number, number, number];
}

/** A point of joint j's frame in model space. */
export function pointInModel(m: Float32Array, j: number, p: number[]): [number, number, number] {
  const o = 16 * j;
  return [0, 1, 2].map((r) => m[o + r] * p[0] + m[o + 4 + r] * p[1] + m[o + 8 + r] * p[2] + m[o + 12 + r]) as [number, number, number];
}

/** Bytes of a pose's arrays, to compare bit for bit. */
export function poseBytes(pose: LocalPose): number[] {
  const bytes = (a: Float32Array): number[] => [...new Uint8Array(a.buffer, a.byteOffset, a.byteLength)];
  return [...bytes(pose.translations), ...bytes(pose.rotations), ...bytes(pose.scales)];
}

/** A small deterministic generator in [0, 1). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
