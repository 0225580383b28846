/**
 * The brute-force reference of `pickModel` (src/scene/pick-model.ts), kept in the tests: it poses EVERY vertex of
 * every primitive (CPU reference skinning) and tests EVERY triangle, nearest hit first in (instance, primitive,
 * triangle) order. `pickModel` must return the same triangle, distance and point (pick-model.test.ts).
 */
import { mat4 } from 'gl-matrix';
import { influenceCountOf, type PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import type { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { createRay, type Ray, type SurfaceHit } from '../../../src/scene/pick-model.ts';

/**
 * Caller-owned scratch of {@link pickModel} for one model: per mesh instance and primitive, buffers for its
 * posed vertices (and its morphed copy when it has morph targets). Allocated once per model.
 */
export class ReferencePickContext {
  /** Per mesh instance, per primitive: `Float32Array(3·vertexCount)` posed positions, relative to the model origin. */
  readonly positions: Float32Array[][];
  /** The same for normals. */
  readonly normals: Float32Array[][];
  /** Per mesh instance, per primitive: its morph-target applier, or null. */
  readonly morphs: (MorphedPrimitive | null)[][];
  /** `Float64Array(3)`: the barycentric weights of the last triangle tested. */
  readonly uvw = new Float64Array(3);
  /** `Float64Array(16)`: world⁻¹ of the last pick. */
  readonly inverseWorld = new Float64Array(16);
  /** The last pick's ray in pose space (model space − O). */
  readonly poseRay: Ray = createRay();

  constructor(readonly model: AnimatedModel) {
    const { asset } = model;
    this.positions = asset.meshInstances.map((i) => asset.meshes[i.mesh].primitives.map((p) => new Float32Array(3 * p.vertexCount)));
    this.normals = asset.meshInstances.map((i) => asset.meshes[i.mesh].primitives.map((p) => new Float32Array(3 * p.vertexCount)));
    this.morphs = asset.meshInstances.map((i) =>
      asset.meshes[i.mesh].primitives.map((p) => (p.morphTargets && (i.morphWeightOffset ?? -1) >= 0 ? new MorphedPrimitive(p) : null)));
  }
}

/**
 * The nearest point where `ray` (world space) meets the model's triangles as posed by its last `evaluate`:
 * skinned primitives by the CPU reference path (`skinVertices`, the same arithmetic as the GPU's, under
 * `method`), rigid ones by their node's model-space matrix, morph targets first (docs/explanation/skinning-formulas.md M0,
 * S0), then `AnimatedModel.world`. Both faces of a triangle count (Möller–Trumbore, "Fast, Minimum Storage
 * Ray/Triangle Intersection", 1997).
 * @param hit written when something is hit
 * @returns `hit`, or null when the ray misses the model
 * @throws Error when `context` was made for another model
 */
export function pickModelReference(model: AnimatedModel, ray: Ray, hit: SurfaceHit, context: ReferencePickContext, method: SkinningMethod = DEFAULT_SKINNING_METHOD): SurfaceHit | null {
  if (context.model !== model) throw new Error(`pickModelReference: the context was made for ${context.model.asset.name}, not ${model.asset.name}`);
  const { asset } = model;
  // The ray in the frame of the pose buffers (model space − O): world⁻¹ then −O.
  const local = toPoseSpace(model, ray, context);
  let best = Infinity;
  for (let i = 0; i < asset.meshInstances.length; i++) {
    const instance = asset.meshInstances[i];
    const primitives = asset.meshes[instance.mesh].primitives;
    for (let p = 0; p < primitives.length; p++) {
      const primitive = posedPrimitive(model, context, i, p, method);
      const positions = context.positions[i][p];
      const indices = primitive.indices;
      for (let t = 0; t + 2 < indices.length; t += 3) {
        const d = intersectTriangle(local, positions, indices[t], indices[t + 1], indices[t + 2], context.uvw);
        if (d < best) {
          best = d;
          hit.distance = d;
          hit.meshInstance = i; hit.mesh = instance.mesh; hit.primitive = primitive.sourceIndex ?? p; hit.triangle = t / 3;
          hit.vertexIndices[0] = indices[t]; hit.vertexIndices[1] = indices[t + 1]; hit.vertexIndices[2] = indices[t + 2];
          hit.barycentric[0] = context.uvw[0]; hit.barycentric[1] = context.uvw[1]; hit.barycentric[2] = context.uvw[2];
        }
      }
    }
  }
  if (best === Infinity) return null;
  finishHit(model, ray, hit, context);
  return hit;
}

/** Writes `context.poseRay`: `ray` taken by world⁻¹ into model space, then by −O into the pose buffers' frame. */
function toPoseSpace(model: AnimatedModel, ray: Ray, context: ReferencePickContext): Ray {
  const inv = context.inverseWorld;
  if (!mat4.invert(inv as unknown as mat4, model.world as unknown as mat4)) throw new Error(`${model.asset.name}: its world matrix is singular`);
  const { origin: o, direction: d } = ray;
  const out = context.poseRay, po = out.origin, pd = out.direction, O = model.origin;
  for (let a = 0; a < 3; a++) {
    po[a] = inv[a] * o[0] + inv[4 + a] * o[1] + inv[8 + a] * o[2] + inv[12 + a] - O[a];
    pd[a] = inv[a] * d[0] + inv[4 + a] * d[1] + inv[8 + a] * d[2];
  }
  return out;
}

/** Poses every vertex of instance i's primitive p into the context's buffers; returns the primitive (morphed). */
function posedPrimitive(model: AnimatedModel, context: ReferencePickContext, i: number, p: number, method: SkinningMethod): PrimitiveAsset {
  const instance = model.asset.meshInstances[i];
  const source = model.asset.meshes[instance.mesh].primitives[p];
  const morph = context.morphs[i][p];
  const primitive = morph ? morph.apply(model.morphWeights, instance.morphWeightOffset!) : source;
  const positions = context.positions[i][p], normals = context.normals[i][p];
  if (instance.skin >= 0 && primitive.joints) {
    skinVertices(positions, normals, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin], method);
  } else {
    const m = model.modelMatrices, o = 16 * instance.node, src = primitive.positions, n = primitive.normals;
    for (let v = 0; v < 3 * primitive.vertexCount; v += 3) {
      const x = src[v], y = src[v + 1], z = src[v + 2];
      positions[v] = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
      positions[v + 1] = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
      positions[v + 2] = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
      // Directions by the matrix's 3×3; finishHit normalises (non-uniform scale is rare on rigid props).
      const nx = n[v], ny = n[v + 1], nz = n[v + 2];
      normals[v] = m[o] * nx + m[o + 4] * ny + m[o + 8] * nz;
      normals[v + 1] = m[o + 1] * nx + m[o + 5] * ny + m[o + 9] * nz;
      normals[v + 2] = m[o + 2] * nx + m[o + 6] * ny + m[o + 10] * nz;
    }
  }
  return primitive;
}

/**
 * Möller–Trumbore: the ray parameter t ≥ 0 where `ray` meets triangle (a, b, c) of `positions` (either face),
 * or Infinity; writes the barycentric weights of a, b, c into `uvw`.
 */
function intersectTriangle(ray: Ray, positions: Float32Array, a: number, b: number, c: number, uvw: Float64Array): number {
  const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
  const e1x = positions[3 * b] - ax, e1y = positions[3 * b + 1] - ay, e1z = positions[3 * b + 2] - az;
  const e2x = positions[3 * c] - ax, e2y = positions[3 * c + 1] - ay, e2z = positions[3 * c + 2] - az;
  const d = ray.direction, o = ray.origin;
  const px = d[1] * e2z - d[2] * e2y, py = d[2] * e2x - d[0] * e2z, pz = d[0] * e2y - d[1] * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0 || !Number.isFinite(det)) return Infinity;
  const inv = 1 / det;
  const tx = o[0] - ax, ty = o[1] - ay, tz = o[2] - az;
  const u = (tx * px + ty * py + tz * pz) * inv;
  if (u < 0 || u > 1) return Infinity;
  const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  const v = (d[0] * qx + d[1] * qy + d[2] * qz) * inv;
  if (v < 0 || u + v > 1) return Infinity;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (!(t >= 0)) return Infinity;
  uvw[0] = 1 - u - v; uvw[1] = u; uvw[2] = v;
  return t;
}

/** Fills the hit's point, normal (world space, facing the ray) and dominant joint from its triangle. */
function finishHit(model: AnimatedModel, ray: Ray, hit: SurfaceHit, context: ReferencePickContext): void {
  const t = hit.distance, o = ray.origin, d = ray.direction;
  for (let a = 0; a < 3; a++) hit.point[a] = o[a] + t * d[a];
  const i = hit.meshInstance, p = primitiveSlot(model, i, hit.primitive);
  const normals = context.normals[i][p], bary = hit.barycentric, idx = hit.vertexIndices;
  let nx = 0, ny = 0, nz = 0;
  for (let k = 0; k < 3; k++) {
    const v = 3 * idx[k];
    nx += bary[k] * normals[v]; ny += bary[k] * normals[v + 1]; nz += bary[k] * normals[v + 2];
  }
  // Normals go to world space by world⁻ᵀ.
  const inv = context.inverseWorld, n = hit.normal;
  n[0] = inv[0] * nx + inv[1] * ny + inv[2] * nz;
  n[1] = inv[4] * nx + inv[5] * ny + inv[6] * nz;
  n[2] = inv[8] * nx + inv[9] * ny + inv[10] * nz;
  const len = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const s = len > 0 ? ((n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) > 0 ? -1 : 1) / len : 0;
  n[0] *= s; n[1] *= s; n[2] *= s;
  hit.joint = dominantJoint(model, hit);
}

/** The slot (position in its mesh's primitive list) of the primitive whose file index is `sourceIndex`. */
function primitiveSlot(model: AnimatedModel, instance: number, sourceIndex: number): number {
  const primitives = model.asset.meshes[model.asset.meshInstances[instance].mesh].primitives;
  for (let p = 0; p < primitives.length; p++) if ((primitives[p].sourceIndex ?? p) === sourceIndex) return p;
  return 0;
}

/** The skeleton joint with the largest barycentric-blended weight at the hit; the node for rigid meshes. */
function dominantJoint(model: AnimatedModel, hit: SurfaceHit): number {
  const instance = model.asset.meshInstances[hit.meshInstance];
  const primitive = model.asset.meshes[instance.mesh].primitives[primitiveSlot(model, hit.meshInstance, hit.primitive)];
  if (instance.skin < 0 || !primitive.joints || !primitive.weights) return instance.node;
  const c = influenceCountOf(primitive), skinJoints = model.asset.skins[instance.skin].joints;
  let best = -1, bestWeight = 0;
  // Each candidate joint's blended weight: Σ over the three vertices of barycentric · that joint's weight there.
  for (let k = 0; k < 3; k++) {
    for (let s = 0; s < c; s++) {
      const joint = primitive.joints[c * hit.vertexIndices[k] + s];
      let w = 0;
      for (let k2 = 0; k2 < 3; k2++) {
        for (let s2 = 0; s2 < c; s2++) {
          if (primitive.joints[c * hit.vertexIndices[k2] + s2] === joint) w += hit.barycentric[k2] * primitive.weights[c * hit.vertexIndices[k2] + s2];
        }
      }
      if (w > bestWeight) { bestWeight = w; best = joint; }
    }
  }
  return best >= 0 ? skinJoints[best] : instance.node;
}
