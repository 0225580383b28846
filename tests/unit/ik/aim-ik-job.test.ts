import { describe, expect, it } from 'vitest';
import { cloneLocalPose, createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { AimIkJob } from '../../../src/ik/aim-ik-job.ts';
import { axisInModel, cross, distance, dot, length, makeSkeleton, modelMatrices, pointInModel, poseBytes, seeded, setJoint, sub } from './ik-rigs.ts';

// ozz-animation's IKAimJob semantics (and its look-at sample's chain), checked on the pose with the repo's portable
// localToModel: where the aiming joint's forward axis points after the job.

/** root (turned, scaled 1.2) → spine → neck → head, and an arm beside the neck. */
function neckRig() {
  const skeleton = makeSkeleton(['root', 'spine', 'neck', 'head', 'arm'], [-1, 0, 1, 2, 1]);
  const pose = createLocalPose(5);
  setJoint(pose, 0, [0, 1, 0], [0, 1, 0], 0.6, 1.2);
  setJoint(pose, 1, [0, 0.3, 0], [1, 0, 0], 0.1);
  setJoint(pose, 2, [0, 0.25, 0.02], [0, 0, 1], -0.15);
  setJoint(pose, 3, [0, 0.12, 0], [1, 1, 0], 0.2);
  setJoint(pose, 4, [0.2, 0.2, 0]);
  return { skeleton, pose };
}

const FORWARD = [0, 0, 1], UP = [0, 1, 0];

/** Distance from `target` to the line through `from` along `dir`, and whether the target is ahead. */
function missOf(from: number[], dir: number[], target: number[]): { miss: number; ahead: boolean } {
  const t = sub(target, from);
  return { miss: length(cross(dir, t)) / length(dir), ahead: dot(dir, t) > 0 };
}

describe('AimIkJob', () => {
  it('turns one joint\'s forward axis onto the target, its up axis into the plane of the target line and the pole', () => {
    const random = seeded(3);
    for (let k = 0; k < 100; k++) {
      const { skeleton, pose } = neckRig();
      const job = new AimIkJob(skeleton, { joints: ['head'], forward: FORWARD, up: UP });
      const head = pointInModel(modelMatrices(skeleton, pose), 3, [0, 0, 0]);
      const target = head.map((h) => h + (random() - 0.5) * 4);
      job.target.set(target);
      job.pole.set([random() - 0.5, random() - 0.5, random() - 0.5]);
      job.apply(pose, skeleton);
      expect(job.reached).toBe(true);
      const m = modelMatrices(skeleton, pose);
      const { miss, ahead } = missOf(head, axisInModel(m, 3, FORWARD), target);
      expect(miss).toBeLessThan(1e-5 * distance(head, target));
      expect(ahead).toBe(true);
      const up = axisInModel(m, 3, UP), t = sub(target, head), pole = [...job.pole];
      const normal = cross(t, pole);
      expect(Math.abs(dot(up, normal)) / (length(up) * length(normal))).toBeLessThan(1e-5);
      // On the pole's side.
      expect(dot(up, cross(normal, t))).toBeGreaterThanOrEqual(0);
    }
  });

  it('with an offset, the forward ray from the offset point passes through the target', () => {
    const { skeleton, pose } = neckRig();
    const offset = [0.05, 0.08, 0.1];
    const job = new AimIkJob(skeleton, { joints: ['head'], forward: FORWARD, up: UP, offset });
    const target = [0.7, 2.0, 1.4];
    job.target.set(target);
    job.apply(pose, skeleton);
    expect(job.reached).toBe(true);
    const m = modelMatrices(skeleton, pose);
    const { miss, ahead } = missOf(pointInModel(m, 3, offset), axisInModel(m, 3, FORWARD), target);
    expect(miss).toBeLessThan(1e-5);
    expect(ahead).toBe(true);
    // Without the offset accounted for, the joint's own forward line misses by about the offset.
    expect(missOf(pointInModel(m, 3, [0, 0, 0]), axisInModel(m, 3, FORWARD), target).miss).toBeGreaterThan(0.05);
  });

  it('on a chain (spine → neck → head) with the default weights, each joint turns and the head ends on target', () => {
    const { skeleton, pose } = neckRig();
    const offset = [0, 0.05, 0.08];
    const job = new AimIkJob(skeleton, { joints: ['spine', 'neck', 'head'], forward: FORWARD, up: UP, offset });
    expect([...job.jointWeights]).toEqual([1, 0.5, 0.5]);
    const target = [-1.2, 1.6, 1.5];
    job.target.set(target);
    const before = cloneLocalPose(pose);
    job.apply(pose, skeleton);
    expect(job.reached).toBe(true);
    const m = modelMatrices(skeleton, pose);
    const { miss, ahead } = missOf(pointInModel(m, 3, offset), axisInModel(m, 3, FORWARD), target);
    expect(miss).toBeLessThan(1e-5);
    expect(ahead).toBe(true);
    const turned = (j: number): number => 2 * Math.acos(Math.min(1, Math.abs(dot4(pose.rotations.subarray(4 * j, 4 * j + 4), before.rotations.subarray(4 * j, 4 * j + 4)))));
    for (const j of [1, 2, 3]) expect(turned(j)).toBeGreaterThan(0.05);
    // The arm, beside the chain, keeps its local transform.
    expect([...pose.rotations.subarray(16, 20)]).toEqual([...before.rotations.subarray(16, 20)]);
  });

  it('with every joint weight 1 the aiming joint does the aim; its ancestors only roll it onto their own pole plane', () => {
    const { skeleton, pose } = neckRig();
    const job = new AimIkJob(skeleton, { joints: ['spine', 'neck', 'head'], jointWeights: [1, 1, 1], forward: FORWARD, up: UP });
    job.target.set([1, 1.5, 2]);
    const before = cloneLocalPose(pose);
    job.apply(pose, skeleton);
    expect(job.reached).toBe(true);
    const turned = (j: number): number => 2 * Math.acos(Math.min(1, Math.abs(dot4(pose.rotations.subarray(4 * j, 4 * j + 4), before.rotations.subarray(4 * j, 4 * j + 4)))));
    // Each ancestor's step finds the forward ray already on the target and rolls it about its own joint-to-target
    // line (ozz-animation: the plane is the one of that joint's line and the pole): a small turn, the head the rest.
    expect(turned(3)).toBeGreaterThan(0.3);
    for (const j of [1, 2]) expect(turned(j)).toBeLessThan(0.01);
    expect(missOf(pointInModel(modelMatrices(skeleton, pose), 3, [0, 0, 0]), axisInModel(modelMatrices(skeleton, pose), 3, FORWARD), [1, 1.5, 2]).miss).toBeLessThan(1e-5);
  });

  it('a top joint weight below 1 leaves the aim unfinished and says so', () => {
    const { skeleton, pose } = neckRig();
    const job = new AimIkJob(skeleton, { joints: ['spine', 'neck', 'head'], jointWeights: [0.5, 0.5, 0.5], forward: FORWARD, up: UP });
    job.target.set([1, 1.5, 2]);
    job.apply(pose, skeleton);
    expect(job.reached).toBe(false);
    const m = modelMatrices(skeleton, pose);
    expect(missOf(pointInModel(m, 3, [0, 0, 0]), axisInModel(m, 3, FORWARD), [1, 1.5, 2]).miss).toBeGreaterThan(1e-3);
  });

  it('twistAngle rolls the up axis about the joint-to-target line by that angle', () => {
    const ups: number[][] = [];
    let line: number[] = [];
    for (const twist of [0, -0.7]) {
      const { skeleton, pose } = neckRig();
      const job = new AimIkJob(skeleton, { joints: ['head'], forward: FORWARD, up: UP, twistAngle: twist });
      job.target.set([0.5, 2.2, 1]);
      job.apply(pose, skeleton);
      const m = modelMatrices(skeleton, pose);
      line = sub([0.5, 2.2, 1], pointInModel(m, 3, [0, 0, 0]));
      ups.push(axisInModel(m, 3, UP));
    }
    const angle = Math.atan2(dot(cross(ups[0], ups[1]), line) / length(line), dot(ups[0], ups[1]));
    expect(angle).toBeCloseTo(-0.7, 5);
  });

  it('weight 0 is a no-op, bit for bit', () => {
    for (const weight of [0, -0.5, Number.NaN]) {
      const { skeleton, pose } = neckRig();
      const job = new AimIkJob(skeleton, { joints: ['spine', 'neck', 'head'], forward: FORWARD, weight: 1 });
      job.weight = weight;
      job.target.set([3, 0, 3]);
      const before = poseBytes(pose);
      job.apply(pose, skeleton);
      expect(poseBytes(pose)).toEqual(before);
      expect(job.reached).toBe(false);
    }
  });

  it('a target inside the offset\'s reach cannot be aimed at: that joint keeps its rotation, reached false', () => {
    const { skeleton, pose } = neckRig();
    const job = new AimIkJob(skeleton, { joints: ['head'], forward: FORWARD, offset: [0.5, 0, 0] });
    const head = pointInModel(modelMatrices(skeleton, pose), 3, [0, 0, 0]);
    job.target.set([head[0], head[1] + 0.1, head[2]]);
    const before = poseBytes(pose);
    job.apply(pose, skeleton);
    expect(job.reached).toBe(false);
    expect(poseBytes(pose)).toEqual(before);
  });
});

describe('AimIkJob: bad input', () => {
  it('names unknown joints, a chain in the wrong order, wrong joint weights and a zero forward axis', () => {
    const { skeleton } = neckRig();
    expect(() => new AimIkJob(skeleton, { joints: [] })).toThrow('AimIkJob: joints must name at least one joint (a chain of zero length)');
    expect(() => new AimIkJob(skeleton, { joints: ['spine', 'Head'] })).toThrow('AimIkJob joints[1]: no joint "Head" in the skeleton (did you mean "head"? 5 joints)');
    expect(() => new AimIkJob(skeleton, { joints: ['head', 'neck'] })).toThrow('AimIkJob: joints[0] "head" (3) is not an ancestor of joints[1] "neck" (2) (list the chain from its top to the aiming joint)');
    expect(() => new AimIkJob(skeleton, { joints: ['arm', 'head'] })).toThrow(/"arm" \(4\) is not an ancestor/);
    expect(() => new AimIkJob(skeleton, { joints: ['neck', 'head'], jointWeights: [1] })).toThrow('AimIkJob: jointWeights has 1 entries for 2 joints');
    expect(() => new AimIkJob(skeleton, { joints: ['neck', 'head'], jointWeights: [1, 1.5] })).toThrow('AimIkJob: jointWeights[1] must be in [0, 1], got 1.5');
    expect(() => new AimIkJob(skeleton, { joints: ['head'], forward: [0, 0, 0] })).toThrow('AimIkJob forward must not be the zero vector');
    expect(() => new AimIkJob(skeleton, { joints: ['head'], pole: [1, 2] })).toThrow('AimIkJob pole must be three finite numbers, got [1, 2]');
  });

  it('a NaN target, pole or axis at apply time leaves the pose untouched, reached false', () => {
    const spoils: ((job: AimIkJob) => void)[] = [
      (job) => job.target.set([Number.NaN, 1, 1]),
      (job) => job.pole.set([0, Number.NEGATIVE_INFINITY, 0]),
      (job) => job.forward.set([0, 0, 0]),
      (job) => job.up.set([Number.NaN, 0, 0]),
      (job) => job.offset.set([Number.NaN, 0, 0]),
      (job) => { job.twistAngle = Number.NaN; },
    ];
    for (const spoil of spoils) {
      const { skeleton, pose } = neckRig();
      const job = new AimIkJob(skeleton, { joints: ['spine', 'neck', 'head'], forward: FORWARD, target: [1, 1, 1] });
      spoil(job);
      const before = poseBytes(pose);
      job.apply(pose, skeleton);
      expect(poseBytes(pose)).toEqual(before);
      expect(job.reached).toBe(false);
    }
  });

  it('an up axis or pole along the target line skips the roll: no NaN, the forward axis still on target', () => {
    for (const [up, pole] of [[[0, 0, 1], [0, 1, 0]], [[0, 1, 0], null]] as const) {
      const { skeleton, pose } = neckRig();
      const job = new AimIkJob(skeleton, { joints: ['neck', 'head'], forward: FORWARD, up });
      const head = pointInModel(modelMatrices(skeleton, pose), 3, [0, 0, 0]);
      const target = [head[0] + 0.3, head[1] + 0.9, head[2] + 1];
      job.target.set(target);
      job.pole.set(pole ?? sub(target, head));
      job.apply(pose, skeleton);
      expect(pose.rotations.every(Number.isFinite)).toBe(true);
      const m = modelMatrices(skeleton, pose);
      expect(missOf(pointInModel(m, 3, [0, 0, 0]), axisInModel(m, 3, FORWARD), target).miss).toBeLessThan(1e-5);
    }
  });

  it('a target on the joint itself turns nothing', () => {
    const { skeleton, pose } = neckRig();
    const job = new AimIkJob(skeleton, { joints: ['head'], forward: FORWARD });
    job.target.set(pointInModel(modelMatrices(skeleton, pose), 3, [0, 0, 0]));
    job.apply(pose, skeleton);
    expect(pose.rotations.every(Number.isFinite)).toBe(true);
  });
});

function dot4(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
