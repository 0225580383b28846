import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { ViewAvatar } from '../../../src/view/view-avatar.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { avatarAsset, expression, lookAtAsset } from '../avatar/avatar-fixtures.ts';

describe('ViewAvatar (ModelView.avatar)', () => {
  it('sets expressions, the look-at target (world → model) and auto-blink on the shown avatar, asking for a frame each time', async () => {
    const tube = await parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 2 }).glb());
    const head = Array.from(tube.skeleton.sourceIndices).indexOf(1);
    const model = new AnimatedModel({ ...tube, avatar: avatarAsset([expression('happy'), expression('blink')], { head }, lookAtAsset('bone')) });
    model.world.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -5, 1]);
    let redraws = 0, shown: AnimatedModel | null = model;
    const view = new ViewAvatar(() => shown, () => redraws++);
    expect(view.present).toBe(true);
    expect(view.availableExpressions).toEqual(['happy', 'blink']);
    view.setExpression('happy', 0.4);
    expect(view.getExpression('happy')).toBeCloseTo(0.4, 6);
    expect(() => view.setExpression('sad', 1)).toThrow(/no expression "sad"/);
    view.setLookAtTarget([1, 2, 3]);
    expect(Array.from(model.avatar!.lookAt!.target)).toEqual([1, 2, 8]);
    expect(model.avatar!.lookAt!.mode).toBe('point');
    view.setLookAtTarget(null);
    expect(model.avatar!.lookAt!.mode).toBe('none');
    view.setAutoBlink(true);
    view.tick(0.5);
    view.tick(0.25);
    expect(model.avatar!.autoBlink).toBe(true);
    expect(model.avatar!.clock[0]).toBe(0.75);
    expect(redraws).toBe(4);
    shown = null;
    expect(view.availableExpressions).toEqual([]);
    expect(() => view.getExpression('happy')).toThrow(/not an avatar/);
    view.setLookAtTarget([0, 0, 0]);
    expect(redraws).toBe(4);
  });
});
