import { describe, expect, it } from 'vitest';
import { ExpressionState } from '../../../src/avatar/expression-state.ts';
import { eulerYxzQuat, LookAtController, mapLookAtRange } from '../../../src/avatar/look-at.ts';
import { LookAtTrackSampler } from '../../../src/avatar/look-at-track.ts';
import { poseJointMatrix } from '../../../src/ik/pose-joint-matrix.ts';
import { polarRotation } from '../../../src/math/polar-rotation.ts';
import { createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { expression, lookAtAsset } from './avatar-fixtures.ts';

const RAD = Math.PI / 180;

/** root 0 → head 1 (at y = 1.5, turned 90° about Y at rest) → leftEye 2, rightEye 3 (identity rest rotations). */
function rig(): { skeleton: Skeleton; rest: LocalPose; bones: Record<string, number> } {
  const skeleton: Skeleton = { jointCount: 4, names: ['root', 'head', 'leftEye', 'rightEye'], parents: Int32Array.of(-1, 0, 1, 1), sourceIndices: Int32Array.of(0, 1, 2, 3) };
  const rest = createLocalPose(4);
  rest.translations.set([0, 1.5, 0], 3);
  rest.rotations.set([0, Math.sin(45 * RAD), 0, Math.cos(45 * RAD)], 4);
  rest.translations.set([0.03, 0.05, 0.05], 6);
  rest.translations.set([-0.03, 0.05, 0.05], 9);
  return { skeleton, rest, bones: { head: 1, leftEye: 2, rightEye: 3 } };
}

/** The model-space rotation of `joint` in `pose`, w ≥ 0. */
function modelRotation(skeleton: Skeleton, pose: LocalPose, joint: number): number[] {
  const q = new Float64Array(4);
  polarRotation(poseJointMatrix(new Float64Array(16), skeleton, pose, joint), 0, q, 0);
  return Array.from(q);
}

function expectQuat(actual: number[], expected: number[]): void {
  const sign = actual[3] * expected[3] + actual[0] * expected[0] + actual[1] * expected[1] + actual[2] * expected[2] < 0 ? -1 : 1;
  actual.forEach((a, i) => expect(a * sign).toBeCloseTo(expected[i], 6));
}

describe('look-at', () => {
  it('range maps: outputScale · min(|x|, max) / max', () => {
    const map = { inputMaxValue: 60, outputScale: 20 };
    expect(mapLookAtRange(map, 45)).toBeCloseTo(15, 12);
    expect(mapLookAtRange(map, -45)).toBeCloseTo(15, 12);
    expect(mapLookAtRange(map, 90)).toBe(20);
    expect(mapLookAtRange({ inputMaxValue: 0, outputScale: 5 }, 10)).toBe(0);
  });

  it('YXZ Euler: +Z turns to (cos p · sin y, −sin p, cos p · cos y)', () => {
    const q = eulerYxzQuat(new Float64Array(4), 0, [0.7, 0.3], 0);
    const [x, y, z, w] = q;
    // q · (0, 0, 1) · q*: third column of the rotation matrix.
    const v = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
    [Math.cos(0.3) * Math.sin(0.7), -Math.sin(0.3), Math.cos(0.3) * Math.cos(0.7)].forEach((e, i) => expect(v[i]).toBeCloseTo(e, 12));
  });

  it('yaw and pitch of a target in look-at space: offset in the head frame, rest rotation taken back, posed head followed', () => {
    const { skeleton, rest, bones } = rig();
    // Offset (0.1, 0.1, 0) in the head frame (turned 90° about Y): (0, 0.1, −0.1) in model space; origin (0, 1.6, −0.1).
    const look = new LookAtController(lookAtAsset('bone', [0.1, 0.1, 0]), { bones }, skeleton, rest, null);
    look.setTarget(1, 1.6, 0.9);
    look.update(rest, skeleton);
    expect(look.yaw).toBeCloseTo(45, 5);
    expect(look.pitch).toBeCloseTo(0, 5);
    look.setTarget(0, 2.6, 0.9);
    look.update(rest, skeleton);
    expect(look.yaw).toBeCloseTo(0, 5);
    expect(look.pitch).toBeCloseTo(-45, 5); // up is negative
    // The head turned a further 30° to its left: a target straight ahead is 30° to the right (yaw −30°).
    const posed = createLocalPose(4);
    posed.translations.set(rest.translations);
    posed.rotations.set(rest.rotations);
    posed.rotations.set([0, Math.sin(60 * RAD), 0, Math.cos(60 * RAD)], 4);
    const ahead = new LookAtController(lookAtAsset('bone', [0, 0.1, 0]), { bones }, skeleton, rest, null);
    ahead.setTarget(0, 1.6, 5);
    ahead.update(posed, skeleton);
    expect(ahead.yaw).toBeCloseTo(-30, 5);
    expect(ahead.pitch).toBeCloseTo(0, 5);
  });

  it('a world-space target is carried into model space by the inverse of the model\'s world matrix', () => {
    const { skeleton, rest, bones } = rig();
    const look = new LookAtController(lookAtAsset('bone', [0, 0.1, 0]), { bones }, skeleton, rest, null);
    const world = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]); // model moved +10 in x
    expect(look.setTargetWorld([11, 1.6, 1], world)).toBe(true);
    expect(Array.from(look.target)).toEqual([1, 1.6, 1]);
    look.update(rest, skeleton);
    expect(look.yaw).toBeCloseTo(45, 5);
  });

  it('bone type: each eye turned from its rest model frame by the mapped angles (left outer / right inner for yaw > 0; up map for pitch < 0)', () => {
    const { skeleton, rest, bones } = rig();
    const look = new LookAtController(lookAtAsset('bone'), { bones }, skeleton, rest, null);
    const pose = createLocalPose(4);
    pose.translations.set(rest.translations);
    pose.rotations.set(rest.rotations);
    look.setAngles(45, -45);
    look.applyBones(pose);
    const headRest = [0, Math.sin(45 * RAD), 0, Math.cos(45 * RAD)];
    // Model-space eye rotation = E · P (P the head's rest rotation): left eye yaw 20·45/60 = 15°, right eye 10·min(45, 30)/30 = 10°,
    // both pitch −12·45/50 = −10.8°.
    const compose = (yaw: number, pitch: number): number[] => {
      const e = eulerYxzQuat(new Float64Array(4), 0, [yaw * RAD, pitch * RAD], 0);
      const [ax, ay, az, aw] = e, [bx, by, bz, bw] = headRest;
      return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
    };
    expectQuat(modelRotation(skeleton, pose, 2), compose(15, -10.8));
    expectQuat(modelRotation(skeleton, pose, 3), compose(10, -10.8));
    // Downward and to the right: left eye inner 10·min(40, 30)/30 = 10 → −10°, right eye outer 20·40/60; pitch 8·min(40, 40)/40 = 8°.
    look.setAngles(-40, 50);
    look.applyBones(pose);
    expectQuat(modelRotation(skeleton, pose, 2), compose(-10, 8));
    expectQuat(modelRotation(skeleton, pose, 3), compose((-20 * 40) / 60, 8));
    // A blocking overrideLookAt (multiplier 0): the eyes at rest.
    look.applyBones(pose, [0]);
    expectQuat(modelRotation(skeleton, pose, 2), headRest);
    expect(look.movesJoints).toBe(true);
    look.clear();
    expect(look.movesJoints).toBe(false);
  });

  it('expression type: lookLeft/Right from the outer map, lookUp/Down from the vertical maps; the overrides then apply', () => {
    const { skeleton, rest, bones } = rig();
    const state = new ExpressionState([expression('lookLeft'), expression('lookRight'), expression('lookUp'), expression('lookDown'), expression('happy', { overrideLookAt: 'blend' })]);
    const look = new LookAtController(lookAtAsset('expression'), { bones }, skeleton, rest, state);
    state.setExpression('lookRight', 0.9);
    state.setExpression('lookDown', 0.9);
    look.setAngles(45, -45);
    look.applyExpressions(state);
    // outer 60° → 1: 45/60; up 50° → 0.6: 0.6 · 45/50.
    expect(state.getExpression('lookLeft')).toBeCloseTo(0.75, 6);
    expect(state.getExpression('lookRight')).toBe(0);
    expect(state.getExpression('lookUp')).toBeCloseTo(0.54, 6);
    expect(state.getExpression('lookDown')).toBe(0);
    look.setAngles(-90, 20);
    look.applyExpressions(state);
    expect(state.getExpression('lookRight')).toBeCloseTo(1, 6);
    expect(state.getExpression('lookLeft')).toBe(0);
    expect(state.getExpression('lookDown')).toBeCloseTo(0.2, 6); // down 40° → 0.4: 0.4 · 20/40
    state.setExpression('happy', 0.25);
    state.resolve();
    expect(state.outputWeights[1]).toBeCloseTo(0.75, 6);
    expect(state.outputWeights[3]).toBeCloseTo(0.15, 6);
    // Bone application does nothing for the expression type, and nothing moves.
    const pose = createLocalPose(4);
    look.applyBones(pose);
    expect(Array.from(pose.rotations.subarray(8, 12))).toEqual([0, 0, 0, 1]);
    expect(look.movesJoints).toBe(false);
  });

  it('a VRMA look-at track: its rotation\'s YXZ Euler angles are yaw and pitch; a point target wins', () => {
    const { skeleton, rest, bones } = rig();
    const look = new LookAtController(lookAtAsset('bone'), { bones }, skeleton, rest, null);
    const ry = (deg: number): number[] => [0, Math.sin((deg * RAD) / 2), 0, Math.cos((deg * RAD) / 2)];
    const yawThenPitch = (yaw: number, pitch: number): number[] => Array.from(eulerYxzQuat(new Float64Array(4), 0, [yaw * RAD, pitch * RAD], 0));
    const track = new LookAtTrackSampler({ interpolation: 'LINEAR', times: Float32Array.of(0, 2, 3), values: Float32Array.from([...ry(0), ...ry(40), ...yawThenPitch(-25, 15)]) });
    const clock = new Float64Array(1);
    clock[0] = 1; // halfway from 0° to 40° about Y
    track.sample(look, clock);
    expect(look.mode).toBe('angles');
    expect(look.yaw).toBeCloseTo(20, 4);
    expect(look.pitch).toBeCloseTo(0, 4);
    clock[0] = 5; // past the last key: yaw −25°, pitch 15° (down)
    track.sample(look, clock);
    expect(look.yaw).toBeCloseTo(-25, 4);
    expect(look.pitch).toBeCloseTo(15, 4);
    look.setTarget(0, 0, 1);
    clock[0] = 1;
    track.sample(look, clock);
    expect(look.mode).toBe('point');
    expect(look.yaw).toBeCloseTo(-25, 4);
  });
});
