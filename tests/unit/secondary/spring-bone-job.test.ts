import { describe, expect, it } from 'vitest';
import type { SpringColliderAsset } from '../../../src/asset/secondary-motion-asset.ts';
import { cloneLocalPose, copyLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { SpringBoneJob, type SpringBoneJobOptions } from '../../../src/secondary/spring-bone-job.ts';
import type { SpringBoneAsset } from '../../../src/asset/secondary-motion-asset.ts';
import { dist, hairRig, positions, spring, springBone } from './spring-fixtures.ts';

/** Runs `frames` frames of `dt`: the pose from the rest pose (as a clip of the rest pose), a step, an apply. */
function run(job: SpringBoneJob, skeleton: Skeleton, rest: LocalPose, frames: number, dt: number, pose = cloneLocalPose(rest), before?: (pose: LocalPose, frame: number) => void): LocalPose {
  for (let f = 0; f < frames; f++) {
    copyLocalPose(pose, rest);
    before?.(pose, f);
    job.step(dt);
    job.apply(pose, skeleton);
  }
  return pose;
}

function make(bone: SpringBoneAsset, options: SpringBoneJobOptions = {}): { job: SpringBoneJob; skeleton: Skeleton; rest: LocalPose } {
  const { skeleton, rest } = hairRig();
  return { job: new SpringBoneJob(bone, skeleton, rest, options), skeleton, rest };
}

const finite = (pose: LocalPose): boolean => pose.rotations.every(Number.isFinite) && pose.translations.every(Number.isFinite);

describe('SpringBoneJob (three-vrm 3.5.5 algorithm, hand-built chain)', () => {
  it('the first apply resets at the pose: the joints keep their initial rotations', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4])]));
    const pose = run(job, skeleton, rest, 1, 1 / 60);
    expect(Array.from(pose.rotations)).toEqual(Array.from(rest.rotations));
    expect(job.state.ready).toBe(true);
  });

  it('one step turns a joint toward its tail moved by stiffness and gravity, as the closed form says', () => {
    // One joint (base, bone 0.1 along +x) to the tail h1: next tail = tail + axis·k·dt + g·dt, back onto the 0.1 sphere.
    const k = 2, g = 3, dt = 1 / 30;
    const { job, skeleton, rest } = make(springBone([spring([1, 2], { stiffness: k, gravityPower: g })]));
    run(job, skeleton, rest, 1, 0);
    const pose = run(job, skeleton, rest, 1, dt);
    const angle = Math.atan2(-g * dt, 0.1 + k * dt);
    const p = positions(skeleton, pose);
    expect(p[2][0] - p[1][0]).toBeCloseTo(0.1 * Math.cos(angle), 6);
    expect(p[2][1] - p[1][1]).toBeCloseTo(0.1 * Math.sin(angle), 6);
    expect(p[2][2] - p[1][2]).toBeCloseTo(0, 9);
  });

  it('a chain under gravity settles straight down, joint lengths kept', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 2 })]));
    const pose = run(job, skeleton, rest, 900, 1 / 60);
    const p = positions(skeleton, pose);
    for (let j = 2; j <= 4; j++) {
      expect(p[j][0]).toBeCloseTo(0, 3);
      expect(p[j][1]).toBeCloseTo(1 - 0.1 * (j - 1), 3);
      expect(dist(p[j], p[j - 1])).toBeCloseTo(0.1, 5);
    }
  });

  it('stiffness brings it back to the rest direction once the extra pull stops', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 0, stiffness: 1.5 })]));
    job.external.set([0, -8, 0]);
    let p = positions(skeleton, run(job, skeleton, rest, 120, 1 / 60));
    expect(p[4][1]).toBeLessThan(0.9);
    job.external.set([0, 0, 0]);
    p = positions(skeleton, run(job, skeleton, rest, 1200, 1 / 60));
    const r = positions(skeleton, rest);
    for (let j = 2; j <= 4; j++) expect(dist(p[j], r[j])).toBeLessThan(1e-3);
  });

  // A one-bone pendulum (base → h1 of 0.1, scaled up to 0.3 by moving h1) falling onto each shape.
  const pendulum = (colliders: SpringColliderAsset[], hitRadius = 0): { pose: LocalPose; p: number[][] } => {
    const { skeleton, rest } = hairRig();
    rest.translations.set([0.3, 0, 0], 6);
    const bone = springBone([spring([1, 2], { gravityPower: 2, hitRadius }, { colliderGroups: colliders.map((_, i) => i) })], colliders);
    const job = new SpringBoneJob(bone, skeleton, rest);
    const pose = run(job, skeleton, rest, 900, 1 / 60);
    return { pose, p: positions(skeleton, pose) };
  };
  // Body-local (a, b, c) is world (c, 0.6 + b, −a): a sphere at body (0, 0.1, 0) is centred at world (0, 0.7, 0).
  const circleContact = [Math.sqrt(0.01 - (0.71666666 - 0.7) ** 2), 0.71666666]; // |p − (0,1)| = 0.3, |p − (0,0.7)| = 0.1
  const insideContact = [0.28333333, 1 - Math.sqrt(0.09 - 0.28333333 ** 2)]; // |p − (0,1)| = 0.3, |p − (0.3,1)| = 0.1

  it('a sphere collider stops the falling tail on its surface', () => {
    const { p } = pendulum([{ node: 5, shape: { kind: 'sphere', offset: [0, 0.1, 0], radius: 0.1, inside: false } }]);
    expect(p[2][0]).toBeCloseTo(circleContact[0], 2);
    expect(p[2][1]).toBeCloseTo(circleContact[1], 2);
    expect(dist(p[2], [0, 0.7, 0])).toBeGreaterThan(0.1 - 2e-3);
  });

  it('the hit radius adds to the collider radius', () => {
    const { p } = pendulum([{ node: 5, shape: { kind: 'sphere', offset: [0, 0.1, 0], radius: 0.05, inside: false } }], 0.05);
    expect(p[2][0]).toBeCloseTo(circleContact[0], 2);
    expect(p[2][1]).toBeCloseTo(circleContact[1], 2);
  });

  it('a capsule collider (its axis along world z through the body) stops it the same way', () => {
    const { p } = pendulum([{ node: 5, shape: { kind: 'capsule', offset: [-0.2, 0.1, 0], tail: [0.2, 0.1, 0], radius: 0.1, inside: false } }]);
    expect(p[2][0]).toBeCloseTo(circleContact[0], 2);
    expect(p[2][1]).toBeCloseTo(circleContact[1], 2);
    expect(p[2][2]).toBeCloseTo(0, 6);
  });

  it('a plane collider holds the tail at the rest point of push-then-length (VRMC_springBone 1.0 order)', () => {
    const { p } = pendulum([{ node: 5, shape: { kind: 'plane', offset: [0, 0.2, 0], normal: [0, 1, 0] } }]);
    // At rest (no velocity) a step is: gravity (2 · 1/60 down), back to 0.3 from the pivot, up onto y = 0.8, back
    // to 0.3 again; its fixed point by iteration in 2-D.
    let x = 0.3, y = 1;
    const onCircle = (px: number, py: number): void => { const l = Math.hypot(px, py - 1); x = (0.3 * px) / l; y = 1 + (0.3 * (py - 1)) / l; };
    for (let k = 0; k < 5000; k++) { onCircle(x, y - 2 / 60); if (y < 0.8) onCircle(x, 0.8); }
    expect(p[2][0]).toBeCloseTo(x, 4);
    expect(p[2][1]).toBeCloseTo(y, 4);
    expect(y).toBeGreaterThan(0.78);
  });

  it('an inside sphere and an inside capsule keep the tail in', () => {
    // Body-local (0, 0.4, 0.3) is world (0.3, 1, 0): the rest tail.
    for (const shape of [
      { kind: 'sphere', offset: [0, 0.4, 0.3], radius: 0.1, inside: true },
      { kind: 'capsule', offset: [-0.2, 0.4, 0.3], tail: [0.2, 0.4, 0.3], radius: 0.1, inside: true },
    ] as SpringColliderAsset['shape'][]) {
      const { p } = pendulum([{ node: 5, shape }]);
      expect(p[2][0]).toBeCloseTo(insideContact[0], 2);
      expect(p[2][1]).toBeCloseTo(insideContact[1], 2);
      expect(dist(p[2], [0.3, 1, 0])).toBeLessThan(0.1 + 2e-3);
    }
  });

  it('center space: a spring kept in its root\'s space moves with it; in world space it lags', () => {
    const move = (pose: LocalPose, f: number): void => { pose.translations[2] = 0.02 * f; };
    const world = make(springBone([spring([1, 2, 3, 4], { gravityPower: 0 })]));
    const centered = make(springBone([spring([1, 2, 3, 4], { gravityPower: 0 }, { center: 0 })]));
    const a = run(world.job, world.skeleton, world.rest, 10, 1 / 60, undefined, move);
    const b = run(centered.job, centered.skeleton, centered.rest, 10, 1 / 60, undefined, move);
    for (let k = 0; k < 4 * 6; k++) expect(b.rotations[k]).toBeCloseTo(centered.rest.rotations[k], 6);
    const pa = positions(world.skeleton, a);
    expect(pa[4][2] - pa[1][2]).toBeLessThan(-1e-3);
  });

  it('a virtual tail (VRM 0.x leaf) hangs its last joint down', () => {
    const { job, skeleton, rest } = make(springBone([spring([3], { gravityPower: 2 }, { virtualTail: [0.07, 0, 0] })]));
    const pose = run(job, skeleton, rest, 900, 1 / 60);
    // h2's +x in model space: through the chain's rotations (all rest but h2's).
    const q = pose.rotations.subarray(12, 16);
    const x = [1 - 2 * (q[1] * q[1] + q[2] * q[2]), 2 * (q[0] * q[1] + q[3] * q[2]), 2 * (q[0] * q[2] - q[3] * q[1])];
    expect(x[0]).toBeCloseTo(0, 3);
    expect(x[1]).toBeCloseTo(-1, 3);
  });

  it('dt 0, dt 10 s and a 1 km teleport leave no NaN; the teleport resets', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 5, stiffness: 3 })]));
    let pose = run(job, skeleton, rest, 3, 0);
    expect(finite(pose)).toBe(true);
    pose = run(job, skeleton, rest, 3, 10);
    expect(finite(pose)).toBe(true);
    expect(Array.from(pose.rotations)).not.toEqual(Array.from(rest.rotations));
    pose = run(job, skeleton, rest, 1, 1 / 60, pose, (p) => { p.translations[0] = 1000; });
    expect(finite(pose)).toBe(true);
    expect(Array.from(pose.rotations)).toEqual(Array.from(rest.rotations));
    pose = run(job, skeleton, rest, 5, 1 / 60, pose, (p) => { p.translations[0] = 1000; });
    expect(finite(pose)).toBe(true);
    expect(Array.from(pose.rotations)).not.toEqual(Array.from(rest.rotations));
  });

  it('reset() puts the joints back at their initial rotations on the next apply', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 2 })]));
    let pose = run(job, skeleton, rest, 30, 1 / 60);
    expect(Array.from(pose.rotations)).not.toEqual(Array.from(rest.rotations));
    job.reset();
    pose = run(job, skeleton, rest, 1, 1 / 60);
    expect(Array.from(pose.rotations)).toEqual(Array.from(rest.rotations));
  });

  it('an apply without a step re-poses from the tails without moving them', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 2 })]));
    const a = Array.from(run(job, skeleton, rest, 30, 1 / 60).rotations);
    const b = Array.from(run(job, skeleton, rest, 2, 0).rotations);
    for (let k = 0; k < a.length; k++) expect(b[k]).toBeCloseTo(a[k], 6);
  });

  it('springHz: 30 fps and 60 fps frames give the same motion in fixed steps', () => {
    const bone = springBone([spring([1, 2, 3, 4], { gravityPower: 2, stiffness: 0.5 })]);
    const a = make(bone, { springHz: 60 }), b = make(bone, { springHz: 60 });
    const pa = run(a.job, a.skeleton, a.rest, 60, 1 / 60);
    const pb = run(b.job, b.skeleton, b.rest, 30, 1 / 30);
    for (let k = 0; k < pa.rotations.length; k++) expect(pb.rotations[k]).toBeCloseTo(pa.rotations[k], 6);
    expect(Array.from(pa.rotations)).not.toEqual(Array.from(a.rest.rotations));
  });

  it('without springHz a long frame is clamped to maxDt', () => {
    const bone = springBone([spring([1, 2, 3, 4], { gravityPower: 2 })]);
    const a = make(bone, { maxDt: 0.05 }), b = make(bone, { maxDt: 0.05 });
    const pa = run(a.job, a.skeleton, a.rest, 10, 0.05);
    const pb = run(b.job, b.skeleton, b.rest, 10, 0.5);
    expect(Array.from(pb.rotations)).toEqual(Array.from(pa.rotations));
  });

  it('a state swapped in reproduces a run; another instance\'s state leaves this one\'s alone', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 2, stiffness: 0.5 })]));
    run(job, skeleton, rest, 20, 1 / 60);
    const mine = job.state, snapshot = job.createState().copyFrom(mine);
    const first = Array.from(run(job, skeleton, rest, 15, 1 / 60).rotations);
    const other = job.createState();
    job.state = other;
    run(job, skeleton, rest, 7, 1 / 45);
    job.state = mine.copyFrom(snapshot);
    const again = Array.from(run(job, skeleton, rest, 15, 1 / 60).rotations);
    expect(again).toEqual(first);
    expect(() => { job.state = new SpringBoneJob(springBone([spring([1, 2])]), skeleton, rest).createState(); }).toThrow(RangeError);
  });

  it('the world matrix: a model turned upside down hangs its hair the other way in model space', () => {
    const { job, skeleton, rest } = make(springBone([spring([1, 2, 3, 4], { gravityPower: 2 })]));
    job.world.set([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]);
    const p = positions(skeleton, run(job, skeleton, rest, 900, 1 / 60));
    expect(p[4][1]).toBeCloseTo(1.3, 3);
  });

  it('rejects joints outside the skeleton and bad options', () => {
    const { skeleton, rest } = hairRig();
    expect(() => new SpringBoneJob(springBone([spring([1, 9])]), skeleton, rest)).toThrow(/joint 9/);
    expect(() => new SpringBoneJob(springBone([spring([1, 2])]), skeleton, rest, { springHz: -1 })).toThrow(/springHz/);
  });
});
