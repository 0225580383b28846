/**
 * The third reference comparison: look-at on the generated avatars (VRM 1.0 and 0.x, bone and expression
 * type) at 4 targets gives three-vrm's skinned vertices within 1e-4 of the bounding box's diagonal.
 * three: `vrm.lookAt.lookAt(point)`, then `vrm.update(0)`. Sinew: `LookAtController.setTarget(point)` (model space,
 * which is three's world space here), then `AnimatedModel.evaluate` of the rest pose.
 *
 * Where the two differ: three-vrm 3.x's bone applier (`VRMLookAtBoneApplier.applyYawPitch`) maps an upward gaze
 * (pitch < 0) with `rangeMapVerticalDown` and a downward one with `rangeMapVerticalUp`; the specification
 * (VRMC_vrm-1.0 `lookAt.md`, "Interpretation when type is bone" and its `applyLeftEyeBone`) maps pitch > 0 (down)
 * with `rangeMapVerticalDown` and pitch < 0 (up) with `rangeMapVerticalUp`, as three-vrm's own expression applier
 * does. Sinew follows the specification. So bone look-at is compared as is at level targets (pitch 0: no vertical
 * map is read), and at targets above and below against three-vrm with its two vertical maps swapped back; the last
 * test shows the difference itself, each side's eye pitch against a hand computation from the avatar's maps.
 */
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { VRMLookAtBoneApplier } from '@pixiv/three-vrm';
import { mat4, quat } from 'gl-matrix';
import { avatarLookAtRangeMaps } from '../../../src/procedural/avatar/avatar-vrm-options.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { avatarBytes, diagonalOf, loadSinew, loadThreeVrm, sinewPositions, threePositions, worstError } from './three-vrm-reference.ts';

const RAD = Math.PI / 180;
/** (yaw, pitch) degrees of each target as seen from the look-at origin (yaw > 0 to the avatar's left, pitch > 0 down). */
const LEVEL: readonly (readonly [number, number])[] = [[30, 0], [-45, 0], [75, 0], [-20, 0]];
const ANY: readonly (readonly [number, number])[] = [[30, -20], [-45, 25], [10, -50], [-70, 40]];

/** The point 2 m from `origin` at (yaw, pitch), the avatar facing +Z: origin + 2·(cos p·sin y, −sin p, cos p·cos y). */
function targetAt(origin: Vector3, [yaw, pitch]: readonly [number, number]): [number, number, number] {
  const y = yaw * RAD, p = pitch * RAD;
  return [origin.x + 2 * Math.cos(p) * Math.sin(y), origin.y - 2 * Math.sin(p), origin.z + 2 * Math.cos(p) * Math.cos(y)];
}

async function setup(version: '1' | '0', type: 'bone' | 'expression', specMaps: boolean) {
  const bytes = await avatarBytes(version, type);
  const asset = await loadSinew(bytes);
  const animated = new AnimatedModel(asset);
  const rest = sinewPositions(asset, animated);
  const three = await loadThreeVrm(bytes);
  const applier = three.vrm.lookAt!.applier;
  expect(applier instanceof VRMLookAtBoneApplier).toBe(type === 'bone');
  if (specMaps && applier instanceof VRMLookAtBoneApplier) {
    [applier.rangeMapVerticalUp, applier.rangeMapVerticalDown] = [applier.rangeMapVerticalDown, applier.rangeMapVerticalUp];
  }
  const origin = three.vrm.lookAt!.getLookAtWorldPosition(new Vector3());
  /** Both sides look at (yaw, pitch); Sinew's own yaw and pitch of the target are checked against the request. */
  const look = (angles: readonly [number, number]) => {
    const point = targetAt(origin, angles);
    three.vrm.lookAt!.lookAt(new Vector3(...point));
    three.vrm.update(0);
    const controller = animated.avatar!.lookAt!;
    controller.setTarget(...point);
    animated.evaluate(animated.clipSample(-1));
    expect(controller.yaw).toBeCloseTo(angles[0], 4);
    expect(controller.pitch).toBeCloseTo(angles[1], 4);
  };
  return { asset, animated, rest, three, look, diagonal: diagonalOf(rest) };
}

describe('look-at on the generated avatar: Sinew against three-vrm', () => {
  for (const version of ['1', '0'] as const) {
    const v = version === '1' ? '1.0' : '0.x';
    for (const [type, targets, specMaps, what] of [
      ['bone', LEVEL, false, 'level targets, three-vrm as it is'],
      ['bone', ANY, true, 'targets above and below, three-vrm\'s vertical maps swapped to the specification\'s'],
      ['expression', ANY, false, 'targets above and below, three-vrm as it is'],
    ] as const) {
      it(`VRM ${v}, ${type} look-at, ${what}: skinned vertices within 1e-4 of the diagonal at 4 targets`, async () => {
        const { asset, animated, rest, three, look, diagonal } = await setup(version, type, specMaps);
        const errors: number[] = [];
        for (const angles of targets) {
          look(angles);
          const ours = sinewPositions(asset, animated);
          errors.push(worstError(ours, threePositions(three), diagonal));
          // Each target moves the eyes (or the look expressions' morphs) by more than twice the tolerance.
          expect(worstError(ours, rest, diagonal)).toBeGreaterThan(2e-4);
        }
        console.log(`look-at, VRM ${version}, ${type}${specMaps ? ' (three with the spec\'s vertical maps)' : ''}: worst ${Math.max(...errors).toExponential(2)} of the diagonal (${errors.map((e) => e.toExponential(1)).join(', ')})`);
        expect(Math.max(...errors)).toBeLessThan(1e-4);
      });
    }

    it(`VRM ${v}, bone look-at: the eyes pitch by the specification's vertical map (Sinew) and by the other one (three-vrm 3.x)`, async () => {
      const { asset, animated, three, look } = await setup(version, 'bone', false);
      const maps = avatarLookAtRangeMaps('bone');
      const leftEye = asset.avatar!.humanoid.bones.leftEye!;
      const threeEye = three.vrm.humanoid.getRawBoneNode('leftEye')!;
      const sinewEyeRotation = () => mat4.getRotation(quat.create(), animated.jointMatrix(leftEye, new Float32Array(16)) as unknown as mat4);
      const threeEyeRotation = () => threeEye.getWorldQuaternion(new Quaternion());
      const restOurs = sinewEyeRotation(), restTheirs = threeEyeRotation();
      /** The eye's gaze turn E = Q · Q_rest⁻¹ (world), as (yaw, pitch) degrees of E·(+Z). */
      const gaze = (q: ArrayLike<number>, r: ArrayLike<number>) => {
        const e = new Quaternion(q[0], q[1], q[2], q[3]).multiply(new Quaternion(r[0], r[1], r[2], r[3]).invert());
        const d = new Vector3(0, 0, 1).applyQuaternion(e);
        return [Math.atan2(d.x, d.z) / RAD, -Math.asin(d.y) / RAD];
      };
      // Up 30°: the specification's up map gives −14·30/60 = −7°; three-vrm's read of the down map −10·30/70.
      // Down 35°: the down map gives 10·35/70 = 5°; three-vrm's read of the up map 14·35/60.
      for (const [pitch, spec, threeVrm] of [[-30, -7, (-10 * 30) / 70], [35, 5, (14 * 35) / 60]] as const) {
        expect([maps.rangeMapVerticalUp.outputScale, maps.rangeMapVerticalUp.inputMaxValue, maps.rangeMapVerticalDown.outputScale, maps.rangeMapVerticalDown.inputMaxValue]).toEqual([14, 60, 10, 70]);
        look([0, pitch]);
        const ours = gaze(sinewEyeRotation(), restOurs), theirs = gaze(threeEyeRotation().toArray(), restTheirs.toArray());
        console.log(`bone look-at, VRM ${version}, target pitch ${pitch}°: Sinew's eye ${ours[1].toFixed(4)}° (spec ${spec}°), three-vrm's ${theirs[1].toFixed(4)}° (hand ${threeVrm.toFixed(4)}°)`);
        expect(ours[0]).toBeCloseTo(0, 4);
        expect(theirs[0]).toBeCloseTo(0, 4);
        expect(ours[1]).toBeCloseTo(spec, 4);
        expect(theirs[1]).toBeCloseTo(threeVrm, 4);
      }
    });
  }
});
