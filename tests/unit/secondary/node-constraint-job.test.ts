import { quat, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import type { NodeConstraintAsset } from '../../../src/asset/secondary-motion-asset.ts';
import { NodeConstraintJob } from '../../../src/secondary/node-constraint-job.ts';
import { cloneLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

// root (0) → src (1), root → parent (2, turned 0.7 rad about +y) → dst (3) → dst2 (4); root → target (5).
const skeleton: Skeleton = { jointCount: 6, names: ['root', 'src', 'parent', 'dst', 'dst2', 'target'], parents: Int32Array.from([-1, 0, 0, 2, 3, 0]), sourceIndices: Int32Array.from([0, 1, 2, 3, 4, 5]) };
const axisAngle = (axis: [number, number, number], angle: number): quat => quat.setAxisAngle(quat.create(), vec3.normalize(vec3.create(), axis), angle);
const restRotation = axisAngle([1, 2, 0.5], 0.4);

function restPose(): LocalPose {
  const rest = createLocalPose(6);
  rest.translations.set([0.2, 1, 0], 3);
  rest.translations.set([0, 1, 0], 6);
  rest.rotations.set(axisAngle([0, 1, 0], 0.7), 8);
  rest.translations.set([0, 0.3, 0], 9);
  rest.rotations.set(restRotation, 12);
  rest.translations.set([0, 0.2, 0], 12);
  rest.translations.set([1, 2, -0.5], 15);
  return rest;
}

const rotationOf = (pose: LocalPose, j: number): quat => quat.fromValues(pose.rotations[4 * j], pose.rotations[4 * j + 1], pose.rotations[4 * j + 2], pose.rotations[4 * j + 3]);
const expectQuat = (actual: quat, expected: quat): void => {
  const sign = quat.dot(actual, expected) < 0 ? -1 : 1;
  for (let k = 0; k < 4; k++) expect(actual[k] * sign).toBeCloseTo(expected[k], 5);
};

function applied(constraints: NodeConstraintAsset[], srcRotation: quat, rest = restPose()): LocalPose {
  const job = new NodeConstraintJob(constraints, skeleton, rest);
  const pose = cloneLocalPose(rest);
  pose.rotations.set(srcRotation, 4);
  job.apply(pose, skeleton);
  return pose;
}

describe('NodeConstraintJob (VRMC_node_constraint 1.0, three-vrm-node-constraint 3.5.5)', () => {
  it('rotation: the source\'s rotation from its rest, applied after the destination\'s rest, blended by weight', () => {
    const turn = axisAngle([0, 1, 0], 0.8);
    expectQuat(rotationOf(applied([{ kind: 'rotation', node: 3, source: 1, weight: 1 }], turn), 3), quat.multiply(quat.create(), restRotation, turn));
    expectQuat(rotationOf(applied([{ kind: 'rotation', node: 3, source: 1, weight: 0.5 }], turn), 3), quat.multiply(quat.create(), restRotation, axisAngle([0, 1, 0], 0.4)));
    expectQuat(rotationOf(applied([{ kind: 'rotation', node: 3, source: 1, weight: 0 }], turn), 3), restRotation);
  });

  it('roll: only the twist about the axis passes (swing removed), blended by weight', () => {
    // src = swing (about x) · twist (about y): the roll about Y is the twist alone (rests identity at the source;
    // the destination's rest is its frame: dstRest · twist).
    const twist = axisAngle([0, 1, 0], 0.6), swing = axisAngle([1, 0, 0.3], 0.5);
    const src = quat.multiply(quat.create(), swing, twist);
    const rest = restPose();
    rest.rotations.set([0, 0, 0, 1], 12);
    expectQuat(rotationOf(applied([{ kind: 'roll', node: 3, source: 1, weight: 1, rollAxis: 'Y' }], src, rest), 3), twist);
    expectQuat(rotationOf(applied([{ kind: 'roll', node: 3, source: 1, weight: 0.5, rollAxis: 'Y' }], src, rest), 3), axisAngle([0, 1, 0], 0.3));
    expectQuat(rotationOf(applied([{ kind: 'roll', node: 3, source: 1, weight: 1, rollAxis: 'X' }], axisAngle([1, 0, 0], -0.9), rest), 3), axisAngle([1, 0, 0], -0.9));
  });

  it('aim: the destination\'s axis points at the source, under a turned parent', () => {
    for (const [aimAxis, axis] of [['PositiveX', [1, 0, 0]], ['NegativeY', [0, -1, 0]], ['PositiveZ', [0, 0, 1]]] as const) {
      const pose = applied([{ kind: 'aim', node: 3, source: 5, weight: 1, aimAxis }], quat.create());
      const m = localToModel(new Float32Array(16 * 6), skeleton, pose);
      const dir = vec3.normalize(vec3.create(), [m[80 + 12] - m[48 + 12], m[80 + 13] - m[48 + 13], m[80 + 14] - m[48 + 14]]);
      const aimed = [0, 1, 2].map((r) => m[48 + r] * axis[0] + m[52 + r] * axis[1] + m[56 + r] * axis[2]);
      for (let k = 0; k < 3; k++) expect(aimed[k]).toBeCloseTo(dir[k], 5);
    }
    const rest = restPose();
    expectQuat(rotationOf(applied([{ kind: 'aim', node: 3, source: 5, weight: 0, aimAxis: 'PositiveX' }], quat.create()), 3), rotationOf(rest, 3));
  });

  it('a chain: a constraint reading another\'s destination sees its result (evaluation order)', () => {
    const turn = axisAngle([0, 0, 1], 0.5);
    const rest = restPose();
    rest.rotations.set([0, 0, 0, 1], 12);
    const pose = applied([
      { kind: 'rotation', node: 3, source: 1, weight: 1 },
      { kind: 'rotation', node: 4, source: 3, weight: 0.5 },
      { kind: 'aim', node: 5, source: 4, weight: 1, aimAxis: 'PositiveY' },
    ], turn, rest);
    expectQuat(rotationOf(pose, 3), turn);
    expectQuat(rotationOf(pose, 4), axisAngle([0, 0, 1], 0.25));
    const m = localToModel(new Float32Array(16 * 6), skeleton, pose);
    const dir = vec3.normalize(vec3.create(), [m[64 + 12] - m[80 + 12], m[64 + 13] - m[80 + 13], m[64 + 14] - m[80 + 14]]);
    for (let k = 0; k < 3; k++) expect(m[80 + 4 + k]).toBeCloseTo(dir[k], 5);
  });

  it('rejects joints outside the skeleton and weights outside [0, 1]', () => {
    expect(() => new NodeConstraintJob([{ kind: 'rotation', node: 3, source: 9, weight: 1 }], skeleton, restPose())).toThrow(/joint 9/);
    expect(() => new NodeConstraintJob([{ kind: 'rotation', node: 3, source: 1, weight: 2 }], skeleton, restPose())).toThrow(/weight/);
  });
});
