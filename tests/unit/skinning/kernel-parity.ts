/**
 * Shared by the SkinningKernel parity tests (skinning-kernel.test.ts: LBS; skinning-kernel-dqs.test.ts: DQS):
 * the reference outputs, the error measure, and the meshes and palettes both run on.
 */
import { expect } from 'vitest';
import { mat4 } from 'gl-matrix';
import { influenceCountOf, type ModelAsset, type PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { computeModelOrigin } from '../../../src/scene/model-origin.ts';
import { copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { SkinningKernel } from '../../../src/skinning/skinning-kernel.ts';
import { WEIGHT_POLICIES, type SkinningMethod, type SkinningMode } from '../../../src/skinning/skinning-method.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';

/**
 * The SIMD kernel rounds every product and sum to float32 where the reference `skinVertices` computes each
 * vertex in doubles and rounds once, so a coordinate may differ by a few float32 ulps of what is summed into
 * it. Bound: 2⁻¹⁸ (≈ 3.8e-6, 32 ulps at 1) of the scale — for a position the mesh's extent (the largest
 * |coordinate| of the reference output, at least 1), for a unit normal or tangent 1. Far below a pixel; a
 * wrong term (a swapped joint, a dropped slot, a wrong weight) is off by the size of a term.
 */
export const BOUND = 2 ** -18;

/** What both backends and the reference wrote for one primitive, one pose, one method. */
export interface Outputs {
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly tangents: Float32Array | null;
}

/** The reference: `skinVertices` into fresh arrays. */
export function reference(primitive: PrimitiveAsset, palette: Float32Array, context: SkinningContext, method: SkinningMethod): Outputs {
  const n = primitive.vertexCount;
  const out = { positions: new Float32Array(3 * n), normals: new Float32Array(3 * n), tangents: primitive.tangents ? new Float32Array(4 * n) : null };
  skinVertices(out.positions, out.normals, primitive, palette, context, method, out.tangents);
  return out;
}

/** The worst difference of `a` from the reference `b`, relative to the bound's scale (positions: extent). */
export function worstError(a: Outputs, b: Outputs): number {
  let extent = 1;
  for (let i = 0; i < b.positions.length; i++) extent = Math.max(extent, Math.abs(b.positions[i]));
  let worst = 0;
  for (let i = 0; i < b.positions.length; i++) worst = Math.max(worst, Math.abs(a.positions[i] - b.positions[i]) / extent);
  for (let i = 0; i < b.normals.length; i++) worst = Math.max(worst, Math.abs(a.normals[i] - b.normals[i]));
  if (b.tangents) for (let i = 0; i < b.tangents.length; i++) worst = Math.max(worst, Math.abs(a.tangents![i] - b.tangents[i]));
  return Number.isNaN(worst) ? Infinity : worst;
}

/**
 * A copy of `primitive` whose weights make the policies differ (every 7th vertex's weights × 0.7, every 11th
 * vertex's all 0, every 13th vertex's × 1.5) and with tangents (perpendicular to the normal, w = ±1) when it has
 * none, so every output is exercised.
 */
export function variedCopy(primitive: PrimitiveAsset): PrimitiveAsset {
  const c = influenceCountOf(primitive), n = primitive.vertexCount;
  const weights = primitive.weights!.slice(0, c * n);
  for (let v = 0; v < n; v++) {
    const scale = v % 11 === 0 ? 0 : v % 7 === 0 ? 0.7 : v % 13 === 0 ? 1.5 : 1;
    for (let k = 0; k < c; k++) weights[c * v + k] *= scale;
  }
  let tangents = primitive.tangents ?? null;
  if (!tangents) {
    tangents = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) {
      const [x, y, z] = primitive.normals.subarray(3 * v, 3 * v + 3);
      // n × (1, 0, 0) or, for a normal near x, n × (0, 1, 0).
      const [tx, ty, tz] = Math.abs(x) < 0.9 ? [0, z, -y] : [-z, 0, x];
      const len = Math.hypot(tx, ty, tz) || 1;
      tangents.set([tx / len, ty / len, tz / len, v % 2 ? 1 : -1], 4 * v);
    }
  }
  return { ...primitive, weights, tangents };
}

/** Every skinned primitive of `asset` with its skin index. */
export function skinnedPrimitives(asset: ModelAsset): Array<{ primitive: PrimitiveAsset; skin: number }> {
  return asset.meshInstances.filter((m) => m.skin >= 0)
    .flatMap((m) => asset.meshes[m.mesh].primitives.filter((p) => p.joints && p.weights).map((primitive) => ({ primitive, skin: m.skin })));
}

/**
 * Both backends against the reference on `asset`'s skinned primitives (as loaded, and varied), the rest pose and
 * every clip at three times, every weight policy, skinning by `mode`: the worst error of the SIMD backend. The
 * portable backend must be the reference exactly.
 */
export function compareOnModel(asset: ModelAsset, mode: SkinningMode): number {
  const origin = computeModelOrigin(asset);
  const pose = new PoseKernel(asset.skeleton, asset.skins, origin);
  const poses = [-1, ...asset.clips.keys()].flatMap((c) => (c < 0 ? [[c, 0]] : [0.1, 0.5, 0.9].map((f) => [c, f * asset.clips[c].duration])));
  const primitives = skinnedPrimitives(asset).flatMap(({ primitive, skin }) => [primitive, variedCopy(primitive)].map((p) => {
    const context = new SkinningContext(asset.skins[skin], origin);
    return { primitive: p, skin, context, simd: new SkinningKernel(p, context), portable: new SkinningKernel(p, context, { backend: 'js' }) };
  }));
  expect(primitives.length).toBeGreaterThan(0);
  let worst = 0;
  for (const [c, time] of poses) {
    copyLocalPose(pose.pose, asset.restPose);
    if (c >= 0) sampleClipOnce(pose.pose, asset.clips[c], time);
    pose.update();
    for (const { primitive, skin, context, simd, portable } of primitives) {
      expect(simd.backend).toBe('wasm-simd');
      expect(portable.backend).toBe('js');
      const palette = pose.skinMatrices[skin];
      for (const weights of WEIGHT_POLICIES) {
        const method: SkinningMethod = { skinning: mode, weights };
        const expected = reference(primitive, palette, context, method);
        simd.skin(palette, method);
        portable.skin(palette, method);
        worst = Math.max(worst, worstError(simd, expected));
        expect(worstError(portable, expected)).toBe(0);
      }
    }
  }
  return worst;
}

/** One vertex of c slots, p₀ = (1, 2, 3), n₀ = (0, 0, 1), t₀ = (1, 0, 0, −1). */
export function oneVertex(c: number, joints: number[], weights: number[]): PrimitiveAsset {
  return {
    vertexCount: 1, positions: Float32Array.of(1, 2, 3), normals: Float32Array.of(0, 0, 1), tangents: Float32Array.of(1, 0, 0, -1),
    uvs: null, influenceCount: c, joints: Uint8Array.from(joints), weights: Float32Array.from(weights), indices: Uint16Array.of(0), material: 0,
  };
}

/** Joint k: rotation by 0.3·k about z, then translation (k, 2k, 0); column-major. */
export function rotations(m: number): Float32Array {
  const out = new Float32Array(16 * m);
  for (let k = 0; k < m; k++) {
    const r = mat4.fromZRotation(mat4.create(), 0.3 * k);
    out.set(mat4.multiply(mat4.create(), mat4.fromTranslation(mat4.create(), [k, 2 * k, 0]), r), 16 * k);
  }
  return out;
}
