import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { ModelPoint } from '../../../src/scene/model-point.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { createBendingBox } from '../../browser/helpers/bending-box.ts';
import { atOffset } from '../../browser/helpers/far-offset.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// ModelPoint (what hotspots follow) against independent computations: whole-mesh skinning then the blend,
// jointMatrix, the morph-target applier, and the geometry of normals.

const assets = sharedAssets();
const load = async (file: string): Promise<ModelAsset> => loadModelFromPath(join(assets!, 'gltf', file));

/** `Float64Array(16)`: a rotation about a slanted axis, a translation and (optionally) a non-uniform scale. */
function someWorld(scale: [number, number, number] = [1, 1, 1]): Float64Array {
  const m = mat4.create();
  mat4.fromRotation(m, 0.7, [0.3, 1, -0.2]);
  mat4.translate(m, m, [4, -2, 7]);
  mat4.scale(m, m, scale);
  return new Float64Array(m);
}

const apply = (m: ArrayLike<number>, p: ArrayLike<number>, w = 1): number[] => [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * w);
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** The three vertices of triangle t of the skinned primitive, in model space: the whole mesh skinned, O added. */
function skinnedTriangle(model: AnimatedModel, t: number, method?: SkinningMethod): { vertices: number[]; corners: number[][] } {
  const instance = model.asset.meshInstances[0];
  const primitive = model.asset.meshes[instance.mesh].primitives[0];
  const out = new Float32Array(3 * primitive.vertexCount);
  skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin], method);
  const vertices = [...primitive.indices.subarray(3 * t, 3 * t + 3)];
  return { vertices, corners: vertices.map((v) => [0, 1, 2].map((k) => out[3 * v + k] + model.origin[k])) };
}

describe.skipIf(!assets)('ModelPoint on Fox.glb', () => {
  it('a surface point is the blend of its triangle skinned with the whole mesh (LBS and DQS), then world', async () => {
    const model = new AnimatedModel(await load('Fox.glb'));
    model.evaluate(model.clipSample(2).at(0.37));
    model.world.set(someWorld());
    for (const method of [{ skinning: 'lbs', weights: 'normalize' }, { skinning: 'dqs', weights: 'normalize' }] as const) {
      for (const t of [0, 123, 575]) {
        const { vertices, corners: [a, b, c] } = skinnedTriangle(model, t, method);
        const point = new ModelPoint(model, { kind: 'surface', mesh: 0, primitive: 0, vertices: [vertices[0], vertices[1], vertices[2]], weights: [0.2, 0.3, 0.5] });
        point.place(method);
        // The same float32 vertices, blended in the same order: equal to the last bit.
        expect([...point.position]).toEqual([0, 1, 2].map((k) => 0.2 * a[k] + 0.3 * b[k] + 0.5 * c[k]));
        const world = apply(model.world, point.position);
        for (let k = 0; k < 3; k++) expect(point.worldPosition[k]).toBeCloseTo(world[k], 9);
        // The face normal: perpendicular to the edges, on the side of (C − B) × (A − B), unit length.
        expect(point.hasNormal).toBe(true);
        const n = point.normal;
        expect(Math.abs(dot(n, sub(b, a))) / Math.hypot(...sub(b, a))).toBeLessThan(1e-6);
        expect(Math.abs(dot(n, sub(c, a))) / Math.hypot(...sub(c, a))).toBeLessThan(1e-6);
        expect(dot(n, cross(sub(c, b), sub(a, b)))).toBeGreaterThan(0);
        expect(Math.hypot(n[0], n[1], n[2])).toBeCloseTo(1, 12);
      }
    }
  });

  it('a joint point is the joint\'s matrix (jointMatrix) times the offset; its normal turns with the joint', async () => {
    const model = new AnimatedModel(await load('Fox.glb'));
    model.evaluate(model.clipSample(1).at(0.8));
    model.world.set(someWorld());
    const point = new ModelPoint(model, { kind: 'joint', joint: 'b_Head_05', offset: [3, -4, 12], normal: [0, 0, 1] });
    point.place();
    const jointWorld = model.jointMatrix('b_Head_05', new Float64Array(16));
    const expected = apply(jointWorld, [3, -4, 12]);
    for (let k = 0; k < 3; k++) expect(point.worldPosition[k]).toBeCloseTo(expected[k], 6);
    const jointModel = new Float64Array(16);
    model.world.set(mat4.create());
    model.jointMatrix('b_Head_05', jointModel);
    const expectedModel = apply(jointModel, [3, -4, 12]);
    for (let k = 0; k < 3; k++) expect(point.position[k]).toBeCloseTo(expectedModel[k], 9);
    // A rigid joint frame (rotation, uniform scale): the normal is the frame's z axis, normalised.
    const z = apply(jointModel, [0, 0, 1], 0), length = Math.hypot(...z);
    for (let k = 0; k < 3; k++) expect(point.normal[k]).toBeCloseTo(z[k] / length, 6);
    // Without a normal: none (a joint hotspot then always faces the camera).
    const bare = new ModelPoint(model, { kind: 'joint', joint: 7, offset: [0, 0, 0], normal: null });
    bare.place();
    expect(bare.hasNormal).toBe(false);
    expect([...bare.worldNormal]).toEqual([0, 0, 0]);
  });

  it('a normal stays perpendicular to the surface under a non-uniformly scaled, mirrored world', async () => {
    const model = new AnimatedModel(await load('Fox.glb'));
    model.evaluate(model.clipSample(0).at(1.1));
    model.world.set(someWorld([1, 3, -0.5]));
    const { vertices, corners } = skinnedTriangle(model, 300);
    const point = new ModelPoint(model, { kind: 'surface', mesh: 0, primitive: 0, vertices: [vertices[0], vertices[1], vertices[2]], weights: [1, 0, 0] });
    point.place();
    const [a, b, c] = corners.map((p) => apply(model.world, p));
    const n = point.worldNormal;
    expect(Math.abs(dot(n, sub(b, a))) / Math.hypot(...sub(b, a))).toBeLessThan(1e-6);
    expect(Math.abs(dot(n, sub(c, a))) / Math.hypot(...sub(c, a))).toBeLessThan(1e-6);
    // On the same side as the model-space normal taken along (a point just off the surface stays off it).
    const off = apply(model.world, [0, 1, 2].map((k) => point.position[k] + 1e-3 * point.normal[k]));
    expect(dot(n, sub(off, point.worldPosition))).toBeGreaterThan(0);
  });

  it('names what does not exist: the joint, the mesh, the primitive, a vertex; a number that is not finite', async () => {
    const model = new AnimatedModel(await load('Fox.glb'));
    expect(() => new ModelPoint(model, { kind: 'joint', joint: 'b_Nose_99', offset: [0, 0, 0], normal: null })).toThrow(/Fox\.glb: no joint "b_Nose_99" \(26 joints/);
    const surface = (mesh: number, primitive: number, v: number) => new ModelPoint(model, { kind: 'surface', mesh, primitive, vertices: [0, 1, v], weights: [1, 0, 0] });
    expect(() => surface(1, 0, 2)).toThrow('Fox.glb: no mesh 1 (1 meshes)');
    expect(() => surface(0, 3, 2)).toThrow('Fox.glb: mesh 0 has no primitive 3 (1 primitives)');
    expect(() => surface(0, 0, 1728)).toThrow('Fox.glb: mesh 0 primitive 0 has no vertex 1728 (1728 vertices)');
    expect(() => new ModelPoint(model, { kind: 'position', position: [0, NaN, 0], normal: null })).toThrow(/not finite/);
  });
});

describe.skipIf(!assets)('ModelPoint on a rigid mesh with morph targets (SimpleMorph.gltf)', () => {
  it('applies the morph targets to the three vertices as MorphedPrimitive does to the whole mesh, then the node', async () => {
    const asset = await load('SimpleMorph.gltf');
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(0).at(1.5));
    expect([...model.morphWeights].some((w) => w !== 0)).toBe(true);
    const instance = asset.meshInstances[0];
    const morphed = new MorphedPrimitive(asset.meshes[0].primitives[0]).apply(model.morphWeights, instance.morphWeightOffset!);
    const m = model.modelMatrices.subarray(16 * instance.node, 16 * instance.node + 16);
    const corner = (v: number): number[] => apply(m, morphed.positions.subarray(3 * v, 3 * v + 3)).map((x, k) => Math.fround(x) + model.origin[k]);
    const point = new ModelPoint(model, { kind: 'surface', mesh: 0, primitive: 0, vertices: [0, 1, 2], weights: [0.6, 0.3, 0.1] });
    point.place();
    const [a, b, c] = [0, 1, 2].map(corner);
    for (let k = 0; k < 3; k++) expect(point.position[k]).toBeCloseTo(0.6 * a[k] + 0.3 * b[k] + 0.1 * c[k], 6);
    // The morph moved the point off its bind-pose place.
    const rest = new ModelPoint(new AnimatedModel(asset), point.spec);
    rest.place();
    expect(Math.hypot(...sub(point.position, rest.position))).toBeGreaterThan(0.05);
  });
});

describe('ModelPoint far from the origin', () => {
  it('adds the model origin back in f64: a surface point 10 km out keeps sub-millimetre steps', () => {
    const asset = atOffset(createBendingBox());
    const model = new AnimatedModel(asset);
    expect(Math.hypot(...model.origin)).toBeGreaterThan(1000);
    model.evaluate(model.clipSample(0).at(0.5));
    const { vertices, corners: [a, b, c] } = skinnedTriangle(model, 5);
    const point = new ModelPoint(model, { kind: 'surface', mesh: 0, primitive: 0, vertices: [vertices[0], vertices[1], vertices[2]], weights: [0.5, 0.25, 0.25] });
    point.place();
    expect([...point.position]).toEqual([0, 1, 2].map((k) => 0.5 * a[k] + 0.25 * b[k] + 0.25 * c[k]));
  });
});
