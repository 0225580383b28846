import type { ModelAsset, PrimitiveAsset } from '../../asset/model-asset.ts';
import { animatedNodes } from '../../asset/animated-nodes.ts';
import { localToModel } from '../../skeleton/local-to-model.ts';
import { mat3, type mat4 } from 'gl-matrix';
import { determinant3x3 } from '../../math/strided-mat4.ts';

/**
 * Most vertices one batch holds: a larger group is split, so no single buffer grows without bound and a
 * batch's indices stay within what `UNSIGNED_INT` addresses on every GPU.
 */
export const MAX_BATCH_VERTICES = 1 << 22;

/**
 * Rigid primitives merged at load into one primitive (docs/guide/large-scenes.md): they share a material, a vertex
 * layout and an anchor node, so one draw call with the anchor's model-space matrix draws them all.
 */
export interface RigidBatch {
  /**
   * Skeleton index of the anchor: the nearest node at or above every member's node that the pose may move
   * (a clip's channel target, a skin joint, or a root, which `applied` root motion moves). The nodes between
   * the anchor and a member never move, so the member's vertices are baked into the anchor's frame.
   */
  readonly anchor: number;
  /**
   * The merged primitive, in the anchor's frame: positions `Rel · v`, normals by Rel's normal matrix, tangents
   * by Rel (w flipped where Rel mirrors), triangles of mirrored members re-wound (glTF 2.0 §3.7.4), indices
   * `Uint32Array`; no joints, weights or morph targets.
   */
  readonly primitive: PrimitiveAsset;
  /**
   * `Int32Array(3·k)`: per member, its mesh instance, its primitive index in the instance's mesh and its first
   * vertex in the merged primitive, in merge order.
   */
  readonly members: Int32Array;
}

/** What {@link planRigidBatches} returns: the batches, and every other (instance, primitive) pair. */
export interface RigidBatchPlan {
  readonly batches: readonly RigidBatch[];
  /**
   * `Int32Array(2·k)`: the pairs (mesh instance, primitive index) drawn one by one, in file order: skinned or
   * morphed primitives, BLEND materials (sorted per primitive each frame), and groups of one. Of the opaque or
   * masked skinned instances of one mesh and skin without morph weights of their own, which coincide, only the
   * first (20 000 nodes instancing one skinned mesh draw once, not 20 000 times).
   */
  readonly singles: Int32Array;
}

/**
 * Nodes the pose may move, `Uint8Array(jointCount)` (1 = moves): the {@link animatedNodes} and every root,
 * which `applied` root motion moves. Other nodes keep their rest transform relative to their parent.
 */
export function drivenNodes(asset: ModelAsset): Uint8Array {
  const driven = animatedNodes(asset);
  const parents = asset.skeleton.parents;
  for (let j = 0; j < driven.length; j++) if (parents[j] < 0) driven[j] = 1;
  return driven;
}

/**
 * Groups a model's rigid primitives into {@link RigidBatch}es: a primitive joins a batch when its instance has
 * no skin, it has no joints and no morph targets, and its material is not BLEND; its group key is (anchor
 * node, material, flat shading, which of TEXCOORD_0, TEXCOORD_1, TANGENT, COLOR_0 it has). A group of one
 * stays single. Each member's transform to its anchor (`Rel`, f32 composition by {@link localToModel} on the
 * rest pose with the anchors cut loose as identity roots) is baked into the merged vertices, so a batch drawn
 * with `modelMatrices[anchor]` puts every vertex where the member's own draw with `modelMatrices[node]`
 * would (tests/unit/gpu/skinning/rigid-batches.test.ts). Runs once at upload; allocates the merged arrays.
 * @param maxVertices most vertices per batch (default {@link MAX_BATCH_VERTICES})
 */
export function planRigidBatches(asset: ModelAsset, maxVertices = MAX_BATCH_VERTICES): RigidBatchPlan {
  const { skeleton } = asset;
  const n = skeleton.jointCount;
  const driven = drivenNodes(asset);
  const anchorOf = new Int32Array(n);
  for (let j = 0; j < n; j++) anchorOf[j] = driven[j] ? j : anchorOf[skeleton.parents[j]];
  const groups = new Map<string, number[]>();
  const singles: number[] = [];
  const instances = asset.meshInstances;
  // Skinned pairs drawn already, by `mesh/primitive/skin`: another instance of them coincides (see RigidBatchPlan.singles).
  const skinnedDrawn = new Set<string>();
  for (let i = 0; i < instances.length; i++) {
    const instance = instances[i];
    const primitives = asset.meshes[instance.mesh].primitives;
    for (let p = 0; p < primitives.length; p++) {
      const key = batchKey(asset, instance.skin, primitives[p], anchorOf[instance.node]);
      if (key === null) {
        if (coincidesWithDrawn(asset, instance, p, skinnedDrawn)) continue;
        singles.push(i, p);
        continue;
      }
      let group = groups.get(key);
      if (!group) groups.set(key, (group = []));
      group.push(i, p);
    }
  }
  const batchable: number[][] = [];
  for (const group of groups.values()) {
    if (group.length > 2) batchable.push(group);
    else singles.push(...group);
  }
  if (batchable.length === 0) return { batches: [], singles: sortedPairs(singles) };
  const relative = relativeToAnchors(asset, driven);
  const batches: RigidBatch[] = [];
  for (const group of batchable) {
    let start = 0;
    while (start < group.length) {
      // Members up to the vertex limit (at least one, whatever its size).
      let end = start, vertices = 0;
      while (end < group.length) {
        const count = asset.meshes[instances[group[end]].mesh].primitives[group[end + 1]].vertexCount;
        if (end > start && vertices + count > maxVertices) break;
        vertices += count;
        end += 2;
      }
      if (end - start === 2) singles.push(group[start], group[start + 1]);
      else batches.push(mergeMembers(asset, group.slice(start, end), anchorOf, relative));
      start = end;
    }
  }
  return { batches, singles: sortedPairs(singles) };
}

/**
 * Whether primitive `p` of `instance` is skinned, opaque or masked, without morph weights of its own, and a pair of
 * the same mesh, primitive and skin is drawn already (`drawn`, which this adds it to otherwise): such instances put
 * the same triangles at the same place (glTF 2.0 §3.7.3: a skinned mesh ignores its node), so one draw gives the
 * same pixels as all of them. BLEND is drawn per instance: copies composite.
 */
function coincidesWithDrawn(asset: ModelAsset, instance: ModelAsset['meshInstances'][number], p: number, drawn: Set<string>): boolean {
  const primitive = asset.meshes[instance.mesh].primitives[p];
  if (instance.skin < 0 || primitive.joints === null || (instance.morphWeightOffset ?? -1) >= 0) return false;
  if (asset.materials[primitive.material]?.alphaMode === 'BLEND') return false;
  const key = `${instance.mesh}/${p}/${instance.skin}`;
  if (drawn.has(key)) return true;
  drawn.add(key);
  return false;
}

/** The group key of a rigid primitive, or null when it is drawn on its own. */
function batchKey(asset: ModelAsset, skin: number, p: PrimitiveAsset, anchor: number): string | null {
  if (skin >= 0 || p.joints !== null || (p.morphTargets?.count ?? 0) > 0) return null;
  const material = asset.materials[p.material];
  if (material?.alphaMode === 'BLEND') return null;
  const layout = (p.uvs ? 1 : 0) | (p.uvs1 ? 2 : 0) | (p.tangents ? 4 : 0) | (p.colors ? 8 : 0) | (p.flatShading ? 16 : 0);
  return `${anchor}/${p.material}/${layout}`;
}

/** `pairs` (instance, primitive) sorted by instance then primitive: file order. */
function sortedPairs(pairs: number[]): Int32Array {
  const order: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) order.push(k);
  order.sort((a, b) => pairs[a] - pairs[b] || pairs[a + 1] - pairs[b + 1]);
  const out = new Int32Array(pairs.length);
  order.forEach((k, m) => {
    out[2 * m] = pairs[k];
    out[2 * m + 1] = pairs[k + 1];
  });
  return out;
}

/**
 * `Float32Array(16·n)`: every node's matrix relative to its anchor (identity for the driven nodes), by the
 * one local-to-model pass on a copy of the skeleton whose driven nodes are roots at the identity.
 */
function relativeToAnchors(asset: ModelAsset, driven: Uint8Array): Float32Array {
  const { skeleton, restPose } = asset;
  const n = skeleton.jointCount;
  const parents = skeleton.parents.slice();
  const translations = restPose.translations.slice(), rotations = restPose.rotations.slice(), scales = restPose.scales.slice();
  for (let j = 0; j < n; j++) {
    if (!driven[j]) continue;
    parents[j] = -1;
    translations.fill(0, 3 * j, 3 * j + 3);
    rotations.set([0, 0, 0, 1], 4 * j);
    scales.fill(1, 3 * j, 3 * j + 3);
  }
  return localToModel(new Float32Array(16 * n), { ...skeleton, parents }, { translations, rotations, scales });
}

/** One batch from `members` (pairs of instance, primitive), each baked by its node's matrix relative to the anchor. */
function mergeMembers(asset: ModelAsset, members: number[], anchorOf: Int32Array, relative: Float32Array): RigidBatch {
  const primitiveOf = (k: number): PrimitiveAsset => asset.meshes[asset.meshInstances[members[k]].mesh].primitives[members[k + 1]];
  const first = primitiveOf(0);
  let vertexCount = 0, indexCount = 0;
  for (let k = 0; k < members.length; k += 2) {
    vertexCount += primitiveOf(k).vertexCount;
    indexCount += primitiveOf(k).indices.length;
  }
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount);
  const tangents = first.tangents ? new Float32Array(4 * vertexCount) : null;
  const uvs = first.uvs ? new Float32Array(2 * vertexCount) : null;
  const uvs1 = first.uvs1 ? new Float32Array(2 * vertexCount) : null;
  const colors = first.colors ? new Float32Array(4 * vertexCount) : null;
  const indices = new Uint32Array(indexCount);
  const memberList = new Int32Array((3 * members.length) / 2);
  const normalMatrix = new Float64Array(9), scratch = new Float64Array(16);
  let base = 0, at = 0;
  for (let k = 0; k < members.length; k += 2) {
    const p = primitiveOf(k);
    const o = 16 * asset.meshInstances[members[k]].node;
    const mirrored = determinant3x3(relative, o) < 0;
    normalMatrixOf(relative, o, normalMatrix, scratch);
    transformPoints(positions, base, p.positions, relative, o);
    transformNormals(normals, base, p.normals, normalMatrix);
    if (tangents && p.tangents) transformTangents(tangents, base, p.tangents, relative, o, mirrored);
    if (uvs && p.uvs) uvs.set(p.uvs, 2 * base);
    if (uvs1 && p.uvs1) uvs1.set(p.uvs1, 2 * base);
    if (colors && p.colors) colors.set(p.colors, 4 * base);
    const source = p.indices;
    for (let t = 0; t < source.length; t += 3) {
      // A mirroring transform turns front faces into back faces: the member's triangles are re-wound instead.
      indices[at + t] = base + source[t];
      indices[at + t + 1] = base + source[mirrored ? t + 2 : t + 1];
      indices[at + t + 2] = base + source[mirrored ? t + 1 : t + 2];
    }
    memberList.set([members[k], members[k + 1], base], (3 * k) / 2);
    at += source.length;
    base += p.vertexCount;
  }
  const primitive: PrimitiveAsset = {
    vertexCount, positions, normals, tangents, uvs, uvs1, colors, joints: null, weights: null, indices,
    material: first.material, flatShading: first.flatShading, morphTargets: null,
  };
  return { anchor: anchorOf[asset.meshInstances[members[0]].node], primitive, members: memberList };
}

/** `out[3·base…] = M · (x, y, z, 1)` for every point of `source`, M the affine matrix at `m[o…o+16)`. */
function transformPoints(out: Float32Array, base: number, source: Float32Array, m: Float32Array, o: number): void {
  for (let i = 0, w = 3 * base; i < source.length; i += 3, w += 3) {
    const x = source[i], y = source[i + 1], z = source[i + 2];
    out[w] = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
    out[w + 1] = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
    out[w + 2] = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
  }
}

/** Unit `N · n` for every normal of `source`, N the column-major 3×3 normal matrix (a zero result stays zero). */
function transformNormals(out: Float32Array, base: number, source: Float32Array, nm: Float64Array): void {
  for (let i = 0, w = 3 * base; i < source.length; i += 3, w += 3) {
    const x = source[i], y = source[i + 1], z = source[i + 2];
    const a = nm[0] * x + nm[3] * y + nm[6] * z, b = nm[1] * x + nm[4] * y + nm[7] * z, c = nm[2] * x + nm[5] * y + nm[8] * z;
    const length = Math.hypot(a, b, c) || 1;
    out[w] = a / length;
    out[w + 1] = b / length;
    out[w + 2] = c / length;
  }
}

/** Unit `mat3(M) · t.xyz` for every tangent of `source`, its w kept, or negated when M mirrors (the bitangent follows). */
function transformTangents(out: Float32Array, base: number, source: Float32Array, m: Float32Array, o: number, mirrored: boolean): void {
  for (let i = 0, w = 4 * base; i < source.length; i += 4, w += 4) {
    const x = source[i], y = source[i + 1], z = source[i + 2];
    const a = m[o] * x + m[o + 4] * y + m[o + 8] * z, b = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z, c = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z;
    const length = Math.hypot(a, b, c) || 1;
    out[w] = a / length;
    out[w + 1] = b / length;
    out[w + 2] = c / length;
    out[w + 3] = mirrored ? -source[i + 3] : source[i + 3];
  }
}

/**
 * The column-major normal matrix (inverse transpose of the upper 3×3) of the matrix at `m[o…o+16)` into `out`
 * (gl-matrix `mat3.normalFromMat4`, as the renderer's rigid draw), or the identity for a singular one (as there).
 */
function normalMatrixOf(m: Float32Array, o: number, out: Float64Array, scratch: Float64Array): void {
  for (let k = 0; k < 16; k++) scratch[k] = m[o + k];
  if (!mat3.normalFromMat4(out as unknown as mat3, scratch as unknown as mat4)) mat3.identity(out as unknown as mat3);
}
