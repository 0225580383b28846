import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { drivenNodes, planRigidBatches } from '../../../../src/gpu/skinning/rigid-batches.ts';
import { localToModel } from '../../../../src/skeleton/local-to-model.ts';
import { cloneLocalPose } from '../../../../src/skeleton/local-pose.ts';
import { manyMeshNodes } from '../../../fixtures/large-models.ts';

/** `m[o…o+16)` · (x, y, z, 1), xyz. */
function place(m: Float32Array, o: number, x: number, y: number, z: number): [number, number, number] {
  return [0, 1, 2].map((r) => m[o + r] * x + m[o + 4 + r] * y + m[o + 8 + r] * z + m[o + 12 + r]) as [number, number, number];
}

/** Every batch member's vertices, placed by the anchor's matrix, against the member's own node matrix in `pose`. */
function largestBakeError(asset: ModelAsset, rotate: (pose: ReturnType<typeof cloneLocalPose>) => void): number {
  const plan = planRigidBatches(asset);
  const pose = cloneLocalPose(asset.restPose);
  rotate(pose);
  const model = localToModel(new Float32Array(16 * asset.skeleton.jointCount), asset.skeleton, pose);
  let worst = 0;
  for (const batch of plan.batches) {
    const baked = batch.primitive.positions;
    for (let k = 0; k < batch.members.length; k += 3) {
      const instance = asset.meshInstances[batch.members[k]];
      const source = asset.meshes[instance.mesh].primitives[batch.members[k + 1]];
      const base = batch.members[k + 2];
      for (let v = 0; v < source.vertexCount; v++) {
        const own = place(model, 16 * instance.node, source.positions[3 * v], source.positions[3 * v + 1], source.positions[3 * v + 2]);
        const b = 3 * (base + v);
        const batched = place(model, 16 * batch.anchor, baked[b], baked[b + 1], baked[b + 2]);
        for (let a = 0; a < 3; a++) worst = Math.max(worst, Math.abs(own[a] - batched[a]));
      }
    }
  }
  return worst;
}

describe('rigid batches (docs/guide/large-scenes.md)', () => {
  it('draw calls grow with materials and moving nodes, not with mesh nodes; every primitive is drawn once', async () => {
    const asset = await parseGltf('many.glb', manyMeshNodes(300, { materials: 3, animated: 9 }).glb());
    const plan = planRigidBatches(asset);
    // Static boxes: one batch per material under the root; the spinner's boxes: one per material under it.
    expect(plan.batches).toHaveLength(6);
    // The skinned character alone is drawn by itself.
    expect(Array.from(plan.singles)).toEqual([0, 0]);
    const seen = new Set<string>();
    for (const batch of plan.batches) {
      for (let k = 0; k < batch.members.length; k += 3) seen.add(`${batch.members[k]}/${batch.members[k + 1]}`);
      expect(batch.primitive.indices.length).toBe(36 * (batch.members.length / 3));
      expect(batch.primitive.joints).toBeNull();
    }
    expect(seen.size).toBe(300);
    const spinner = asset.skeleton.names.indexOf('spinner');
    expect(plan.batches.filter((b) => b.anchor === spinner)).toHaveLength(3);
    expect(drivenNodes(asset)[spinner]).toBe(1);
    expect(drivenNodes(asset)[asset.skeleton.names.indexOf('box20')]).toBe(0);
  });

  it('baked vertices placed by the anchor land where the member placed by its own node does, at rest and animated', async () => {
    const asset = await parseGltf('many.glb', manyMeshNodes(120, { materials: 2, animated: 10 }).glb());
    const spinner = asset.skeleton.names.indexOf('spinner');
    const boxes = asset.skeleton.names.indexOf('boxes');
    expect(largestBakeError(asset, () => {})).toBeLessThan(1e-5 * 20);
    // The clip's subtree and the root (root motion) moved.
    const moved = largestBakeError(asset, (pose) => {
      pose.rotations.set([0, Math.SQRT1_2, 0, Math.SQRT1_2], 4 * spinner);
      pose.translations.set([5, 1, -3], 3 * boxes);
    });
    expect(moved).toBeLessThan(1e-5 * 20);
    // Not vacuous: a member's node matrix does differ from its anchor's.
    expect(planRigidBatches(asset).batches.some((b) => b.anchor === spinner)).toBe(true);
  });

  it('re-winds the triangles of a mirrored member and keeps its normals outward', async () => {
    const builder = manyMeshNodes(4, { materials: 1, animated: 0, skinned: false });
    builder.json.nodes.find((n: { name: string }) => n.name === 'box1').scale = [-1, 1, 1];
    const asset = await parseGltf('mirrored.glb', builder.glb());
    const [batch] = planRigidBatches(asset).batches;
    const { positions, normals, indices } = batch.primitive;
    // Every baked triangle's winding normal (counter-clockwise front) agrees with its vertex normals.
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]].map((i) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]]);
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const i = indices[t];
      expect(n[0] * normals[3 * i] + n[1] * normals[3 * i + 1] + n[2] * normals[3 * i + 2]).toBeGreaterThan(0);
    }
  });

  it('keeps BLEND materials one by one, and splits a group at the vertex limit', async () => {
    const builder = manyMeshNodes(6, { materials: 2, animated: 0, skinned: false });
    builder.json.materials[1].alphaMode = 'BLEND';
    const asset = await parseGltf('blend.glb', builder.glb());
    const plan = planRigidBatches(asset);
    expect(plan.batches).toHaveLength(1);
    expect(plan.singles.length / 2).toBe(3);
    // 24 vertices per box: at most two boxes per batch.
    const split = planRigidBatches(asset, 48);
    expect(split.batches.map((b) => b.primitive.vertexCount)).toEqual([48]);
    expect(split.singles.length / 2).toBe(4);
  });
});
