import { beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { ColliderOverlay } from '../../../src/view/collider-overlay.ts';
import type { FrameStage } from '../../../src/view/view-frame.ts';
import { ViewSprings } from '../../../src/view/view-springs.ts';
import { windVector } from '../../../src/viewer/viewer-springs-panel.ts';

// view.springs on the generated avatar (springs, colliders) and on nothing: each setter reaches the model's
// SecondaryMotion and asks for a frame; the colliders' stage is added once.

let avatar: AnimatedModel;
beforeAll(async () => {
  const none = async (): Promise<never> => { throw new Error('no companion files'); };
  avatar = new AnimatedModel(await loadModel({ name: 'avatar.vrm', bytes: await buildAvatarVrm1({ texture: false }) }, none));
});

function springsOf(model: AnimatedModel | null): { springs: ViewSprings; redraws: () => number; stages: FrameStage[] } {
  let redraws = 0;
  const stages: FrameStage[] = [];
  const springs = new ViewSprings(() => model, () => { redraws++; }, (stage) => { stages.push(stage); return () => {}; });
  return { springs, redraws: () => redraws, stages };
}

describe('ViewSprings', () => {
  it('switches, blows and resets the shown model\'s secondary motion, each change drawn', () => {
    const { springs, redraws } = springsOf(avatar);
    const motion = avatar.secondaryMotion!;
    expect(springs.present).toBe(true);
    springs.setEnabled(false);
    expect(motion.springs!.enabled).toBe(false);
    expect(motion.enabled).toBe(true); // the node constraints still run
    expect(springs.enabled).toBe(false);
    springs.setEnabled(true);
    springs.setWind([1, 0, -2]);
    expect([...motion.external]).toEqual([1, 0, -2]);
    expect(springs.wind).toEqual([1, 0, -2]);
    expect(() => springs.setWind([NaN, 0, 0])).toThrow(RangeError);
    expect([...motion.external]).toEqual([1, 0, -2]);
    springs.reset();
    expect(redraws()).toBe(4);
    springs.setWind([0, 0, 0]);
  });

  it('adds the colliders\' stage once, shown and hidden by the switch', () => {
    const { springs, stages } = springsOf(avatar);
    expect(springs.showColliders).toBe(false);
    springs.setShowColliders(true);
    springs.setShowColliders(false);
    springs.setShowColliders(true);
    expect(stages).toHaveLength(1);
    expect(stages[0]).toBeInstanceOf(ColliderOverlay);
    expect((stages[0] as ColliderOverlay).visible).toBe(true);
    expect(springs.showColliders).toBe(true);
  });

  it('does nothing without a model', () => {
    const { springs } = springsOf(null);
    expect(springs.present).toBe(false);
    expect(springs.enabled).toBe(false);
    springs.setEnabled(false);
    springs.setWind([1, 2, 3]);
    springs.reset();
    expect(springs.wind).toEqual([0, 0, 0]);
  });
});

describe('windVector', () => {
  it('is strength along the direction about +Y from +Z, horizontal', () => {
    expect(windVector(2, 0)).toEqual([0, 0, 2]);
    expect(windVector(2, 90)).toEqual([2, 0, 0]);
    const v = windVector(3, 225);
    expect(v[0]).toBeCloseTo(-3 / Math.SQRT2, 12);
    expect(v[2]).toBeCloseTo(-3 / Math.SQRT2, 12);
    expect(v[1]).toBe(0);
  });
});
