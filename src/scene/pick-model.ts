import { mat4 } from 'gl-matrix';
import { influenceCountOf } from '../asset/model-asset.ts';
import { computeDualQuaternionPalette } from '../skinning/dual-quaternion-palette.ts';
import { MorphedPrimitive } from '../skinning/morph-targets.ts';
import { skinVertices } from '../skinning/skin-vertices.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import type { AnimatedModel } from './animated-model.ts';
import { movedClusterBox, type ClusterPose } from './pick-bounds.ts';
import { PickClusters } from './pick-clusters.ts';
import { blendHitWeights } from './hit-weights.ts';

/** A ray in world space (`AnimatedModel.world`'s target space): points `origin + t·direction`, t ≥ 0. */
export interface Ray {
  /** `Float64Array(3)`: where the ray starts. */
  readonly origin: Float64Array;
  /** `Float64Array(3)`: its direction (any non-zero length; distances are in its units of t). */
  readonly direction: Float64Array;
}

/** Allocates a ray from (0, 0, 0) along −z. */
export function createRay(): Ray {
  return { origin: new Float64Array(3), direction: new Float64Array([0, 0, -1]) };
}

/**
 * Where a ray met the skinned (or rigid) surface of a model at the frame of its last `evaluate`: written by
 * {@link pickModel} into a caller-owned object ({@link createSurfaceHit}), so picking allocates nothing.
 */
export interface SurfaceHit {
  /** Ray parameter t of the hit: `point = origin + t·direction`. */
  distance: number;
  /** `Float64Array(3)`: the hit point, world space. */
  readonly point: Float64Array;
  /**
   * `Float64Array(3)`: unit normal at the hit, world space — the skinned vertex normals interpolated by
   * {@link barycentric} (as the fragment shader sees them), turned to face the ray's origin.
   */
  readonly normal: Float64Array;
  /** Index into `asset.meshInstances` of the instance hit. */
  meshInstance: number;
  /** Index into `asset.meshes` (the file's mesh index for glTF). */
  mesh: number;
  /** The primitive's index in its mesh (the file's: `primitive.sourceIndex`). */
  primitive: number;
  /** Triangle index in the primitive's index buffer (its vertices at `indices[3·triangle …]`). */
  triangle: number;
  /** `Float64Array(3)`: barycentric weights of the hit over {@link vertexIndices} (they sum to 1). */
  readonly barycentric: Float64Array;
  /** `Uint32Array(3)`: the triangle's vertex indices in the primitive. */
  readonly vertexIndices: Uint32Array;
  /**
   * Skeleton index of the joint with the largest influence at the hit (the vertices' weights blended by
   * {@link barycentric}), or the mesh node's joint for a rigid mesh.
   */
  joint: number;
}

/** Allocates a {@link SurfaceHit} to pass to {@link pickModel} again and again. */
export function createSurfaceHit(): SurfaceHit {
  return {
    distance: Infinity, point: new Float64Array(3), normal: new Float64Array(3), meshInstance: -1, mesh: -1, primitive: -1,
    triangle: -1, barycentric: new Float64Array(3), vertexIndices: new Uint32Array(3), joint: -1,
  };
}

/** Nodes of the cluster hierarchy over more joints than this are descended without a box of their own. */
const NODE_JOINTS = 8;

/**
 * Caller-owned state of {@link pickModel} for one model, made once (at load: it allocates and partitions the
 * triangles): the {@link PickClusters} (triangles grouped by their joints, split into small bind-space clusters),
 * per mesh instance and primitive buffers for its posed vertices (written only where a pick needs them) and its
 * morph-target applier, and per-pick scratch. Picking with it allocates nothing.
 */
export class PickContext {
  /** Per mesh instance, per primitive: `Float32Array(3·vertexCount)` posed positions, relative to the model origin (valid at the last pick's candidate vertices). */
  readonly positions: Float32Array[][];
  /** The same for normals (valid at the last hit's three vertices). */
  readonly normals: Float32Array[][];
  /** Per mesh instance, per primitive: its morph-target applier, or null. */
  readonly morphs: (MorphedPrimitive | null)[][];
  /** `Float64Array(3)`: the barycentric weights of the last triangle tested. */
  readonly uvw = new Float64Array(3);
  /** `Float64Array(16)`: world⁻¹ of the last pick. */
  readonly inverseWorld = new Float64Array(16);
  /** The last pick's ray in pose space (model space − O). */
  readonly poseRay: Ray = createRay();
  /** The model's triangles in clusters, with their bind-pose boxes and joints (built here, once). */
  readonly clusters: PickClusters;
  /** How many clusters the last pick's ray met (or could not rule out); the nearest of them were posed and tested. */
  candidateClusters = 0;
  /** How many vertices the last pick posed (skinned or placed), out of {@link vertexCount}. */
  posedVertices = 0;
  /** `Int32Array`, `Float64Array` (3 × the most influences per vertex): the last hit's joints and weights, heaviest first (`blendHitWeights`). */
  readonly hitJoints: Int32Array;
  readonly hitWeights: Float64Array;
  /** Every vertex of every primitive of every mesh instance: what a brute-force pick would pose. */
  readonly vertexCount: number;
  /** Per record: `Uint32Array(vertexCount)`: the pick stamp at which vertex v was last put on the list. */
  private readonly stamps: Uint32Array[];
  /** Per record: `Uint32Array(vertexCount)`: scratch for the vertices of one cluster still to pose this pick. */
  private readonly lists: Uint32Array[];
  private readonly candidates: Uint32Array;
  /** Per candidate: the ray parameter where the ray enters its moved box (0 when it has none). */
  private readonly enters: Float64Array;
  private readonly entry = new Float64Array(1);
  private readonly stack: Int32Array;
  private readonly box = new Float64Array(6);
  /** `Float64Array(1)`: the ray parameter of the last triangle met. */
  private readonly meet = new Float64Array(1);
  /** Per skin: `Float64Array(16·m)`, its DQS palette for the current pick. */
  private readonly palettes: Float64Array[];
  private readonly pose: ClusterPose;
  /** Per record: the pick stamp at which its morph targets were last applied. */
  private readonly morphStamps: Uint32Array;
  private stamp = 0;

  constructor(readonly model: AnimatedModel) {
    const { asset } = model;
    this.positions = asset.meshInstances.map((i) => asset.meshes[i.mesh].primitives.map((p) => new Float32Array(3 * p.vertexCount)));
    this.normals = asset.meshInstances.map((i) => asset.meshes[i.mesh].primitives.map((p) => new Float32Array(3 * p.vertexCount)));
    this.morphs = asset.meshInstances.map((i) =>
      asset.meshes[i.mesh].primitives.map((p) => (p.morphTargets && (i.morphWeightOffset ?? -1) >= 0 ? new MorphedPrimitive(p) : null)));
    this.clusters = new PickClusters(asset);
    const slots = 3 * Math.max(4, ...asset.meshes.flatMap((m) => m.primitives.map((p) => (p.joints ? influenceCountOf(p) : 4))));
    this.hitJoints = new Int32Array(slots);
    this.hitWeights = new Float64Array(slots);
    const records = this.clusters.records;
    this.stamps = records.map((r) => new Uint32Array(r.primitive.vertexCount));
    this.lists = records.map((r) => new Uint32Array(r.primitive.vertexCount));
    this.vertexCount = records.reduce((n, r) => n + r.primitive.vertexCount, 0);
    this.morphStamps = new Uint32Array(records.length);
    this.candidates = new Uint32Array(this.clusters.count);
    this.enters = new Float64Array(this.clusters.count);
    this.stack = new Int32Array(this.clusters.count + 1);
    this.palettes = asset.skins.map((skin) => new Float64Array(16 * skin.joints.length));
    this.pose = { matrices: model.modelMatrices, node: 0, palette: null, origin: model.origin, morphPad: 0, method: DEFAULT_SKINNING_METHOD, rigid: true, norms: new Float64Array(2), padded: new Float64Array(6) };
  }

  /**
   * The nearest hit of `ray` (pose space) on the model as posed now; see {@link pickModel}. Internal: call
   * {@link pickModel}.
   */
  nearest(ray: Ray, hit: SurfaceHit, method: SkinningMethod): boolean {
    const { model, clusters, pose, box, candidates, enters, entry, stack } = this;
    const records = clusters.records;
    if (++this.stamp === 0xffffffff) {
      for (let r = 0; r < records.length; r++) this.stamps[r].fill(0);
      this.morphStamps.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    if (method.skinning === 'dqs') {
      for (let s = 0; s < this.palettes.length; s++) computeDualQuaternionPalette(this.palettes[s], model.skinMatrices[s], this.palettes[s].length >> 4);
    }
    pose.method = method;
    let count = 0, posed = 0;
    // Phase 1: the clusters the ray may meet, each with the ray parameter where it enters the cluster's box.
    for (let r = 0; r < records.length; r++) {
      const record = records[r], instance = model.asset.meshInstances[record.instance];
      pose.rigid = record.skin < 0;
      pose.matrices = pose.rigid ? model.modelMatrices : model.skinMatrices[record.skin];
      pose.node = 16 * instance.node;
      pose.palette = !pose.rigid && method.skinning === 'dqs' ? this.palettes[record.skin] : null;
      pose.morphPad = record.morphReach ? morphPad(record.morphReach, model.morphWeights, instance.morphWeightOffset!) : 0;
      // Down the record's hierarchy: a node or cluster whose moved box the ray misses is skipped with all below
      // it. Nodes over many joints are not worth a box (it would hold most of the model): their children are tried.
      let top = 0;
      if (record.root >= 0) stack[top++] = record.root;
      while (top > 0) {
        const e = stack[--top], leaf = clusters.left[e] < 0;
        entry[0] = 0;
        if (leaf || clusters.jointStart[e + 1] - clusters.jointStart[e] <= NODE_JOINTS) {
          if (movedClusterBox(box, clusters, e, pose) && !rayMeetsBox(ray, box, entry)) continue;
        }
        if (!leaf) {
          stack[top++] = clusters.left[e]; stack[top++] = clusters.right[e];
          continue;
        }
        enters[count] = entry[0];
        candidates[count++] = e;
      }
    }
    this.candidateClusters = count;
    // Under DQS every skinVertices call converts the whole palette to dual quaternions (a polar decomposition per
    // joint): there the candidates are posed in one call per primitive, before any is tested.
    if (method.skinning === 'dqs') {
      for (let r = 0; r < records.length; r++) {
        const stamps = this.stamps[r], list = this.lists[r];
        let length = 0;
        for (let n = 0; n < count; n++) {
          const c = candidates[n];
          if (clusters.recordOf[c] !== r) continue;
          for (let k = clusters.vertexStart[c]; k < clusters.vertexStart[c + 1]; k++) {
            const v = clusters.vertices[k];
            if (stamps[v] !== stamp) { stamps[v] = stamp; list[length++] = v; }
          }
        }
        if (length > 0) this.posePrimitive(r, list, length, null, method);
        posed += length;
      }
    }
    // Phase 2: candidates nearest first; each one's vertices posed (morph targets first, over the whole
    // primitive), then its triangles tested, until the next one starts beyond the nearest hit. Ties go to the
    // first triangle in (instance, primitive, triangle) order, as a brute-force loop would have it.
    let best = Infinity, bestRecord = -1, bestTriangle = -1;
    for (let done = 0; done < count; done++) {
      let next = done;
      for (let n = done + 1; n < count; n++) if (enters[n] < enters[next]) next = n;
      if (enters[next] > best) break;
      const c = candidates[next];
      candidates[next] = candidates[done]; enters[next] = enters[done];
      const r = clusters.recordOf[c], record = records[r];
      const stamps = this.stamps[r], list = this.lists[r];
      let length = 0;
      for (let k = clusters.vertexStart[c]; k < clusters.vertexStart[c + 1]; k++) {
        const v = clusters.vertices[k];
        if (stamps[v] !== stamp) { stamps[v] = stamp; list[length++] = v; }
      }
      if (length > 0) this.posePrimitive(r, list, length, null, method);
      posed += length;
      const positions = this.positions[record.instance][record.slot], indices = record.primitive.indices;
      for (let k = clusters.triangleStart[c]; k < clusters.triangleStart[c + 1]; k++) {
        const t = clusters.triangles[k], i3 = 3 * t;
        if (!intersectTriangle(ray, positions, indices[i3], indices[i3 + 1], indices[i3 + 2], this.uvw, this.meet)) continue;
        const d = this.meet[0];
        if (d < best || (d === best && (r < bestRecord || (r === bestRecord && t < bestTriangle)))) {
          best = d; bestRecord = r; bestTriangle = t;
          hit.barycentric[0] = this.uvw[0]; hit.barycentric[1] = this.uvw[1]; hit.barycentric[2] = this.uvw[2];
        }
      }
    }
    this.posedVertices = posed;
    if (bestRecord < 0) return false;
    const record = records[bestRecord], instance = model.asset.meshInstances[record.instance], indices = record.primitive.indices;
    hit.distance = best;
    hit.meshInstance = record.instance; hit.mesh = instance.mesh; hit.primitive = record.primitive.sourceIndex ?? record.slot;
    hit.triangle = bestTriangle;
    hit.vertexIndices[0] = indices[3 * bestTriangle]; hit.vertexIndices[1] = indices[3 * bestTriangle + 1]; hit.vertexIndices[2] = indices[3 * bestTriangle + 2];
    // The hit's three vertices again, with normals (the same positions, bit for bit).
    this.posePrimitive(bestRecord, hit.vertexIndices, 3, this.normals[record.instance][record.slot], method);
    return true;
  }

  /** Poses `list[0 … length)` of record r into its position buffer (and `normals` when given). */
  private posePrimitive(r: number, list: Uint32Array, length: number, normals: Float32Array | null, method: SkinningMethod): void {
    const { model } = this;
    const record = this.clusters.records[r], instance = model.asset.meshInstances[record.instance];
    const morph = this.morphs[record.instance][record.slot];
    let primitive = morph ? morph.primitive : record.primitive;
    if (morph && this.morphStamps[r] !== this.stamp) {
      primitive = morph.apply(model.morphWeights, instance.morphWeightOffset!);
      this.morphStamps[r] = this.stamp;
    }
    const positions = this.positions[record.instance][record.slot];
    if (record.skin >= 0) {
      skinVertices(positions, normals, primitive, model.skinMatrices[record.skin], model.skinningContexts[record.skin], method, null, list, length);
      return;
    }
    const m = model.modelMatrices, o = 16 * instance.node, src = primitive.positions, n = primitive.normals;
    for (let k = 0; k < length; k++) {
      const v = 3 * list[k];
      const x = src[v], y = src[v + 1], z = src[v + 2];
      positions[v] = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
      positions[v + 1] = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
      positions[v + 2] = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
      if (!normals) continue;
      // Directions by the matrix's 3×3; finishHit normalises (non-uniform scale is rare on rigid props).
      const nx = n[v], ny = n[v + 1], nz = n[v + 2];
      normals[v] = m[o] * nx + m[o + 4] * ny + m[o + 8] * nz;
      normals[v + 1] = m[o + 1] * nx + m[o + 5] * ny + m[o + 9] * nz;
      normals[v + 2] = m[o + 2] * nx + m[o + 6] * ny + m[o + 10] * nz;
    }
  }
}

/**
 * The nearest point where `ray` (world space) meets the model's triangles as posed by its last `evaluate`:
 * skinned primitives by the CPU reference path (`skinVertices`, the same arithmetic as the GPU's, under
 * `method`), rigid ones by their node's model-space matrix, morph targets first (docs/explanation/skinning-formulas.md M0,
 * S0), then `AnimatedModel.world`. Both faces of a triangle count (Möller–Trumbore, "Fast, Minimum Storage
 * Ray/Triangle Intersection", 1997).
 *
 * Only the candidates are posed and tested: each cluster and node of {@link PickClusters} gets a box moved by
 * this pose that holds all its triangles (`movedClusterBox`: the joints' skinning matrices applied to its
 * bind-pose box, grown by the morph targets' reach; under DQS a ball by the blend's own bound), the hierarchy is
 * walked down only where the ray meets those boxes, and only the vertices of the clusters reached are skinned (`skinVertices` on a vertex list, bit-identical to
 * skinning the whole mesh), so the answer is the brute-force one (the same triangle, distance and point; ties
 * go to the first triangle in instance, primitive, triangle order) at a fraction of its cost (bench:
 * `pick.fox_over_skin`). A primitive with morph targets is morphed whole (`MorphedPrimitive`) when one of its
 * clusters is a candidate. Clusters with negative weights (or, under the undivided weight policies, sums past 1)
 * have no bound and are always candidates. Allocates nothing.
 * @param ray world space; `direction` need not be unit length (distances are in its units of t)
 * @param hit written when something is hit
 * @param context made for this model ({@link PickContext})
 * @param method the skinning method the model is drawn with (default LBS, normalised weights)
 * @returns `hit`, or null when the ray misses the model
 * @throws Error when `context` was made for another model, or the model's world matrix is singular
 * @throws RangeError when the ray's origin or direction is not finite, or its direction is zero
 */
export function pickModel(model: AnimatedModel, ray: Ray, hit: SurfaceHit, context: PickContext, method: SkinningMethod = DEFAULT_SKINNING_METHOD): SurfaceHit | null {
  if (context.model !== model) throw new Error(`pickModel: the PickContext was made for ${context.model.asset.name}, not ${model.asset.name}`);
  const o = ray.origin, d = ray.direction;
  if (!(Number.isFinite(o[0] + o[1] + o[2] + d[0] + d[1] + d[2])) || (d[0] === 0 && d[1] === 0 && d[2] === 0)) {
    throw new RangeError(`pickModel: the ray (origin ${o[0]}, ${o[1]}, ${o[2]}; direction ${d[0]}, ${d[1]}, ${d[2]}) is not finite or has no direction`);
  }
  const local = toPoseSpace(model, ray, context);
  if (!context.nearest(local, hit, method)) return null;
  finishHit(model, ray, hit, context);
  return hit;
}

/** Σₜ |wₜ|·reachₜ: how far the morph targets at these weights move a vertex on any axis, at most. */
function morphPad(reach: Float64Array, weights: Float32Array, offset: number): number {
  let pad = 0;
  for (let t = 0; t < reach.length; t++) pad += Math.abs(weights[offset + t]) * reach[t];
  return pad;
}

/** Slab test: whether `ray` (t ≥ 0) meets the box `b` (min then max); if so, where it enters it into `enter[0]`. */
function rayMeetsBox(ray: Ray, b: Float64Array, enter: Float64Array): boolean {
  let t0 = 0, t1 = Infinity;
  for (let a = 0; a < 3; a++) {
    const o = ray.origin[a], d = ray.direction[a];
    if (d === 0) {
      if (o < b[a] || o > b[a + 3]) return false;
      continue;
    }
    const inv = 1 / d;
    let near = (b[a] - o) * inv, far = (b[a + 3] - o) * inv;
    if (near > far) { const s = near; near = far; far = s; }
    if (near > t0) t0 = near;
    if (far < t1) t1 = far;
    if (t0 > t1) return false;
  }
  enter[0] = t0;
  return true;
}

/** Writes `context.poseRay`: `ray` taken by world⁻¹ into model space, then by −O into the pose buffers' frame. */
function toPoseSpace(model: AnimatedModel, ray: Ray, context: PickContext): Ray {
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

/**
 * Möller–Trumbore: whether `ray` meets triangle (a, b, c) of `positions` (either face) at a t ≥ 0; if so writes t
 * into `meet[0]` (through an array: a double returned from a call that is not inlined is boxed on the heap) and
 * the barycentric weights of a, b, c into `uvw`.
 */
function intersectTriangle(ray: Ray, positions: Float32Array, a: number, b: number, c: number, uvw: Float64Array, meet: Float64Array): boolean {
  const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
  const e1x = positions[3 * b] - ax, e1y = positions[3 * b + 1] - ay, e1z = positions[3 * b + 2] - az;
  const e2x = positions[3 * c] - ax, e2y = positions[3 * c + 1] - ay, e2z = positions[3 * c + 2] - az;
  const d = ray.direction, o = ray.origin;
  const px = d[1] * e2z - d[2] * e2y, py = d[2] * e2x - d[0] * e2z, pz = d[0] * e2y - d[1] * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0 || !Number.isFinite(det)) return false;
  const inv = 1 / det;
  const tx = o[0] - ax, ty = o[1] - ay, tz = o[2] - az;
  const u = (tx * px + ty * py + tz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  const v = (d[0] * qx + d[1] * qy + d[2] * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (!(t >= 0)) return false;
  uvw[0] = 1 - u - v; uvw[1] = u; uvw[2] = v;
  meet[0] = t;
  return true;
}

/** Fills the hit's point, normal (world space, facing the ray) and dominant joint from its triangle. */
function finishHit(model: AnimatedModel, ray: Ray, hit: SurfaceHit, context: PickContext): void {
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
  blendHitWeights(model.asset, hit, context.hitJoints, context.hitWeights);
  hit.joint = context.hitJoints[0];
}

/** The slot (position in its mesh's primitive list) of the primitive whose file index is `sourceIndex`. */
function primitiveSlot(model: AnimatedModel, instance: number, sourceIndex: number): number {
  const primitives = model.asset.meshes[model.asset.meshInstances[instance].mesh].primitives;
  for (let p = 0; p < primitives.length; p++) if ((primitives[p].sourceIndex ?? p) === sourceIndex) return p;
  return 0;
}
