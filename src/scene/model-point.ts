import { influenceCountOf, type PrimitiveAsset } from '../asset/model-asset.ts';
import { skinVertices } from '../skinning/skin-vertices.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import type { AnimatedModel } from './animated-model.ts';

/** Three numbers (x, y, z). */
export type Vec3Tuple = readonly [number, number, number];

/**
 * A point that moves with a model (hotspots, labels), before it is tied to a model:
 *
 * - `position`: a fixed point in model space (the file's space and units: metres for glTF), with a normal
 *   in model space or none;
 * - `joint`: a joint (name or index) and an `offset` in the joint's frame (metres), with a normal in the
 *   joint's frame or none;
 * - `surface`: a point of the skinned surface — glTF mesh `mesh` (index into `ModelAsset.meshes`), its
 *   primitive `primitive` (`PrimitiveAsset.sourceIndex`), three vertex indices of that primitive and their
 *   barycentric weights (`weights[0]·A + weights[1]·B + weights[2]·C`, as `<model-viewer>`'s `data-surface`);
 *   the normal is the posed triangle's face normal.
 */
export type ModelPointSpec =
  | { readonly kind: 'position'; readonly position: Vec3Tuple; readonly normal: Vec3Tuple | null }
  | { readonly kind: 'joint'; readonly joint: string | number; readonly offset: Vec3Tuple; readonly normal: Vec3Tuple | null }
  | { readonly kind: 'surface'; readonly mesh: number; readonly primitive: number; readonly vertices: Vec3Tuple; readonly weights: Vec3Tuple };

/** A surface point's triangle, copied out of its primitive once (its three vertices, their influences, morphs). */
interface SurfaceTriangle {
  /** Index into `asset.meshInstances`: the first instance of the mesh. */
  readonly instance: number;
  /** Skin index, or −1 when the triangle is placed by its node's matrix. */
  readonly skin: number;
  /** Skeleton index of the instance's node (rigid placement). */
  readonly node: number;
  /** The three vertices as a primitive of three (bind pose, morphed in place each frame when there are targets). */
  readonly excerpt: PrimitiveAsset;
  /** `Float32Array(9)`: the three vertices' bind-pose positions, unmorphed. */
  readonly base: Float32Array;
  /** `Float32Array(9·n)`: target t's position deltas of the three vertices at 9t, or null without morph targets. */
  readonly deltas: Float32Array | null;
  /** Where the instance's morph weights start in `AnimatedModel.morphWeights`. */
  readonly morphOffset: number;
  readonly weights: Vec3Tuple;
  /** `Float32Array(9)`: the posed vertices, relative to the model origin. */
  readonly posed: Float32Array;
}

/**
 * A {@link ModelPointSpec} tied to one model: resolved once (names and indices checked, the surface's triangle
 * copied out), then {@link place}d after each `evaluate` — model-space and world-space position and normal,
 * written in place (no allocation per frame).
 */
export class ModelPoint {
  readonly spec: ModelPointSpec;
  /** `Float64Array(3)`: the point in model space (the file's space: `AnimatedModel.origin` added back), metres. */
  readonly position = new Float64Array(3);
  /** `Float64Array(3)`: its unit normal in model space, or (0, 0, 0) when it has none ({@link hasNormal}). */
  readonly normal = new Float64Array(3);
  /** `Float64Array(3)`: the point in world space (`AnimatedModel.world` · position). */
  readonly worldPosition = new Float64Array(3);
  /** `Float64Array(3)`: the unit normal in world space (world's inverse transpose · normal), or (0, 0, 0). */
  readonly worldNormal = new Float64Array(3);
  /** Whether the point has a normal (surface points always, unless their triangle is degenerate). */
  hasNormal = false;
  private readonly model: AnimatedModel;
  private readonly joint: number;
  private readonly triangle: SurfaceTriangle | null;

  /**
   * Ties `spec` to `model`. A surface point takes the first mesh instance of its mesh (`asset.meshInstances`
   * order: the first node that uses the mesh), as `<model-viewer>` takes the first node of its hierarchy.
   * @throws RangeError naming the model and what does not exist: the joint, the mesh, the primitive, a vertex
   *   index, or a mesh no node places
   * @throws Error when a number of the spec is not finite
   */
  constructor(model: AnimatedModel, spec: ModelPointSpec) {
    this.model = model;
    this.spec = spec;
    const numbers = spec.kind === 'position' ? [...spec.position, ...(spec.normal ?? [])]
      : spec.kind === 'joint' ? [...spec.offset, ...(spec.normal ?? [])] : [...spec.weights];
    if (!numbers.every(Number.isFinite)) throw new Error(`${model.asset.name}: a ${spec.kind} point with a number that is not finite (${numbers.join(' ')})`);
    this.joint = spec.kind === 'joint' ? model.jointIndex(spec.joint) : -1;
    this.triangle = spec.kind === 'surface' ? copyTriangle(model, spec) : null;
  }

  /**
   * Computes the point for the model's pose of its last `evaluate` and its `world`: a joint's by its
   * model-space matrix, a surface point by skinning its three vertices with `skinVertices` under `method`
   * (the same arithmetic as skinning the whole mesh; morph targets first, docs/explanation/skinning-formulas.md M0, S0)
   * and blending them by the weights. Allocates nothing.
   */
  place(method: SkinningMethod = DEFAULT_SKINNING_METHOD): void {
    const { model, spec, position: p, normal: n } = this;
    const O = model.origin;
    this.hasNormal = false;
    if (spec.kind === 'position') {
      p[0] = spec.position[0]; p[1] = spec.position[1]; p[2] = spec.position[2];
      if (spec.normal) this.hasNormal = setUnit(n, spec.normal[0], spec.normal[1], spec.normal[2]);
    } else if (spec.kind === 'joint') {
      const m = model.modelMatrices, o = 16 * this.joint, [x, y, z] = spec.offset;
      for (let r = 0; r < 3; r++) p[r] = m[o + r] * x + m[o + 4 + r] * y + m[o + 8 + r] * z + m[o + 12 + r] + O[r];
      if (spec.normal) this.hasNormal = transformNormal(n, m, o, spec.normal[0], spec.normal[1], spec.normal[2]);
    } else {
      this.hasNormal = this.placeOnSurface(method);
    }
    if (!this.hasNormal) n.fill(0);
    const w = model.world, wp = this.worldPosition;
    for (let r = 0; r < 3; r++) wp[r] = w[r] * p[0] + w[4 + r] * p[1] + w[8 + r] * p[2] + w[12 + r];
    if (!this.hasNormal || !transformNormal(this.worldNormal, w, 0, n[0], n[1], n[2])) this.worldNormal.fill(0);
  }

  /** Poses the triangle, writes the blended point and the face normal; false when the triangle is degenerate. */
  private placeOnSurface(method: SkinningMethod): boolean {
    const model = this.model, t = this.triangle!, posed = t.posed, O = model.origin;
    const positions = t.excerpt.positions as Float32Array;
    positions.set(t.base);
    if (t.deltas) {
      // docs/explanation/skinning-formulas.md M0, target by target in order, each sum rounded to float32 as MorphedPrimitive does.
      const weights = model.morphWeights, count = t.deltas.length / 9;
      for (let k = 0; k < count; k++) {
        const w = weights[t.morphOffset + k];
        if (w === 0) continue;
        for (let i = 0; i < 9; i++) positions[i] += w * t.deltas[9 * k + i];
      }
    }
    if (t.skin >= 0) {
      skinVertices(posed, null, t.excerpt, model.skinMatrices[t.skin], model.skinningContexts[t.skin], method);
    } else {
      const m = model.modelMatrices, o = 16 * t.node;
      for (let v = 0; v < 9; v += 3) {
        const x = positions[v], y = positions[v + 1], z = positions[v + 2];
        for (let r = 0; r < 3; r++) posed[v + r] = m[o + r] * x + m[o + 4 + r] * y + m[o + 8 + r] * z + m[o + 12 + r];
      }
    }
    const [wa, wb, wc] = t.weights, p = this.position;
    for (let r = 0; r < 3; r++) {
      // The vertices back in model space (f64) before blending, so far-from-origin models keep their precision.
      const a = posed[r] + O[r], b = posed[3 + r] + O[r], c = posed[6 + r] + O[r];
      p[r] = wa * a + wb * b + wc * c;
    }
    // Face normal (C − B) × (A − B), the winding three.js's Triangle.getNormal uses, as <model-viewer> does.
    const e1x = posed[6] - posed[3], e1y = posed[7] - posed[4], e1z = posed[8] - posed[5];
    const e2x = posed[0] - posed[3], e2y = posed[1] - posed[4], e2z = posed[2] - posed[5];
    return setUnit(this.normal, e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x);
  }
}

/** Copies the triangle of a surface spec out of its primitive (bind pose, influences, morph deltas). */
function copyTriangle(model: AnimatedModel, spec: ModelPointSpec & { kind: 'surface' }): SurfaceTriangle {
  const { asset } = model;
  const name = asset.name;
  if (!(Number.isInteger(spec.mesh) && spec.mesh >= 0 && spec.mesh < asset.meshes.length)) {
    throw new RangeError(`${name}: no mesh ${spec.mesh} (${asset.meshes.length} meshes)`);
  }
  const primitives = asset.meshes[spec.mesh].primitives;
  const slot = primitives.findIndex((p, i) => (p.sourceIndex ?? i) === spec.primitive);
  if (slot < 0) throw new RangeError(`${name}: mesh ${spec.mesh} has no primitive ${spec.primitive} (${primitives.length} primitives)`);
  const instance = asset.meshInstances.findIndex((i) => i.mesh === spec.mesh);
  if (instance < 0) throw new RangeError(`${name}: mesh ${spec.mesh} is not placed by any node`);
  const source = primitives[slot];
  const bad = spec.vertices.find((v) => !(Number.isInteger(v) && v >= 0 && v < source.vertexCount));
  if (bad !== undefined) throw new RangeError(`${name}: mesh ${spec.mesh} primitive ${spec.primitive} has no vertex ${bad} (${source.vertexCount} vertices)`);
  const placedBy = asset.meshInstances[instance];
  const skinned = placedBy.skin >= 0 && !!source.joints && !!source.weights;
  const c = skinned ? influenceCountOf(source) : 0;
  const base = new Float32Array(9);
  const joints = skinned ? new (source.joints!.constructor as Uint8ArrayConstructor | Uint16ArrayConstructor)(3 * c) : null;
  const weights = skinned ? new Float32Array(3 * c) : null;
  spec.vertices.forEach((v, k) => {
    base.set(source.positions.subarray(3 * v, 3 * v + 3), 3 * k);
    if (joints && weights) {
      joints.set(source.joints!.subarray(c * v, c * v + c), c * k);
      weights.set(source.weights!.subarray(c * v, c * v + c), c * k);
    }
  });
  const targets = source.morphTargets;
  const morphOffset = placedBy.morphWeightOffset ?? -1;
  let deltas: Float32Array | null = null;
  if (targets?.positions && morphOffset >= 0) {
    deltas = new Float32Array(9 * targets.count);
    for (let t = 0; t < targets.count; t++) {
      spec.vertices.forEach((v, k) => deltas!.set(targets.positions!.subarray(3 * (t * source.vertexCount + v), 3 * (t * source.vertexCount + v) + 3), 9 * t + 3 * k));
    }
  }
  const excerpt: PrimitiveAsset = {
    vertexCount: 3, positions: base.slice(), normals: new Float32Array(9), uvs: null, influenceCount: skinned ? c : undefined,
    joints, weights, indices: new Uint16Array([0, 1, 2]), material: source.material, sourceIndex: spec.primitive,
  };
  return {
    instance, skin: skinned ? placedBy.skin : -1, node: placedBy.node, excerpt, base, deltas, morphOffset,
    weights: spec.weights, posed: new Float32Array(9),
  };
}

/** Writes (x, y, z) normalised into `out`; false (and zeros) when its length is 0 or not finite. */
function setUnit(out: Float64Array, x: number, y: number, z: number): boolean {
  const length = Math.sqrt(x * x + y * y + z * z);
  if (!(length > 0) || !Number.isFinite(length)) {
    out.fill(0);
    return false;
  }
  out[0] = x / length; out[1] = y / length; out[2] = z / length;
  return true;
}

/**
 * A normal taken by the 3×3 part of the column-major 4×4 at `m[o…o+16)`: by its inverse transpose, computed
 * as sign(det)·cofactor matrix (the cofactor matrix is det · M⁻ᵀ), then normalised, so scaled and mirrored
 * frames keep the normal perpendicular to the surface and on its side.
 * @returns false (and zeros) when the result has no direction
 */
function transformNormal(out: Float64Array, m: ArrayLike<number>, o: number, x: number, y: number, z: number): boolean {
  const a = m[o], b = m[o + 4], c = m[o + 8];
  const d = m[o + 1], e = m[o + 5], f = m[o + 9];
  const g = m[o + 2], h = m[o + 6], i = m[o + 10];
  // The cofactor matrix of the row-major [[a b c] [d e f] [g h i]], row by row.
  const A = e * i - f * h, B = f * g - d * i, C = d * h - e * g;
  const D = c * h - b * i, E = a * i - c * g, F = b * g - a * h;
  const G = b * f - c * e, H = c * d - a * f, I = a * e - b * d;
  const s = a * A + b * B + c * C < 0 ? -1 : 1;
  return setUnit(out, s * (A * x + B * y + C * z), s * (D * x + E * y + F * z), s * (G * x + H * y + I * z));
}
