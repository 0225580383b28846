import { describe, expect, it } from 'vitest';
import type { ExpressionAsset } from '../../../src/asset/avatar-asset.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { AUTO_BLINK_DURATION, AUTO_BLINK_PERIOD, autoBlinkWeight, blinkOffset } from '../../../src/avatar/auto-blink.ts';
import { firstPersonVisibility } from '../../../src/avatar/first-person.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { avatarAsset, expression } from './avatar-fixtures.ts';

async function tube(expressions: (offset: number) => ExpressionAsset[]): Promise<ModelAsset> {
  const asset = await parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 3 }).glb());
  const offset = asset.meshInstances[0].morphWeightOffset!;
  return { ...asset, avatar: avatarAsset(expressions(offset), { head: asset.skeleton.jointCount - 1 }) };
}

/** Skinned positions of instance 0, primitive 0 in the model's last evaluated pose (the CPU reference path). */
function skinnedPositions(model: AnimatedModel): Float32Array {
  const asset = model.asset, instance = asset.meshInstances[0];
  const primitive = new MorphedPrimitive(asset.meshes[instance.mesh].primitives[0]).apply(model.morphWeights, instance.morphWeightOffset!);
  const out = new Float32Array(3 * primitive.vertexCount);
  skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin]);
  return out;
}

describe('an avatar model (AnimatedModel.avatar)', () => {
  it('CPU skinned vertices with an expression active differ from rest exactly by the weighted morph deltas', async () => {
    const asset = await tube((o) => [
      expression('happy', { morphTargetBinds: [{ morphWeight: o + 1, weight: 0.5 }] }),
      expression('aa', { morphTargetBinds: [{ morphWeight: o + 2, weight: 1 }, { morphWeight: o + 1, weight: 0.25 }] }),
    ]);
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(-1));
    const rest = skinnedPositions(model).slice();
    const restWeights = model.morphWeights.slice();
    model.avatar!.setExpression('happy', 0.8);
    model.avatar!.setExpression('aa', 0.4);
    model.evaluate(model.clipSample(-1));
    const o = asset.meshInstances[0].morphWeightOffset!;
    const added = [0, 0.8 * 0.5 + 0.4 * 0.25, 0.4];
    added.forEach((a, t) => expect(model.morphWeights[o + t]).toBeCloseTo(restWeights[o + t] + a, 6));
    // In the rest pose the tube's skinning matrices are the identity, so each vertex moves by Σ added_t · δ_t.
    for (const k of model.skinMatrices[0]) expect([0, 1]).toContainEqual(Math.round(k * 1e6) / 1e6);
    const moved = skinnedPositions(model);
    const deltas = asset.meshes[asset.meshInstances[0].mesh].primitives[0].morphTargets!.positions!;
    const n = moved.length; // 3 · vertexCount: target t's deltas at t·n (target-major)
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const expected = rest[i] + added[1] * deltas[n + i] + added[2] * deltas[2 * n + i];
      worst = Math.max(worst, Math.abs(moved[i] - expected));
    }
    expect(worst).toBeLessThan(1e-6);
    // Back to 0: back to rest, bit for bit (the source rewrites the weights every evaluate).
    model.avatar!.expressions.reset();
    model.evaluate(model.clipSample(-1));
    expect(Array.from(skinnedPositions(model))).toEqual(Array.from(rest));
  });

  it('a clip\'s expression tracks drive the weights, from a ClipSample and from the animator', async () => {
    const base = await tube((o) => [expression('happy', { morphTargetBinds: [{ morphWeight: o + 1, weight: 1 }] })]);
    const plain = new AnimatedModel({ ...base, avatar: undefined });
    plain.evaluate(plain.clipSample(0).at(1));
    const clipWeight = plain.morphWeights[base.meshInstances[0].morphWeightOffset! + 1];
    const clips = base.clips.map((clip, i) => i === 0 ? {
      ...clip, expressionTracks: [
        { expression: 'happy', interpolation: 'LINEAR' as const, times: Float32Array.of(0, 2), values: Float32Array.of(0, 1) },
        { expression: 'notOnThisAvatar', interpolation: 'STEP' as const, times: Float32Array.of(0), values: Float32Array.of(1) },
      ],
    } : clip);
    const model = new AnimatedModel({ ...base, clips });
    const o = base.meshInstances[0].morphWeightOffset!;
    model.evaluate(model.clipSample(0).at(1));
    expect(model.avatar!.getExpression('happy')).toBeCloseTo(0.5, 6);
    expect(model.morphWeights[o + 1]).toBeCloseTo(clipWeight + 0.5, 6);
    model.evaluate(model.clipSample(0).at(3)); // past the last key: the last value
    expect(model.avatar!.getExpression('happy')).toBe(1);
    // The same avatar on a model rebuilt with the clip (ModelView.addClips) keeps what was set.
    const copy = new AnimatedModel({ ...base, clips });
    copy.avatar!.copyFrom(model.avatar!);
    expect(copy.avatar!.getExpression('happy')).toBe(1);
    model.avatar!.setExpression('happy', 0);
    model.animator.play(model.clips[0]);
    model.animator.update(0.5);
    model.evaluate(model.animator);
    expect(model.avatar!.getExpression('happy')).toBeCloseTo(0.25, 6);
  });

  it('auto-blink: one blink of 0.3 s per 4 s period, at a fixed offset, closing then opening', async () => {
    for (let k = 0; k < 5; k++) {
      const start = k * AUTO_BLINK_PERIOD + blinkOffset(k);
      expect(blinkOffset(k)).toBeGreaterThanOrEqual(0);
      expect(blinkOffset(k)).toBeLessThan(AUTO_BLINK_PERIOD - AUTO_BLINK_DURATION);
      expect(autoBlinkWeight(start + AUTO_BLINK_DURATION / 2)).toBeCloseTo(1, 12);
      expect(autoBlinkWeight(start + AUTO_BLINK_DURATION / 4)).toBeCloseTo(Math.SQRT1_2, 12);
      expect(autoBlinkWeight(start - 0.01)).toBe(0);
      expect(autoBlinkWeight(start + AUTO_BLINK_DURATION + 0.01)).toBe(0);
    }
    expect(new Set([0, 1, 2, 3].map(blinkOffset)).size).toBe(4);
    const asset = await tube((o) => [expression('blink', { morphTargetBinds: [{ morphWeight: o, weight: 1 }] })]);
    const model = new AnimatedModel(asset);
    const start = blinkOffset(0) + AUTO_BLINK_DURATION / 2;
    model.avatar!.clock[0] = start;
    model.evaluate(model.clipSample(-1));
    expect(model.avatar!.getExpression('blink')).toBe(0); // off by default
    model.avatar!.autoBlink = true;
    model.evaluate(model.clipSample(-1));
    expect(model.avatar!.getExpression('blink')).toBeCloseTo(1, 6);
  });

  it('first person hides thirdPersonOnly meshes and auto meshes mostly on the head', async () => {
    const asset = await parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 1 }).glb());
    const instance = asset.meshInstances[0];
    const jointOf = (node: number): number => Array.from(asset.skeleton.sourceIndices).indexOf(node);
    const withAvatar = (head: number, annotations: { node: number; type: 'auto' | 'both' | 'thirdPersonOnly' | 'firstPersonOnly' }[]) =>
      firstPersonVisibility({ ...asset, avatar: avatarAsset([], { head }, null, annotations) });
    // The tube's weight is split evenly (heights 0…2 by 0.4, upper joint weight clamp(y − 0.5, 0, 1): 3 of 6 rings' worth).
    expect(withAvatar(jointOf(2), []).hiddenInFirstPerson).toEqual([]); // half on the head: not "mostly"
    expect(withAvatar(jointOf(1), []).hiddenInFirstPerson).toEqual([0]); // all under the head
    expect(withAvatar(jointOf(2), [{ node: instance.node, type: 'thirdPersonOnly' }])).toEqual({ types: ['thirdPersonOnly'], hiddenInFirstPerson: [0], hiddenInThirdPerson: [] });
    expect(withAvatar(jointOf(1), [{ node: instance.node, type: 'both' }]).hiddenInFirstPerson).toEqual([]);
    expect(withAvatar(jointOf(1), [{ node: instance.node, type: 'firstPersonOnly' }]).hiddenInThirdPerson).toEqual([0]);
    expect(firstPersonVisibility(asset).hiddenInFirstPerson).toEqual([]);
  });
});
