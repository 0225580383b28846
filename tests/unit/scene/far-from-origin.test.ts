import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { computeModelOrigin, FAR_FROM_ORIGIN } from '../../../src/scene/model-origin.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import { computeSkinMatrices } from '../../../src/skinning/skin-matrices.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { WEIGHT_POLICIES } from '../../../src/skinning/skinning-method.ts';
import { SKINNING_MODES, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { createBendingBox } from '../../browser/helpers/bending-box.ts';
import { atOffset, FAR_OFFSET } from '../../browser/helpers/far-offset.ts';

/** Sub-millimetre steps: the child joint slides 0.3 mm per key along y (and turns a little), 11 keys. */
const STEP = 0.0003, KEYS = 11;

/** The bending box with a clip "creep": joint 1 (child, at y = 1) moves by {@link STEP} per 0.1 s. */
function creepingBox(): ModelAsset {
  const box = createBendingBox();
  const times = new Float32Array(KEYS), values = new Float32Array(3 * KEYS), rotations = new Float32Array(4 * KEYS);
  for (let k = 0; k < KEYS; k++) {
    times[k] = k / 10;
    values.set([0, 1 + k * STEP, 0], 3 * k);
    const a = k * 1e-4; // 0.1 mrad per key about z: a 1 m arm moves 0.1 mm
    rotations.set([0, 0, Math.sin(a / 2), Math.cos(a / 2)], 4 * k);
  }
  return {
    ...box,
    clips: [{
      name: 'creep', duration: 1, channels: [
        { joint: 1, path: 'translation', interpolation: 'LINEAR', times, values },
        { joint: 1, path: 'rotation', interpolation: 'LINEAR', times, values: rotations },
      ],
    }],
  };
}

/** Skinned positions of every skinned primitive relative to the model's origin (float32), concatenated. */
function skinAll(animated: AnimatedModel, method: SkinningMethod, palettes = animated.skinMatrices, contexts = animated.skinningContexts): Float32Array[] {
  const asset = animated.asset, out: Float32Array[] = [];
  for (const instance of asset.meshInstances) {
    for (const primitive of asset.meshes[instance.mesh].primitives) {
      const positions = new Float32Array(3 * primitive.vertexCount);
      skinVertices(positions, null, primitive, palettes[instance.skin], contexts[instance.skin], method);
      out.push(positions);
    }
  }
  return out;
}

/** Per primitive of `asset`'s skinned instances (as {@link skinAll}), whether vertex v has any weight. */
function weightedVertices(asset: ModelAsset): boolean[][] {
  const out: boolean[][] = [];
  for (const instance of asset.meshInstances) {
    for (const primitive of asset.meshes[instance.mesh].primitives) {
      const c = primitive.influenceCount ?? 4, w = primitive.weights!;
      out.push(Array.from({ length: primitive.vertexCount }, (_, v) => w.subarray(c * v, c * v + c).some((x) => x !== 0)));
    }
  }
  return out;
}

/**
 * Largest |(O_far + p_far) − offset − p_near| over components of weighted vertices, in f64 (model units). A
 * vertex without weights stays where the file puts it (near the world origin), so it does not move with the
 * offset; {@link unweightedStayInFileSpace} checks those.
 */
function maxDeviation(far: Float32Array[], farOrigin: ArrayLike<number>, near: Float32Array[], offset: readonly number[], weighted: boolean[][]): number {
  let max = 0;
  far.forEach((f, i) => {
    for (let v = 0; v < f.length; v++) {
      if (!weighted[i][Math.floor(v / 3)]) continue;
      const k = v % 3;
      const d = Math.abs(farOrigin[k] - offset[k] + f[v] - near[i][v]);
      if (!(d <= max)) max = Number.isNaN(d) ? Infinity : d;
    }
  });
  return max;
}

describe('a model 10 km from the origin (pose buffers relative to the model origin)', () => {
  const nearAsset = creepingBox(), farAsset = atOffset(creepingBox(), FAR_OFFSET);
  const weighted = weightedVertices(nearAsset);

  it('has its origin at its joints\' centre when far, at (0, 0, 0) when near', () => {
    expect([...computeModelOrigin(nearAsset)]).toEqual([0, 0, 0]);
    expect([...computeModelOrigin(farAsset)]).toEqual([10_000, 0.5, 10_000]); // joints at y = 0 and 1
    expect(FAR_FROM_ORIGIN).toBeGreaterThan(2);
  });

  for (const skinning of SKINNING_MODES) {
    it(`${skinning}: CPU positions relative to the origin equal those at the origin to ≤ 1e-6 m at every sub-millimetre step`, () => {
      const method: SkinningMethod = { skinning, weights: 'normalize' };
      const near = new AnimatedModel(nearAsset), far = new AnimatedModel(farAsset);
      let worst = 0, worstBefore = 0;
      let previousNear: Float32Array[] | null = null, previousFar: Float32Array[] | null = null;
      for (let k = 0; k < KEYS; k++) {
        const t = k / 10;
        near.evaluate(near.clipSample(0).at(t));
        far.evaluate(far.clipSample(0).at(t));
        const n = skinAll(near, method), f = skinAll(far, method);
        worst = Math.max(worst, maxDeviation(f, far.origin, n, FAR_OFFSET, weighted));
        // Before: the same pose composed relative to model space's origin (float32 translations ≈ 1e4).
        const model = localToModel(new Float32Array(16 * farAsset.skeleton.jointCount), farAsset.skeleton, far.pose);
        const palettes = farAsset.skins.map((skin, s) => computeSkinMatrices(new Float32Array(16 * skin.joints.length), model, skin, far.skinningContexts[s]));
        // (a context without the origin: the palettes are not relative to it)
        const before = farAsset.skins.map((skin) => new SkinningContext(skin));
        worstBefore = Math.max(worstBefore, maxDeviation(skinAll(far, method, palettes, before), [0, 0, 0], n, FAR_OFFSET, weighted));
        // Each sub-millimetre step itself is reproduced: the motion between keys agrees to ≤ 1e-6 m.
        if (previousNear && previousFar) {
          f.forEach((positions, i) => {
            for (let v = 0; v < positions.length; v++) {
              if (!weighted[i][Math.floor(v / 3)]) continue;
              const stepFar = positions[v] - previousFar![i][v], stepNear = n[i][v] - previousNear![i][v];
              expect(Math.abs(stepFar - stepNear)).toBeLessThanOrEqual(1e-6);
            }
          });
        }
        previousNear = n; previousFar = f;
      }
      console.log(`${skinning}: max deviation at 10 km ${worst.toExponential(2)} m (relative to world origin before: ${worstBefore.toExponential(2)} m)`);
      expect(worst).toBeLessThanOrEqual(1e-6);
      expect(worstBefore).toBeGreaterThan(1e-4); // what the origin fixes: float32 spacing at 1e4 m is ≈ 1 mm
    });
  }

  it('sinew eval reports the file\'s space: origin added back in f64', () => {
    for (let k = 0; k < KEYS; k++) {
      const near = evaluateModel(nearAsset, 0, k / 10), far = evaluateModel(farAsset, 0, k / 10);
      far.primitives.forEach((primitive, i) => {
        primitive.positions.forEach((value, v) => {
          if (!weighted[i][Math.floor(v / 3)]) return;
          expect(Math.abs(value - FAR_OFFSET[v % 3] - near.primitives[i].positions[v])).toBeLessThanOrEqual(1e-6);
        });
      });
    }
  });

  it('bounds are in model space (origin added back)', () => {
    // The first primitive only: the second has a vertex without weights, which stays near the world origin.
    const firstOnly = (a: ModelAsset): ModelAsset => ({ ...a, meshes: [{ ...a.meshes[0], primitives: [a.meshes[0].primitives[0]] }] });
    const near = computeModelBounds(firstOnly(nearAsset), new AnimatedModel(firstOnly(nearAsset)));
    const far = computeModelBounds(firstOnly(farAsset), new AnimatedModel(firstOnly(farAsset)));
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(far.min[k] - FAR_OFFSET[k] - near.min[k])).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(far.max[k] - FAR_OFFSET[k] - near.max[k])).toBeLessThanOrEqual(1e-6);
    }
  });

  it('every skinning mode × weight policy: the same vertices as composing in model space, to float32 spacing at 1e4 m', () => {
    // What stays at rest (no weight; the rest share under as-stored / rest-remainder) is placed by T(−O), so the
    // origin changes no formula: the file's-space result equals the one composed relative to model space's
    // origin (which carries ≈ 1e-3 m of float32 error at 1e4 m, hence the tolerance), also for vertices the file
    // leaves near the world origin.
    for (const skinning of SKINNING_MODES) for (const weights of WEIGHT_POLICIES) {
      const method: SkinningMethod = { skinning, weights };
      const far = new AnimatedModel(farAsset);
      far.evaluate(far.clipSample(0).at(0.55));
      const relative = skinAll(far, method);
      const model = localToModel(new Float32Array(16 * farAsset.skeleton.jointCount), farAsset.skeleton, far.pose);
      const palettes = farAsset.skins.map((skin, s) => computeSkinMatrices(new Float32Array(16 * skin.joints.length), model, skin, far.skinningContexts[s]));
      const absolute = skinAll(far, method, palettes, farAsset.skins.map((skin) => new SkinningContext(skin)));
      let worst = 0;
      relative.forEach((r, i) => {
        for (let v = 0; v < r.length; v++) worst = Math.max(worst, Math.abs(far.origin[v % 3] + r[v] - absolute[i][v]));
      });
      expect(worst, `${skinning}/${weights}`).toBeLessThanOrEqual(3e-3);
    }
  });

  it('a model near the origin composes exactly as before (origin (0, 0, 0))', () => {
    const near = new AnimatedModel(nearAsset);
    near.evaluate(near.clipSample(0).at(0.7));
    const model = localToModel(new Float32Array(16 * nearAsset.skeleton.jointCount), nearAsset.skeleton, near.pose);
    expect(near.modelMatrices).toEqual(model);
  });
});
