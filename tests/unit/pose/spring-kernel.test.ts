import { describe, expect, it } from 'vitest';
import { createSpringKernel, SpringKernel } from '../../../src/pose/spring-kernel.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { springKernelArenaBytes } from '../../../src/pose/spring-kernel.ts';
import { SpringBoneJob, type SpringBoneJobOptions } from '../../../src/secondary/spring-bone-job.ts';
import type { SpringSimulator } from '../../../src/secondary/spring-simulator.ts';
import { cloneLocalPose, copyLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { posRig, springRig } from './spring-kernel-fixture.ts';

// The WebAssembly spring kernel against the portable SpringBoneJob (the reference): the same run on the hand-built
// rig (every collider shape, a center, a virtual tail, a node between two joints of a chain, a chain below
// another's joint) gives the same joint positions within 1e-6 of the rig's size at every step.

const rig = springRig();

/** Model-space positions of every joint (xyz at 3i) of `pose`, f64. */
function positions(skeleton: Skeleton, pose: LocalPose): Float64Array {
  const m = new Float32Array(16 * skeleton.jointCount);
  localToModel(m, skeleton, pose);
  return Float64Array.from({ length: 3 * skeleton.jointCount }, (_, k) => m[16 * Math.floor(k / 3) + 12 + (k % 3)]);
}

/** The largest joint-position difference over a run of `frames` frames of `dt` with both simulators. */
function run(a: SpringSimulator, b: SpringSimulator, frames: number, dt: number, drive: (k: number, pose: LocalPose) => void = (k, pose) => posRig(pose, rig.rest, k * dt)): { worst: number; last: Float64Array } {
  const pa = cloneLocalPose(rig.rest), pb = cloneLocalPose(rig.rest);
  let worst = 0, last: Float64Array = new Float64Array(0);
  for (let k = 0; k <= frames; k++) {
    drive(k, pa); drive(k, pb);
    if (k > 0) { a.step(dt); b.step(dt); }
    a.apply(pa, rig.skeleton); b.apply(pb, rig.skeleton);
    const x = positions(rig.skeleton, pa), y = positions(rig.skeleton, pb);
    for (let i = 0; i < x.length; i++) {
      expect(Number.isFinite(x[i])).toBe(true);
      worst = Math.max(worst, Math.abs(x[i] - y[i]));
    }
    last = x;
  }
  return { worst, last };
}

function kernel(options: SpringBoneJobOptions = {}, asset = rig.asset): SpringKernel {
  const made = createSpringKernel(asset, rig.skeleton, rig.rest, options);
  if (!made) throw new Error('no WebAssembly SIMD');
  return made;
}

/** The rig's size: the diagonal of its joints' box at rest, for the 1e-6 tolerance. */
const DIAGONAL = (() => {
  const p = positions(rig.skeleton, rig.rest), min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) { min[i % 3] = Math.min(min[i % 3], p[i]); max[i % 3] = Math.max(max[i % 3], p[i]); }
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
})();

describe('SpringKernel', () => {
  it('is null with backend "js", and where its schedule is not the job\'s order (a shared node, a collider or center on a spring joint)', () => {
    expect(createSpringKernel(rig.asset, rig.skeleton, rig.rest, { backend: 'js' })).toBeNull();
    const springs = rig.asset.springs;
    expect(createSpringKernel({ ...rig.asset, springs: [...springs, springs[2]] }, rig.skeleton, rig.rest)).toBeNull();
    expect(createSpringKernel({ ...rig.asset, colliders: [...rig.asset.colliders, { node: 5, shape: { kind: 'sphere', offset: [0, 0, 0], radius: 0.1, inside: false } }] }, rig.skeleton, rig.rest)).toBeNull();
    expect(createSpringKernel({ ...rig.asset, springs: springs.map((s, i) => i === 1 ? { ...s, center: 13 } : s) }, rig.skeleton, rig.rest)).toBeNull();
  });

  it('equals the portable job at every step: 3 s at 60 Hz of a walking, turning, swaying rig, every collider shape', () => {
    const { worst } = run(kernel(), new SpringBoneJob(rig.asset, rig.skeleton, rig.rest), 180, 1 / 60);
    expect(worst).toBeLessThan(1e-6 * DIAGONAL);
  });

  it('the colliders and the center matter in that run (the comparison could fail)', () => {
    const plain = { ...rig.asset, springs: rig.asset.springs.map((s) => ({ ...s, colliderGroups: [], center: -1 })) };
    const a = run(kernel(), kernel(), 180, 1 / 60).last, b = run(kernel({}, plain), kernel({}, plain), 180, 1 / 60).last;
    expect(Math.max(...a.map((x, i) => Math.abs(x - b[i])))).toBeGreaterThan(1e-3);
  });

  it('equals the portable job with wind, a world matrix and a fixed rate (springHz 60 at 30 frames per second)', () => {
    const a = kernel({ springHz: 60 }), b = new SpringBoneJob(rig.asset, rig.skeleton, rig.rest, { springHz: 60 });
    for (const s of [a, b]) {
      s.external.set([1.5, 0, -0.5]);
      s.world.set([0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 3, 0.5, -2, 1]);
    }
    expect(run(a, b, 90, 1 / 30).worst).toBeLessThan(1e-6 * DIAGONAL);
  });

  it('stays finite and equal to the job with dt 0, dt 10 s and a 1 km teleport', () => {
    const a = kernel(), b = new SpringBoneJob(rig.asset, rig.skeleton, rig.rest);
    const steps = [1 / 60, 0, 10, 1 / 60, 1 / 60, 1 / 60, 1 / 60];
    const pa = cloneLocalPose(rig.rest), pb = cloneLocalPose(rig.rest);
    for (let k = 0; k < steps.length; k++) {
      for (const [s, p] of [[a, pa], [b, pb]] as const) {
        posRig(p, rig.rest, k / 60);
        if (k >= 4) p.translations[0] += 1000;
        s.step(steps[k]);
        s.apply(p, rig.skeleton);
      }
      const x = positions(rig.skeleton, pa), y = positions(rig.skeleton, pb);
      for (let i = 0; i < x.length; i++) {
        expect(Number.isFinite(x[i])).toBe(true);
        expect(Math.abs(x[i] - y[i])).toBeLessThan(1e-6 * DIAGONAL);
      }
      expect(a.state.tails.every(Number.isFinite)).toBe(true);
    }
    // The teleport reset the world-space tails (every spring but B, in the hips' space: entries 3 and 4) onto the
    // rig where it landed (x ≈ 1000).
    const worldX = Array.from(a.state.tails).filter((_, i) => i % 3 === 0 && i !== 9 && i !== 12);
    expect(Math.min(...worldX)).toBeGreaterThan(900);
  });

  it('a saved state reproduces a run; two instances swapping states equal two kernels', () => {
    const a = kernel(), pose = cloneLocalPose(rig.rest);
    const drive = (s: SpringKernel, from: number, frames: number): Float32Array[] => {
      const out: Float32Array[] = [];
      for (let k = from; k < from + frames; k++) {
        posRig(pose, rig.rest, k / 60);
        s.step(1 / 60);
        s.apply(pose, rig.skeleton);
        out.push(pose.rotations.slice());
      }
      return out;
    };
    drive(a, 0, 60);
    const saved = a.createState().copyFrom(a.state);
    const first = drive(a, 60, 60);
    a.state.copyFrom(saved);
    expect(drive(a, 60, 60)).toEqual(first);

    const shared = kernel(), one = kernel(), two = kernel();
    const states = [shared.createState(), shared.createState()];
    const poses = [cloneLocalPose(rig.rest), cloneLocalPose(rig.rest)], alone = [cloneLocalPose(rig.rest), cloneLocalPose(rig.rest)];
    for (let k = 0; k < 60; k++) {
      for (let i = 0; i < 2; i++) {
        shared.state = states[i];
        posRig(poses[i], rig.rest, (k + 30 * i) / 60);
        shared.step(1 / 60);
        shared.apply(poses[i], rig.skeleton);
        const own = i === 0 ? one : two;
        posRig(alone[i], rig.rest, (k + 30 * i) / 60);
        own.step(1 / 60);
        own.apply(alone[i], rig.skeleton);
      }
    }
    expect(poses[0].rotations).toEqual(alone[0].rotations);
    expect(poses[1].rotations).toEqual(alone[1].rotations);
    expect(() => { shared.state = kernel({}, { ...rig.asset, springs: rig.asset.springs.slice(1) }).createState(); }).toThrow(RangeError);
  });

  it('works on a pose in the pose kernel\'s arena in place, as on one outside it', () => {
    const poseKernel = new PoseKernel(rig.skeleton, [], undefined, { arenaBytes: springKernelArenaBytes(rig.asset, rig.skeleton, rig.rest) });
    const inArena = createSpringKernel(rig.asset, rig.skeleton, rig.rest, { arena: poseKernel.arena })!;
    const pose = poseKernel.pose, outside = cloneLocalPose(rig.rest), other = kernel();
    copyLocalPose(pose, rig.rest);
    for (let k = 0; k < 60; k++) {
      posRig(pose, rig.rest, k / 60); posRig(outside, rig.rest, k / 60);
      inArena.step(1 / 60); other.step(1 / 60);
      inArena.apply(pose, rig.skeleton); other.apply(outside, rig.skeleton);
    }
    expect(poseKernel.arena!.memory.buffer).toBe(pose.rotations.buffer);
    expect(pose.rotations).toEqual(outside.rotations);
  });
});
