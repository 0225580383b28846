import { describe, expect, it } from 'vitest';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { FootPlacementJob } from '../../../src/ik/foot-placement-job.ts';
import { midAxisFromPose } from '../../../src/ik/two-bone-ik-job.ts';
import { cross, dot, length, makeSkeleton, modelPositions, poseBytes, setJoint, sub } from './ik-rigs.ts';

// ozz-animation's foot IK sample as a job: rays down from the ankles onto a plane, the pelvis lowered by the
// largest correction, two-bone IK per leg. Checked with the repo's portable localToModel.

/** root (turned, scaled 1.3) → pelvis → two legs with bent knees, and a spine. */
function bipedRig() {
  const skeleton = makeSkeleton(
    ['root', 'pelvis', 'hip.L', 'knee.L', 'ankle.L', 'hip.R', 'knee.R', 'ankle.R', 'spine'],
    [-1, 0, 1, 2, 3, 1, 5, 6, 1],
  );
  const pose = createLocalPose(9);
  setJoint(pose, 0, [0.5, 0, -0.3], [0.2, 1, 0.1], 0.3, 1.3);
  setJoint(pose, 1, [0, 0.9, 0]);
  setJoint(pose, 2, [0.1, -0.05, 0], [1, 0, 0], -0.2);
  setJoint(pose, 3, [0, -0.42, 0], [1, 0, 0], 0.35);
  setJoint(pose, 4, [0, -0.4, 0], [1, 0, 0], -0.15);
  setJoint(pose, 5, [-0.1, -0.05, 0], [1, 0, 0], -0.1);
  setJoint(pose, 6, [0, -0.42, 0], [1, 0, 0], 0.25);
  setJoint(pose, 7, [0, -0.4, 0]);
  setJoint(pose, 8, [0, 0.2, 0]);
  const legs = [['hip.L', 'knee.L', 'ankle.L'], ['hip.R', 'knee.R', 'ankle.R']].map(([start, mid, end]) => ({
    start, mid, end, midAxis: midAxisFromPose(new Float64Array(3), skeleton, pose, start, mid, end),
  }));
  return { skeleton, pose, legs };
}

const ANKLES = [4, 7];

describe('FootPlacementJob', () => {
  it('puts both ankles ankleHeight above a tilted plane, straight below where they were, the pelvis lowered by the largest correction', () => {
    for (const tilt of [0.25, -0.3]) {
      const { skeleton, pose, legs } = bipedRig();
      const normal = [-Math.sin(tilt), Math.cos(tilt), 0];
      const job = new FootPlacementJob(skeleton, { pelvis: 'pelvis', legs, planePoint: [0.5, 0.02, -0.3], planeNormal: normal, ankleHeight: 0.06 });
      const before = modelPositions(skeleton, pose);
      // Independently: each ankle's drop along down (0, −1, 0) to 0.06 above the plane; the pelvis takes the largest.
      const drops = ANKLES.map((a) => (dot(sub(before[a], [0.5, 0.02, -0.3]), normal) - 0.06) / normal[1]);
      const largest = Math.max(...drops);
      expect(Math.abs(drops[0] - drops[1])).toBeGreaterThan(0.02); // the tilt matters here
      job.apply(pose, skeleton);
      expect(job.reached).toBe(true);
      const after = modelPositions(skeleton, pose);
      for (const a of ANKLES) {
        expect(dot(sub(after[a], [0.5, 0.02, -0.3]), normal) - 0.06).toBeCloseTo(0, 5);
        expect(Math.hypot(after[a][0] - before[a][0], after[a][2] - before[a][2])).toBeLessThan(1e-5);
      }
      expect(after[1][1] - before[1][1]).toBeCloseTo(-largest, 6);
      expect([...job.pelvisOffset]).toEqual([expect.closeTo(0, 12), expect.closeTo(-largest, 6), expect.closeTo(0, 12)]);
      // The leg that had to go down farthest is carried there by the pelvis: its knee angle barely changes.
      const farthest = ANKLES[drops.indexOf(largest)];
      const bend = (p: number[][], a: number) => angleAt(p[a - 2], p[a - 1], p[a]);
      expect(Math.abs(bend(after, farthest) - bend(before, farthest))).toBeLessThan(1e-4);
      const other = ANKLES[1 - drops.indexOf(largest)];
      expect(bend(after, other)).toBeLessThan(bend(before, other) - 0.01); // bends more
    }
  });

  it('a plane already under the feet changes nothing but rounding', () => {
    const { skeleton, pose, legs } = bipedRig();
    const before = modelPositions(skeleton, pose);
    const lower = Math.min(before[4][1], before[7][1]);
    const job = new FootPlacementJob(skeleton, { pelvis: 1, legs, planePoint: [0, lower - 0.05, 0], ankleHeight: [before[4][1] - lower + 0.05, before[7][1] - lower + 0.05] });
    job.apply(pose, skeleton);
    const after = modelPositions(skeleton, pose);
    for (let j = 0; j < 9; j++) expect(length(sub(after[j], before[j]))).toBeLessThan(1e-6);
  });

  it('weight 0 is a no-op bit for bit; a NaN plane, a zero normal or a down along the plane leave the pose untouched', () => {
    const spoils: ((job: FootPlacementJob) => void)[] = [
      (job) => { job.weight = 0; },
      (job) => job.planePoint.set([Number.NaN, 0, 0]),
      (job) => job.planeNormal.set([0, 0, 0]),
      (job) => job.down.set([1, -0.2, 0]),
      (job) => { job.ankleHeights[1] = Number.POSITIVE_INFINITY; },
    ];
    for (const spoil of spoils) {
      const { skeleton, pose, legs } = bipedRig();
      const job = new FootPlacementJob(skeleton, { pelvis: 'pelvis', legs, planeNormal: [0.2, 1, 0] });
      spoil(job);
      const before = poseBytes(pose);
      job.apply(pose, skeleton);
      expect(poseBytes(pose)).toEqual(before);
      expect(job.reached).toBe(false);
    }
  });

  it('names bad set-up: an unknown pelvis, a leg not under it, ankle heights of the wrong count', () => {
    const { skeleton, legs } = bipedRig();
    expect(() => new FootPlacementJob(skeleton, { pelvis: 'hips', legs })).toThrow('FootPlacementJob pelvis: no joint "hips" in the skeleton (did you mean "hip.L" or "hip.R"? 9 joints)');
    expect(() => new FootPlacementJob(skeleton, { pelvis: 'spine', legs })).toThrow('FootPlacementJob: pelvis "spine" (8) is not an ancestor of legs[0] start "hip.L" (2)');
    expect(() => new FootPlacementJob(skeleton, { pelvis: 'pelvis', legs, ankleHeight: [0.1] })).toThrow('FootPlacementJob: ankleHeight has 1 entries for 2 legs');
    expect(() => new FootPlacementJob(skeleton, { pelvis: 'pelvis', legs: [] })).toThrow('FootPlacementJob: legs must list at least one leg');
    expect(() => new FootPlacementJob(skeleton, { pelvis: 'pelvis', legs: [{ start: 'hip.L', mid: 'knee.R', end: 'ankle.R' }] })).toThrow(/start "hip.L" \(2\) is not an ancestor of mid "knee.R"/);
  });
});

function angleAt(a: number[], b: number[], c: number[]): number {
  const u = sub(a, b), v = sub(c, b);
  return Math.atan2(length(cross(u, v)), dot(u, v));
}
