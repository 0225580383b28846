import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { readVrm0SpringBone } from '../../../../src/loaders/vrm/read-spring-bone-vrm0.ts';
import { readSecondaryMotion } from '../../../../src/loaders/vrm/read-secondary-motion.ts';
import type { SpringBoneAsset } from '../../../../src/asset/secondary-motion-asset.ts';
import { nodeOfJoint, readingOf, springTree, treeNode as n, TREE } from './spring-tree.ts';
import { nodeOfBone, smallVrm0 } from './small-avatar.ts';

/** 7 cm along `t` (three-vrm's virtual tail of a leaf whose own translation is `t`), computed here in f64. */
const sevenCmAlong = (t: readonly number[]) => t.map((x) => (0.07 * x) / Math.hypot(...t));

function secondaryAnimation(): any {
  return {
    colliderGroups: [
      { node: n('head'), colliders: [{ offset: { x: 0.01, y: 0.02, z: 0.03 }, radius: 0.1 }, { offset: { y: 0.1 }, radius: 0.05 }] },
      { node: n('root'), colliders: [{ radius: 0.2 }] },
    ],
    boneGroups: [
      { comment: 'hair', stiffiness: 0.7, gravityPower: 0.1, gravityDir: { x: 0, y: -1, z: 0 }, dragForce: 0.3, hitRadius: 0.02, center: -1, colliderGroups: [0, 1], bones: [n('hair')] },
      { comment: 'tail', bones: [n('tail')], center: n('root'), colliderGroups: [1] },
    ],
  };
}

/** Reads `edit(secondaryAnimation())` over the spring tree: the warnings and the asset, nodes as glTF nodes. */
async function read(edit: (json: any) => void = () => {}): Promise<{ warnings: string[]; bone: SpringBoneAsset; node: (joint: number) => number }> {
  const asset = await parseGltf('old.vrm', springTree().glb());
  const json = secondaryAnimation();
  edit(json);
  const reading = readingOf(asset, { nodes: springTree().json.nodes }, 'old.vrm');
  return { warnings: reading.warnings, bone: readVrm0SpringBone(reading, json)!, node: nodeOfJoint(asset) };
}

describe('VRM 0.x secondaryAnimation → springs, as three-vrm builds its joints', () => {
  it('a branching bone group: one spring per first-child path, each leaf with a 7 cm virtual tail along its own translation', async () => {
    const { warnings, bone, node } = await read();
    expect(warnings).toEqual([]);
    const hair = { hitRadius: 0.02, stiffness: 0.7, gravityPower: 0.1, gravityDir: [0, -1, 0], dragForce: 0.3 };
    // The specification leaves defaults to UniVRM; three-vrm's joint defaults (dragForce 0.4).
    const defaults = { hitRadius: 0, stiffness: 1, gravityPower: 0, gravityDir: [0, -1, 0], dragForce: 0.4 };
    const springs = bone.springs.map((s) => ({ name: s.name, center: s.center < 0 ? -1 : node(s.center), colliderGroups: s.colliderGroups, joints: s.joints.map((j) => ({ ...j, node: node(j.node) })) }));
    expect(springs).toEqual([
      { name: 'hair', center: -1, colliderGroups: [0, 1], joints: ['hair', 'hair1', 'hair2'].map((t) => ({ node: n(t), ...hair })) },
      // hair1's second child starts its own spring, after the one holding hair1.
      { name: 'hair', center: -1, colliderGroups: [0, 1], joints: [{ node: n('hair2b'), ...hair }] },
      { name: 'tail', center: n('root'), colliderGroups: [1], joints: ['tail', 'tail1', 'tail2'].map((t) => ({ node: n(t), ...defaults })) },
    ]);
    const tails = [TREE[n('hair2')][1], TREE[n('hair2b')][1], TREE[n('tail2')][1]].map(sevenCmAlong);
    bone.springs.forEach((s, i) => s.virtualTail!.forEach((x, k) => expect(x, `spring ${i} axis ${k}`).toBeCloseTo(tails[i][k], 8)));
  });

  it('collider groups: spheres on the group\'s node, offset z negated (Unity\'s left-handed axes), missing parts 0', async () => {
    const { bone, node } = await read();
    expect(bone.colliders.map((c) => ({ ...c, node: node(c.node) }))).toEqual([
      { node: n('head'), shape: { kind: 'sphere', offset: [0.01, 0.02, -0.03], radius: 0.1, inside: false } },
      { node: n('head'), shape: { kind: 'sphere', offset: [0, 0.1, 0], radius: 0.05, inside: false } },
      { node: n('root'), shape: { kind: 'sphere', offset: [0, 0, 0], radius: 0.2, inside: false } },
    ]);
    expect(bone.colliderGroups).toEqual([{ name: '', colliders: [0, 1] }, { name: '', colliders: [2] }]);
  });

  it('through the loader on a VRM 0.x: node-local offsets and tails are not turned, gravityDir (world) is kept as the file gives it', async () => {
    const asset = await parseGltf('old.vrm', smallVrm0({
      secondaryAnimation: {
        boneGroups: [{ bones: [nodeOfBone('leftThumb1')], gravityDir: { x: 2, y: 0, z: 0 }, gravityPower: 0.5, colliderGroups: [0] }],
        colliderGroups: [{ node: nodeOfBone('head'), colliders: [{ offset: { x: 0.02, y: 0, z: 0.05 }, radius: 0.1 }] }],
      },
    }).glb());
    expect(asset.warnings).toEqual([]);
    const node = nodeOfJoint(asset);
    const [spring] = asset.secondaryMotion!.springBone!.springs;
    expect(spring.joints.map((j) => node(j.node))).toEqual([nodeOfBone('leftThumb1'), nodeOfBone('leftThumb2')]);
    // Unit length, its length moved into the power: the gravity is the file's vector times its power, as three-vrm's.
    expect(spring.joints[0].gravityDir).toEqual([1, 0, 0]);
    expect(spring.joints[0].gravityPower).toBe(1);
    const expected = sevenCmAlong([0.02, 0, 0.01]);
    spring.virtualTail!.forEach((x, k) => expect(x).toBeCloseTo(expected[k], 8));
    expect(asset.secondaryMotion!.springBone!.colliders[0].shape).toEqual({ kind: 'sphere', offset: [0.02, 0, -0.05], radius: 0.1, inside: false });
  });

  it('a 1.0 VRMC_springBone wins over a 0.x secondaryAnimation; a VRM 1.0 file\'s leftover VRM extension is not read', async () => {
    const asset = await parseGltf('t.glb', springTree().glb());
    const nodes = springTree().json.nodes;
    const v1 = { specVersion: '1.0', springs: [{ joints: [{ node: n('tail') }, { node: n('tail1') }] }] };
    const both = readSecondaryMotion(readingOf(asset, { nodes, extensions: { VRM: { secondaryAnimation: secondaryAnimation() }, VRMC_springBone: v1 } }));
    expect(both!.springBone!.springs.map((s) => s.joints.length)).toEqual([2]);
    const only0 = readSecondaryMotion(readingOf(asset, { nodes, extensions: { VRM: { secondaryAnimation: secondaryAnimation() } } }));
    expect(only0!.springBone!.springs).toHaveLength(3);
    const leftover = readSecondaryMotion(readingOf(asset, { nodes, extensions: { VRMC_vrm: {}, VRM: { secondaryAnimation: secondaryAnimation() } } }));
    expect(leftover).toBeNull();
  });
});

describe('VRM 0.x secondaryAnimation bad input: one warning each, the rest loaded', () => {
  const where = '/extensions/VRM/secondaryAnimation';
  const cases: [string, (json: any) => void, string, { springs: number; colliders: number }][] = [
    ['a collider group on a missing node', (j) => { j.colliderGroups[0].node = 99; },
      `old.vrm: ${where}/colliderGroups/0/node is 99, not a node index; the collider group is dropped`, { springs: 3, colliders: 1 }],
    ['a negative collider radius', (j) => { j.colliderGroups[0].colliders[1].radius = -0.05; },
      `old.vrm: ${where}/colliderGroups/0/colliders/1/radius is -0.05, not a number ≥ 0; the collider is dropped`, { springs: 3, colliders: 2 }],
    ['a NaN collider offset', (j) => { j.colliderGroups[1].colliders[0].offset = { x: NaN }; },
      `old.vrm: ${where}/colliderGroups/1/colliders/0/offset is {"x":null}, not an object of finite x, y, z; the collider is dropped`, { springs: 3, colliders: 2 }],
    ['a NaN stiffiness', (j) => { j.boneGroups[0].stiffiness = NaN; },
      `old.vrm: ${where}/boneGroups/0/stiffiness is NaN, not a number ≥ 0; the bone group is dropped`, { springs: 1, colliders: 3 }],
    ['a negative hitRadius', (j) => { j.boneGroups[1].hitRadius = -1; },
      `old.vrm: ${where}/boneGroups/1/hitRadius is -1, not a number ≥ 0; the bone group is dropped`, { springs: 2, colliders: 3 }],
    ['a dragForce above 1', (j) => { j.boneGroups[1].dragForce = 2; },
      `old.vrm: ${where}/boneGroups/1/dragForce is 2, not a number in [0, 1]; the bone group is dropped`, { springs: 2, colliders: 3 }],
    ['a zero gravityDir', (j) => { j.boneGroups[0].gravityDir = { x: 0, y: 0, z: 0 }; },
      `old.vrm: ${where}/boneGroups/0/gravityDir is [0,0,0], which has length 0 and names no direction; the bone group is dropped`, { springs: 1, colliders: 3 }],
    ['a center that is no node', (j) => { j.boneGroups[1].center = 99; },
      `old.vrm: ${where}/boneGroups/1/center is 99, not a node index or -1; the bone group is dropped`, { springs: 2, colliders: 3 }],
    ['a root that is no node', (j) => { j.boneGroups[1].bones.push(42); },
      `old.vrm: ${where}/boneGroups/1/bones/1 is 42, not a node index; skipped`, { springs: 3, colliders: 3 }],
    ['a missing collider group', (j) => { j.boneGroups[1].colliderGroups.push(5); },
      `old.vrm: ${where}/boneGroups/1/colliderGroups/1 is 5, not a collider group index; skipped`, { springs: 3, colliders: 3 }],
  ];
  for (const [what, edit, warning, left] of cases) {
    it(what, async () => {
      const { warnings, bone } = await read(edit);
      expect(warnings).toEqual([warning]);
      expect(bone.springs).toHaveLength(left.springs);
      expect(bone.colliders).toHaveLength(left.colliders);
    });
  }

  it('a dropped collider group: references to it skipped without a second warning, the others renumbered', async () => {
    const { warnings, bone } = await read((j) => { j.colliderGroups[0].node = 'head'; });
    expect(warnings).toHaveLength(1);
    expect(bone.colliderGroups).toEqual([{ name: '', colliders: [0] }]);
    expect(bone.springs.map((s) => s.colliderGroups)).toEqual([[0], [0], [0]]);
  });
});
