import { describe, expect, it } from 'vitest';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { midAxisFromPose, TwoBoneIkJob } from '../../../src/ik/two-bone-ik-job.ts';
import {
  armRig, axisInModel, cross, distance, dot, length, modelMatrices, modelPositions, poseBytes, seeded, setJoint, sub,
} from './ik-rigs.ts';

// ozz-animation's IKTwoBoneJob semantics, checked against the repo's portable localToModel (independent of the
// job's own f64 walk): positions after the job, not the job's intermediate numbers.

function armJob(rig = armRig()) {
  const axis = midAxisFromPose(new Float64Array(3), rig.skeleton, rig.pose, rig.start, rig.mid, rig.end);
  return { rig, job: new TwoBoneIkJob(rig.skeleton, { start: 'shoulder', mid: 'elbow', end: 'hand', midAxis: axis }) };
}

describe('TwoBoneIkJob', () => {
  it('reaches every reachable target within 1e-5 × the chain length, whatever the pole', () => {
    const random = seeded(7);
    const { rig } = armJob();
    const chain = rig.upper + rig.lower;
    let checked = 0;
    for (let k = 0; k < 200; k++) {
      const { job } = armJob();
      const pose = cloneLocalPose(rig.pose);
      const start = modelPositions(rig.skeleton, pose)[rig.start];
      // A direction and a distance strictly between |upper − lower| and the chain length.
      const dir = [random() - 0.5, random() - 0.5, random() - 0.5];
      const d = (Math.abs(rig.upper - rig.lower) + 1e-3) + random() * (chain - Math.abs(rig.upper - rig.lower) - 2e-3);
      const l = length(dir);
      job.target.set(start.map((s, i) => s + (dir[i] / l) * d));
      job.pole.set([random() - 0.5, random() - 0.5, random() - 0.5]);
      job.apply(pose, rig.skeleton);
      expect(job.reached).toBe(true);
      const end = modelPositions(rig.skeleton, pose)[rig.end];
      expect(distance(end, [...job.target])).toBeLessThan(1e-5 * chain);
      // The bones keep their lengths: only rotations changed.
      const after = modelPositions(rig.skeleton, pose);
      expect(distance(after[rig.mid], after[rig.start])).toBeCloseTo(rig.upper, 5);
      checked++;
    }
    expect(checked).toBe(200);
  });

  it('leaves the chain straight, pointing at an unreachable target', () => {
    const { rig, job } = armJob();
    const pose = cloneLocalPose(rig.pose);
    const start = modelPositions(rig.skeleton, pose)[rig.start];
    const toward = [0.3, -0.8, 0.5];
    job.target.set(start.map((s, i) => s + toward[i] * 3));
    job.apply(pose, rig.skeleton);
    expect(job.reached).toBe(false);
    const p = modelPositions(rig.skeleton, pose);
    const chain = rig.upper + rig.lower;
    // Straight: the end is a full chain length from the start, the mid joint on the segment between.
    expect(distance(p[rig.end], p[rig.start])).toBeCloseTo(chain, 5);
    expect(distance(p[rig.start], p[rig.mid]) + distance(p[rig.mid], p[rig.end]) - chain).toBeLessThan(1e-5 * chain);
    // Pointing at the target: the start→end direction is the start→target direction.
    const a = sub(p[rig.end], start), b = sub([...job.target], start);
    expect(length(cross(a, b)) / (length(a) * length(b))).toBeLessThan(1e-5);
    expect(dot(a, b)).toBeGreaterThan(0);
  });

  it('says unreachable for a target closer than |upper − lower|, and folds the chain as far as it goes', () => {
    const { rig, job } = armJob();
    const pose = cloneLocalPose(rig.pose);
    const start = modelPositions(rig.skeleton, pose)[rig.start];
    job.target.set([start[0] + 0.05, start[1], start[2]]);
    job.apply(pose, rig.skeleton);
    expect(job.reached).toBe(false);
    const p = modelPositions(rig.skeleton, pose);
    expect(distance(p[rig.end], p[rig.start])).toBeCloseTo(Math.abs(rig.upper - rig.lower), 4);
  });

  it('weight 0 is a no-op, bit for bit, and so is a NaN weight', () => {
    for (const weight of [0, -1, Number.NaN]) {
      const { rig, job } = armJob();
      const pose = cloneLocalPose(rig.pose);
      const before = poseBytes(pose);
      job.target.set([5, 5, 5]);
      job.weight = weight;
      job.apply(pose, rig.skeleton);
      expect(poseBytes(pose)).toEqual(before);
      expect(job.reached).toBe(false);
    }
  });

  it('the pole decides the bend plane: the mid joint lies in the plane of start, target and pole, on the pole\'s side', () => {
    for (const pole of [[0, 0, 1], [0, 0, -1], [1, 0, 0], [0.3, 0.2, -0.9]]) {
      const { rig, job } = armJob();
      const pose = cloneLocalPose(rig.pose);
      const start = modelPositions(rig.skeleton, pose)[rig.start];
      job.target.set([start[0] + 0.2, start[1] - 0.8, start[2] + 0.1]);
      job.pole.set(pole);
      job.apply(pose, rig.skeleton);
      const p = modelPositions(rig.skeleton, pose);
      const t = sub([...job.target], start), m = sub(p[rig.mid], start);
      const normal = cross(t, pole);
      expect(Math.abs(dot(m, normal)) / (length(m) * length(normal))).toBeLessThan(1e-5);
      // On the pole's side of the start→target line.
      const perpendicular = sub(m, t.map((x) => (x * dot(m, t)) / dot(t, t)));
      expect(dot(perpendicular, pole)).toBeGreaterThan(0);
    }
  });

  it('a weight of 0.5 applies the nlerp of identity and the full correction', () => {
    const { rig, job } = armJob();
    const full = cloneLocalPose(rig.pose);
    const start = modelPositions(rig.skeleton, full)[rig.start];
    job.target.set([start[0] + 0.4, start[1] - 0.5, start[2] + 0.3]);
    job.apply(full, rig.skeleton);
    const q = [...job.startCorrection];
    const half = cloneLocalPose(rig.pose);
    job.weight = 0.5;
    job.apply(half, rig.skeleton);
    expect(job.reached).toBe(false); // reached needs the whole weight
    const sign = q[3] < 0 ? -1 : 1;
    const lerp = [0.5 * sign * q[0], 0.5 * sign * q[1], 0.5 * sign * q[2], 0.5 + 0.5 * sign * q[3]];
    const l = Math.hypot(...lerp);
    for (let i = 0; i < 4; i++) expect(job.startCorrection[i]).toBeCloseTo(lerp[i] / l, 12);
    // Half way: the end lands between where it was and the target, nearer neither extreme exactly.
    const was = modelPositions(rig.skeleton, rig.pose)[rig.end];
    const now = modelPositions(rig.skeleton, half)[rig.end];
    expect(distance(now, [...job.target])).toBeGreaterThan(1e-3);
    expect(distance(now, was)).toBeGreaterThan(1e-3);
  });

  it('soften lets the end lag behind a target near full extension (not reached), and reach it at soften 1', () => {
    const { rig, job } = armJob();
    const chain = rig.upper + rig.lower;
    const pose = cloneLocalPose(rig.pose);
    const start = modelPositions(rig.skeleton, pose)[rig.start];
    job.target.set([start[0], start[1] - 0.95 * chain, start[2]]);
    job.soften = 0.8;
    job.apply(pose, rig.skeleton);
    expect(job.reached).toBe(false);
    const reach = distance(modelPositions(rig.skeleton, pose)[rig.end], start);
    // 1 − 3⁴/(α+3)⁴ of the remaining 0.2·chain, α = 0.15/0.2 (docs: ozz-animation's soften).
    const alpha = 0.75, expected = 0.8 * chain + 0.2 * chain * (1 - 81 / (alpha + 3) ** 4);
    expect(reach).toBeCloseTo(expected, 5);
    expect(reach).toBeLessThan(0.95 * chain);
    const exact = cloneLocalPose(rig.pose);
    job.soften = 1;
    job.apply(exact, rig.skeleton);
    expect(job.reached).toBe(true);
  });

  it('twistAngle rolls the chain about the start→target line by that angle', () => {
    const angles: number[] = [];
    let base: number[] = [];
    for (const twist of [0, 0.5]) {
      const { rig, job } = armJob();
      const pose = cloneLocalPose(rig.pose);
      const start = modelPositions(rig.skeleton, pose)[rig.start];
      job.target.set([start[0] + 0.3, start[1] - 0.6, start[2]]);
      job.pole.set([0, 0, 1]);
      job.twistAngle = twist;
      job.apply(pose, rig.skeleton);
      const p = modelPositions(rig.skeleton, pose);
      const t = sub([...job.target], start);
      const m = sub(p[rig.mid], start);
      const perp = sub(m, t.map((x) => (x * dot(m, t)) / dot(t, t)));
      if (twist === 0) base = perp;
      else angles.push(Math.atan2(dot(cross(base, perp), t) / length(t), dot(base, perp)));
      expect(distance(p[rig.end], [...job.target])).toBeLessThan(1e-5);
    }
    expect(angles[0]).toBeCloseTo(0.5, 5);
  });

  it('corrects joints through an intermediate joint, leaving it as it was', () => {
    const { rig, job } = armJob();
    const pose = cloneLocalPose(rig.pose);
    job.target.set([0.5, 0.6, 0]);
    job.apply(pose, rig.skeleton);
    expect([...pose.rotations.subarray(12, 16)]).toEqual([...rig.pose.rotations.subarray(12, 16)]);
    expect([...pose.rotations.subarray(0, 4)]).toEqual([...rig.pose.rotations.subarray(0, 4)]);
  });

  it('midAxisFromPose gives the hinge that opens the bend: ±z of the elbow here, and throws for a straight chain', () => {
    const rig = armRig();
    const axis = midAxisFromPose(new Float64Array(3), rig.skeleton, rig.pose, 'shoulder', 'elbow', 'hand');
    // The elbow is bent by +0.3 rad about z: the opening rotation is about −z.
    expect([...axis].map((x) => x + 0)).toEqual([expect.closeTo(0, 12), expect.closeTo(0, 12), expect.closeTo(-1, 12)]);
    setJoint(rig.pose, 2, [0, -0.5, 0]);
    setJoint(rig.pose, 3, [0, -0.2, 0]);
    expect(() => midAxisFromPose(new Float64Array(3), rig.skeleton, rig.pose, 1, 2, 4)).toThrow(/straight.*give midAxis/);
  });

  it('keeps bending the way the mid axis says: with the opposite axis the elbow goes the other way around', () => {
    const rig = armRig();
    const matrices = modelMatrices(rig.skeleton, rig.pose);
    const elbowZ = axisInModel(matrices, rig.mid, [0, 0, 1]);
    const bendOf = (axis: number[]): number => {
      const pose = cloneLocalPose(rig.pose);
      const job = new TwoBoneIkJob(rig.skeleton, { start: 1, mid: 2, end: 4, midAxis: axis });
      const start = modelPositions(rig.skeleton, pose)[1];
      job.target.set([start[0] + 0.1, start[1] - 0.7, start[2] + 0.1]);
      job.pole.set(elbowZ);
      job.apply(pose, rig.skeleton);
      const p = modelPositions(rig.skeleton, pose);
      expect(distance(p[4], [...job.target])).toBeLessThan(1e-5);
      // The mid joint's hinge in model space after the job, against the chain's bend.
      const m = modelMatrices(rig.skeleton, pose);
      return dot(cross(sub(p[1], p[2]), sub(p[4], p[2])), axisInModel(m, 2, axis));
    };
    expect(bendOf([0, 0, -1])).toBeGreaterThan(0);
    expect(bendOf([0, 0, 1])).toBeGreaterThan(0);
  });
});

describe('TwoBoneIkJob: bad input', () => {
  it('names an unknown joint, a repeated joint and a broken chain at set-up', () => {
    const { skeleton } = armRig();
    expect(() => new TwoBoneIkJob(skeleton, { start: 'shoulder', mid: 'knee', end: 'hand' })).toThrow(RangeError);
    expect(() => new TwoBoneIkJob(skeleton, { start: 'shoulder', mid: 'knee', end: 'hand' })).toThrow('TwoBoneIkJob mid: no joint "knee" in the skeleton (5 joints)');
    expect(() => new TwoBoneIkJob(skeleton, { start: 1, mid: 9, end: 4 })).toThrow('TwoBoneIkJob mid: no joint 9');
    expect(() => new TwoBoneIkJob(skeleton, { start: 'elbow', mid: 'elbow', end: 'hand' })).toThrow(/three different joints/);
    expect(() => new TwoBoneIkJob(skeleton, { start: 'hand', mid: 'elbow', end: 'shoulder' })).toThrow('TwoBoneIkJob: start "hand" (4) is not an ancestor of mid "elbow" (2)');
    expect(() => new TwoBoneIkJob(skeleton, { start: 1, mid: 2, end: 4, midAxis: [0, 0, 0] })).toThrow('TwoBoneIkJob midAxis must not be the zero vector');
    expect(() => new TwoBoneIkJob(skeleton, { start: 1, mid: 2, end: 4, target: [0, Number.NaN, 0] })).toThrow('TwoBoneIkJob target must be three finite numbers, got [0, NaN, 0]');
    expect(() => new TwoBoneIkJob(skeleton, { start: 1, mid: 2, end: 4, weight: Number.POSITIVE_INFINITY })).toThrow('TwoBoneIkJob weight must be a finite number, got Infinity');
  });

  it('a NaN or infinite target (or pole, axis, soften, twist) at apply time leaves the pose untouched, reached false', () => {
    const cases: ((job: TwoBoneIkJob) => void)[] = [
      (job) => job.target.set([Number.NaN, 0, 0]),
      (job) => job.target.set([0, Number.POSITIVE_INFINITY, 0]),
      (job) => job.pole.set([0, Number.NaN, 0]),
      (job) => job.midAxis.set([0, 0, 0]),
      (job) => { job.soften = Number.NaN; },
      (job) => { job.twistAngle = Number.NaN; },
    ];
    for (const spoil of cases) {
      const { rig, job } = armJob();
      const pose = cloneLocalPose(rig.pose);
      job.target.set([0.5, 0.5, 0]);
      job.apply(pose, rig.skeleton);
      expect(job.reached).toBe(true);
      const clean = cloneLocalPose(rig.pose);
      const before = poseBytes(clean);
      spoil(job);
      job.apply(clean, rig.skeleton);
      expect(job.reached).toBe(false);
      expect(poseBytes(clean)).toEqual(before);
    }
  });

  it('a bone of zero length in the pose leaves it untouched, never NaN', () => {
    const { rig, job } = armJob();
    const pose = cloneLocalPose(rig.pose);
    pose.translations.set([0, 0, 0], 3 * 2); // the elbow on the shoulder
    const before = poseBytes(pose);
    job.target.set([0.5, 0.5, 0]);
    job.apply(pose, rig.skeleton);
    expect(job.reached).toBe(false);
    expect(poseBytes(pose)).toEqual(before);
    // A joint scaled to zero likewise.
    const flat = cloneLocalPose(rig.pose);
    flat.scales.set([0, 0, 0], 3);
    const flatBefore = poseBytes(flat);
    job.apply(flat, rig.skeleton);
    expect(poseBytes(flat)).toEqual(flatBefore);
  });

  it('a pole parallel to the start→target line (or zero) keeps the current plane and still reaches, no NaN', () => {
    for (const poleOf of [(t: number[]) => t, (t: number[]) => t.map((x) => -2 * x), () => [0, 0, 0]]) {
      const { rig, job } = armJob();
      const pose = cloneLocalPose(rig.pose);
      const start = modelPositions(rig.skeleton, pose)[rig.start];
      const t = [0.2, -0.6, 0.3];
      job.target.set(start.map((s, i) => s + t[i]));
      job.pole.set(poleOf(t));
      job.apply(pose, rig.skeleton);
      expect(pose.rotations.every(Number.isFinite)).toBe(true);
      expect(job.reached).toBe(true);
      expect(distance(modelPositions(rig.skeleton, pose)[rig.end], [...job.target])).toBeLessThan(1e-5);
    }
  });

  it('a target on the start joint turns nothing into NaN', () => {
    const { rig, job } = armJob();
    const pose = cloneLocalPose(rig.pose);
    job.target.set(modelPositions(rig.skeleton, pose)[rig.start]);
    job.apply(pose, rig.skeleton);
    expect(pose.rotations.every(Number.isFinite)).toBe(true);
    expect(job.reached).toBe(false);
  });
});
