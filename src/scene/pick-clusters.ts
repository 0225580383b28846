import { influenceCountOf, type ModelAsset, type PrimitiveAsset } from '../asset/model-asset.ts';

/** Most triangles in one cluster: small enough that a ray's candidates are few, big enough that boxes are few. */
const CLUSTER_TRIANGLES = 16;

/** {@link PickClusters.flags}: a vertex of the cluster has no weight (it stays at rest under most policies). */
export const CLUSTER_UNWEIGHTED = 1;
/** {@link PickClusters.flags}: a stored weight is negative: no bound holds, the cluster is always a candidate. */
export const CLUSTER_NEGATIVE = 2;
/** {@link PickClusters.flags}: under `implicit-last` a vertex's last weight comes out negative: the same. */
export const CLUSTER_IMPLICIT_NEGATIVE = 4;

/** One primitive of one mesh instance, as picking sees it. */
export interface PickRecord {
  /** Index into `asset.meshInstances`. */
  readonly instance: number;
  /** The primitive's position in its mesh's primitive list. */
  readonly slot: number;
  /** The instance's skin, or −1 when the primitive is placed rigidly by its node's matrix. */
  readonly skin: number;
  readonly primitive: PrimitiveAsset;
  /** The entry at the root of its hierarchy (a cluster or a node), −1 for a primitive without triangles. */
  readonly root: number;
  /** `Float64Array(n)` for n morph targets: the largest |component| of target t's position deltas; null without morphing. */
  readonly morphReach: Float64Array | null;
}

/**
 * Load-time partition of a model's triangles for picking: every primitive's triangles grouped by the set of skin
 * joints their vertices' weights name (so a group moves with those joints only), each group split in bind space
 * (median cuts on the longest axis) into clusters of at most a few dozen triangles, and over each primitive's
 * clusters a binary hierarchy of nodes. Per entry (cluster or node) it keeps the bind-pose box of its vertices,
 * its joints (under stored weights and under the `implicit-last` reading), the range of its vertices' weight
 * sums, and flags; clusters also their vertex and triangle lists. A node's joints are its children's together,
 * so it is bounded by the same argument as a cluster (`pick-bounds.ts` moves every box by the pose each pick).
 * Flat typed arrays over all entries of the model (n of them; clusters and nodes share the index space);
 * built once (allocates).
 */
export class PickClusters {
  readonly records: PickRecord[] = [];
  /** Number of entries n (clusters and nodes). */
  readonly count: number;
  /** `Float64Array(6n)`: bind-pose box of cluster c's vertices at `6c` (min x, y, z, then max x, y, z), file space. */
  readonly boxes: Float64Array;
  /** `Uint32Array(n + 1)`, `Uint32Array`: cluster c's triangle indices at `triangles[triangleStart[c] … triangleStart[c + 1])`. */
  readonly triangleStart: Uint32Array;
  readonly triangles: Uint32Array;
  /** Cluster c's distinct vertices at `vertices[vertexStart[c] … vertexStart[c + 1])`. */
  readonly vertexStart: Uint32Array;
  readonly vertices: Uint32Array;
  /**
   * Skin joints of cluster c whose stored weight on one of its vertices is non-zero, plus each weighted vertex's
   * slot-0 joint (dual quaternion skinning aligns signs against it): `joints[jointStart[c] … jointStart[c + 1])`.
   */
  readonly jointStart: Uint32Array;
  readonly joints: Int32Array;
  /** The same under the `implicit-last` reading (the last slot's weight taken as 1 − the others). */
  readonly implicitStart: Uint32Array;
  readonly implicitJoints: Int32Array;
  /** `Float64Array(n)`: smallest and largest stored weight sum of cluster c's weighted vertices. */
  readonly minSum: Float64Array;
  readonly maxSum: Float64Array;
  /** `Uint8Array(n)`: CLUSTER_* bits. */
  readonly flags: Uint8Array;
  /** `Uint16Array(n)`: the record (an index into {@link records}) of entry e. */
  readonly recordOf: Uint16Array | Uint32Array;
  /** `Int32Array(n)`: entry e's two children, or −1 for a cluster (a leaf). */
  readonly left: Int32Array;
  readonly right: Int32Array;

  constructor(asset: ModelAsset) {
    const boxes: number[] = [], triangleStart = [0], triangles: number[] = [], vertexStart = [0], vertices: number[] = [];
    const jointStart = [0], joints: number[] = [], implicitStart = [0], implicitJoints: number[] = [];
    const minSum: number[] = [], maxSum: number[] = [], flags: number[] = [], recordOf: number[] = [], left: number[] = [], right: number[] = [];
    const add = (c: ClusterDescription, tris: readonly number[], children: readonly [number, number]): number => {
      boxes.push(...c.box);
      triangles.push(...tris); triangleStart.push(triangles.length);
      vertices.push(...c.vertices); vertexStart.push(vertices.length);
      joints.push(...c.stored); jointStart.push(joints.length);
      implicitJoints.push(...c.implicit); implicitStart.push(implicitJoints.length);
      minSum.push(c.minSum); maxSum.push(c.maxSum); flags.push(c.flags); recordOf.push(this.records.length);
      left.push(children[0]); right.push(children[1]);
      return minSum.length - 1;
    };
    asset.meshInstances.forEach((instance, i) => {
      asset.meshes[instance.mesh].primitives.forEach((primitive, slot) => {
        const skinned = instance.skin >= 0 && !!primitive.joints && !!primitive.weights;
        const leaves = clusterTriangles(primitive, skinned).map((tris) => {
          const d = describeCluster(primitive, skinned, tris);
          return { entry: add(d, tris, [-1, -1]), d };
        });
        // A bounding volume hierarchy over the clusters (median cuts of their bind-pose centres), each node
        // bounded like a cluster by the union of its children's joints.
        const build = (items: typeof leaves): { entry: number; d: ClusterDescription } => {
          if (items.length === 1) return items[0];
          const axis = widestAxis(items.map((item) => item.d.box));
          const sorted = items.slice().sort((a, b) => a.d.box[axis] + a.d.box[axis + 3] - b.d.box[axis] - b.d.box[axis + 3]);
          const half = sorted.length >> 1;
          const l = build(sorted.slice(0, half)), r = build(sorted.slice(half));
          const d = mergeDescriptions(l.d, r.d);
          return { entry: add(d, [], [l.entry, r.entry]), d };
        };
        const root = leaves.length > 0 ? build(leaves).entry : -1;
        this.records.push({
          instance: i, slot, skin: skinned ? instance.skin : -1, primitive, root,
          morphReach: primitive.morphTargets && (instance.morphWeightOffset ?? -1) >= 0 ? morphReach(primitive) : null,
        });
      });
    });
    this.count = minSum.length;
    this.boxes = Float64Array.from(boxes);
    this.triangleStart = Uint32Array.from(triangleStart); this.triangles = Uint32Array.from(triangles);
    this.vertexStart = Uint32Array.from(vertexStart); this.vertices = Uint32Array.from(vertices);
    this.jointStart = Uint32Array.from(jointStart); this.joints = Int32Array.from(joints);
    this.implicitStart = Uint32Array.from(implicitStart); this.implicitJoints = Int32Array.from(implicitJoints);
    this.minSum = Float64Array.from(minSum); this.maxSum = Float64Array.from(maxSum);
    this.flags = Uint8Array.from(flags);
    this.recordOf = this.records.length <= 0xffff ? Uint16Array.from(recordOf) : Uint32Array.from(recordOf);
    this.left = Int32Array.from(left); this.right = Int32Array.from(right);
  }
}

/** The axis (0, 1, 2) along which the centres of `boxes` spread most. */
function widestAxis(boxes: readonly number[][]): number {
  let axis = 0, widest = -1;
  for (let a = 0; a < 3; a++) {
    let lo = Infinity, hi = -Infinity;
    for (const b of boxes) { const x = b[a] + b[a + 3]; lo = Math.min(lo, x); hi = Math.max(hi, x); }
    if (hi - lo > widest) { widest = hi - lo; axis = a; }
  }
  return axis;
}

/** A node over two entries: the union of their boxes and joints, the extremes of their sums, their flags together. */
function mergeDescriptions(a: ClusterDescription, b: ClusterDescription): ClusterDescription {
  const box = a.box.map((x, k) => (k < 3 ? Math.min(x, b.box[k]) : Math.max(x, b.box[k])));
  return {
    box, vertices: [], stored: [...new Set([...a.stored, ...b.stored])], implicit: [...new Set([...a.implicit, ...b.implicit])],
    minSum: Math.min(a.minSum, b.minSum), maxSum: Math.max(a.maxSum, b.maxSum), flags: a.flags | b.flags,
  };
}

/** The skin joints with a non-zero stored weight at vertex v, plus its slot-0 joint (none for an unweighted vertex). */
function storedJoints(primitive: PrimitiveAsset, v: number, out: Set<number>): void {
  const c = influenceCountOf(primitive), j = primitive.joints!, w = primitive.weights!;
  let any = false;
  for (let k = 0; k < c; k++) if (w[c * v + k] !== 0) { out.add(j[c * v + k]); any = true; }
  if (any) out.add(j[c * v]);
}

/** The triangles of a primitive in clusters: grouped by their vertices' joint set, then split in bind space. */
function clusterTriangles(primitive: PrimitiveAsset, skinned: boolean): number[][] {
  const groups = new Map<string, number[]>();
  const indices = primitive.indices, set = new Set<number>();
  for (let t = 0; 3 * t + 2 < indices.length; t++) {
    set.clear();
    if (skinned) for (let k = 0; k < 3; k++) storedJoints(primitive, indices[3 * t + k], set);
    const key = [...set].sort((a, b) => a - b).join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(t);
  }
  const out: number[][] = [];
  for (const group of groups.values()) split(primitive, group, out);
  return out;
}

/** Median cuts of `tris` along the longest axis of their centroids' box, down to {@link CLUSTER_TRIANGLES}. */
function split(primitive: PrimitiveAsset, tris: number[], out: number[][]): void {
  if (tris.length <= CLUSTER_TRIANGLES) { out.push(tris); return; }
  const p = primitive.positions, idx = primitive.indices;
  const centroid = (t: number, a: number) => p[3 * idx[3 * t] + a] + p[3 * idx[3 * t + 1] + a] + p[3 * idx[3 * t + 2] + a];
  let axis = 0, widest = -1;
  for (let a = 0; a < 3; a++) {
    let lo = Infinity, hi = -Infinity;
    for (const t of tris) { const x = centroid(t, a); lo = Math.min(lo, x); hi = Math.max(hi, x); }
    if (hi - lo > widest) { widest = hi - lo; axis = a; }
  }
  const sorted = tris.slice().sort((s, t) => centroid(s, axis) - centroid(t, axis));
  const half = sorted.length >> 1;
  split(primitive, sorted.slice(0, half), out);
  split(primitive, sorted.slice(half), out);
}

interface ClusterDescription {
  box: number[]; vertices: number[]; stored: number[]; implicit: number[]; minSum: number; maxSum: number; flags: number;
}

function describeCluster(primitive: PrimitiveAsset, skinned: boolean, tris: number[]): ClusterDescription {
  const idx = primitive.indices, p = primitive.positions;
  const vertexSet = new Set<number>();
  for (const t of tris) for (let k = 0; k < 3; k++) vertexSet.add(idx[3 * t + k]);
  const vertices = [...vertexSet].sort((a, b) => a - b);
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const v of vertices) {
    for (let a = 0; a < 3; a++) {
      box[a] = Math.min(box[a], p[3 * v + a]);
      box[3 + a] = Math.max(box[3 + a], p[3 * v + a]);
    }
  }
  const stored = new Set<number>(), implicit = new Set<number>();
  let minSum = Infinity, maxSum = -Infinity, flags = 0;
  if (skinned) {
    const c = influenceCountOf(primitive), j = primitive.joints!, w = primitive.weights!;
    for (const v of vertices) {
      storedJoints(primitive, v, stored);
      let sum = 0, others = 0, any = false;
      for (let k = 0; k < c; k++) {
        const x = w[c * v + k];
        if (x !== 0) any = true;
        if (x < 0) flags |= CLUSTER_NEGATIVE;
        sum += x;
        if (k < c - 1) others += x;
      }
      if (!any) flags |= CLUSTER_UNWEIGHTED;
      else { minSum = Math.min(minSum, sum); maxSum = Math.max(maxSum, sum); }
      // implicit-last: slot c−1 weighs 1 − (the others); the sum is then 1.
      const last = 1 - others;
      if (last < -1e-6) flags |= CLUSTER_IMPLICIT_NEGATIVE;
      for (let k = 0; k < c - 1; k++) if (w[c * v + k] !== 0) implicit.add(j[c * v + k]);
      if (last !== 0) implicit.add(j[c * v + c - 1]);
      implicit.add(j[c * v]);
    }
  }
  if (!(minSum <= maxSum)) { minSum = 1; maxSum = 1; }
  return { box, vertices, stored: [...stored], implicit: [...implicit], minSum, maxSum, flags };
}

/** Per morph target, the largest |component| of its position deltas over the primitive (0 for none). */
function morphReach(primitive: PrimitiveAsset): Float64Array {
  const targets = primitive.morphTargets!, n = primitive.vertexCount, out = new Float64Array(targets.count);
  const d = targets.positions;
  for (let t = 0; d && t < targets.count; t++) {
    let m = 0;
    for (let i = 3 * t * n; i < 3 * (t + 1) * n; i++) m = Math.max(m, Math.abs(d[i]));
    out[t] = m;
  }
  return out;
}
