import { beforeAll, describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import type { HumanoidBoneName } from '../../../../src/asset/avatar-asset.ts';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';
import { loadModel } from '../../../../src/loaders/load-model.ts';
import { loadClips } from '../../../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../../../src/loaders/clip-library.ts';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import {
  LOCOMOTION_BONES, LOCOMOTION_CLIPS, LOCOMOTION_SPECS, RUN_CYCLE, RUN_SPEED, WALK_CYCLE, WALK_SPEED, locomotionPose, type LocomotionClipName,
} from '../../../../src/procedural/avatar/avatar-locomotion.ts';
import { buildLocomotionVrma } from '../../../../src/procedural/avatar/locomotion-vrma.ts';
import { AnimatedModel } from '../../../../src/scene/animated-model.ts';

// The generated avatar's locomotion clips: cycles that close, feet that stay where they came down while the hips
// travel at the stated speed, foot markers at phases 0 and 0.5 that survive loading and retargeting, root motion
// taken out by the Animator at the stated speed, and a jump whose hips rise and fall.

const none = async (): Promise<null> => null;
let avatar: ModelAsset;
let model: AnimatedModel;

beforeAll(async () => {
  const base = await loadModel({ name: 'avatar.vrm', bytes: await buildAvatarVrm1({ texture: false }) }, none);
  const clips = [];
  for (const name of LOCOMOTION_CLIPS) {
    const library = await loadClips({ name: `${name.toLowerCase()}.vrma`, bytes: await buildLocomotionVrma(name) }, none);
    clips.push(...retargetClipLibrary(library, base).clips);
  }
  avatar = { ...base, clips };
  model = new AnimatedModel(avatar, { backend: 'js' });
}, 60_000);

const clipIndex = (name: LocomotionClipName): number => avatar.clips.findIndex((c) => c.name === name);
const m = new Float64Array(16);
/** Joint `name`'s world position with clip `name` at `t` seconds (no root motion taken out). */
function jointAt(clip: LocomotionClipName, t: number, joint: string): number[] {
  model.evaluate(model.clipSample(clipIndex(clip)).at(t));
  const out = model.jointMatrix(joint, m);
  return [out[12], out[13], out[14]];
}

describe('locomotionPose', () => {
  it('closes every cycle: t and t + cycle differ only by the travel (speed × cycle forward)', () => {
    const a = new Map<HumanoidBoneName, quat>(), b = new Map<HumanoidBoneName, quat>();
    const ha = new Float32Array(3), hb = new Float32Array(3);
    for (const name of ['Idle', 'Walk', 'Run'] as const) {
      const { duration, speed } = LOCOMOTION_SPECS[name];
      for (const t of [0, 0.13, 0.41]) {
        locomotionPose(name, a, ha, t);
        locomotionPose(name, b, hb, t + duration);
        for (const bone of LOCOMOTION_BONES) {
          const dot = Math.abs(quat.dot(a.get(bone)!, b.get(bone)!));
          expect(dot, `${name} ${bone} at ${t}`).toBeGreaterThan(1 - 1e-6);
        }
        expect(hb[1]).toBeCloseTo(ha[1], 6);
        expect(hb[2] - ha[2]).toBeCloseTo(speed * duration, 5);
      }
    }
  });

  it('runs a shorter cycle than it walks, each at its documented speed', () => {
    expect(RUN_CYCLE).toBeLessThan(WALK_CYCLE);
    expect(LOCOMOTION_SPECS.Walk.speed).toBe(1.4);
    expect(LOCOMOTION_SPECS.Run.speed).toBe(3.5);
    const h = new Float32Array(3), r = new Map<HumanoidBoneName, quat>();
    locomotionPose('Walk', r, h, 2);
    expect(h[2]).toBeCloseTo(2 * WALK_SPEED, 5);
    locomotionPose('Run', r, h, 2);
    expect(h[2]).toBeCloseTo(2 * RUN_SPEED, 5);
  });
});

describe('locomotion VRMA clips on the generated avatar', () => {
  it('builds the same bytes twice', async () => {
    expect(await buildLocomotionVrma('Run')).toEqual(await buildLocomotionVrma('Run'));
  });

  it('keeps the foot markers through loading and retargeting: left down at phase 0, right at 0.5', () => {
    for (const name of ['Walk', 'Run'] as const) {
      const clip = avatar.clips[clipIndex(name)];
      const cycle = LOCOMOTION_SPECS[name].duration;
      expect(clip.duration).toBeCloseTo(cycle, 5);
      expect(clip.markers).toEqual([{ time: 0, name: 'left-foot-down' }, { time: cycle / 2, name: 'right-foot-down' }]);
    }
    expect(avatar.clips[clipIndex('Jump')].markers!.map((marker) => marker.name)).toEqual(['take-off', 'land']);
  });

  it('puts each foot down at its marker, ahead of the hips, and holds it there while the hips travel over it', () => {
    for (const name of ['Walk', 'Run'] as const) {
      const { duration: cycle, speed } = LOCOMOTION_SPECS[name];
      const stance = name === 'Walk' ? 0.5 : 0.36;
      for (const [side, start] of [['left', 0], ['right', 0.5]] as const) {
        const joint = `${side}Foot`;
        const down = jointAt(name, start * cycle, joint);
        const hips = jointAt(name, start * cycle, 'hips');
        expect(down[1], `${name} ${side} ankle height at contact`).toBeCloseTo(0.08, 3);
        expect(down[2], `${name} ${side} foot ahead of the hips`).toBeGreaterThan(hips[2] + 0.1);
        // Through the stance the ankle stays put (to a millimetre, the keys being LINEAR at 30 per second).
        for (let k = 1; k <= 8; k++) {
          const t = (start + (stance * k) / 9) * cycle;
          const at = jointAt(name, t, joint);
          expect(Math.abs(at[2] - down[2]), `${name} ${side} at ${t.toFixed(3)} s`).toBeLessThan(2e-3);
          expect(Math.abs(at[1] - 0.08)).toBeLessThan(2e-3);
        }
        // Mid-swing it is off the ground.
        expect(jointAt(name, ((start + (1 + stance) / 2) % 1) * cycle, joint)[1], `${name} ${side} mid-swing`).toBeGreaterThan(0.12);
      }
      // The hips travel at the clip's speed.
      expect(jointAt(name, cycle * 0.75, 'hips')[2] - jointAt(name, cycle * 0.25, 'hips')[2]).toBeCloseTo(speed * cycle / 2, 3);
    }
  });

  it('gives root motion at the stated speed when the Animator takes the travel out', () => {
    for (const name of ['Walk', 'Run'] as const) {
      const animator = model.animator;
      animator.rootMotion = 'applied';
      animator.resetPlacement();
      animator.play(model.clips[clipIndex(name)], { fade: 0, loop: 'loop' });
      const dt = 1 / 60;
      for (let f = 0; f < 150; f++) {
        animator.update(dt);
        model.evaluate(animator);
      }
      const speed = LOCOMOTION_SPECS[name].speed;
      expect(animator.placement[1], name).toBeCloseTo(speed * 150 * dt, 2);
      expect(Math.abs(animator.placement[0])).toBeLessThan(1e-3);
      expect(Math.abs(animator.placement[2])).toBeLessThan(1e-3);
      animator.stop(0, 0);
      animator.rootMotion = 'off';
    }
  });

  it('jumps: the hips sink, rise above standing in the air with both feet off the ground, and land', () => {
    const rest = jointAt('Jump', 0, 'hips')[1];
    expect(jointAt('Jump', 0.3, 'hips')[1]).toBeLessThan(rest - 0.1);
    const peak = 0.575;
    expect(jointAt('Jump', peak, 'hips')[1]).toBeGreaterThan(rest + 0.2);
    for (const side of ['left', 'right']) expect(jointAt('Jump', peak, `${side}Foot`)[1]).toBeGreaterThan(0.25);
    expect(jointAt('Jump', 0.3, 'leftFoot')[1]).toBeCloseTo(0.08, 3);
    expect(jointAt('Jump', 1, 'hips')[1]).toBeCloseTo(rest, 3);
    expect(LOCOMOTION_SPECS.Jump.loop).toBe(false);
  });

  it('breathes in the idle with the feet on the ground', () => {
    for (const t of [0, 0.7, 1.5, 2.2]) {
      expect(jointAt('Idle', t, 'leftFoot')[1]).toBeCloseTo(0.08, 3);
      expect(jointAt('Idle', t, 'rightFoot')[1]).toBeCloseTo(0.08, 3);
    }
    expect(jointAt('Idle', 1.5, 'neck')[1]).not.toBeCloseTo(jointAt('Idle', 0, 'neck')[1], 4);
  });
});
