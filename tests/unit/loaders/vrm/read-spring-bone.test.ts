import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { readSpringBone } from '../../../../src/loaders/vrm/read-spring-bone.ts';
import type { SpringBoneAsset } from '../../../../src/asset/secondary-motion-asset.ts';
import { nodeOfJoint, readingOf, springTree, treeNode as n } from './spring-tree.ts';

const EXT = 'VRMC_springBone_extended_collider';
const joint = (node: string, settings: Record<string, unknown> = {}) => ({ node: n(node), ...settings });

/** A VRMC_springBone with every collider shape, two groups and three springs (one with a center). */
function springBone(): any {
  return {
    specVersion: '1.0',
    colliders: [
      { node: n('head'), shape: { sphere: { offset: [0, 0.1, 0], radius: 0.12 } } },
      { node: n('root'), shape: { capsule: { offset: [0, 0.2, 0], tail: [0, 0.5, 0], radius: 0.08 } } },
      // The extended shape wins over the base one.
      { node: n('root'), shape: { sphere: { radius: 0.5 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { plane: { offset: [0, 0.05, 0], normal: [0, 2, 0] } } } } },
      { node: n('head'), shape: { sphere: { radius: 0.5 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { sphere: { offset: [0, 0.1, 0], radius: 0.3, inside: true } } } } },
      { node: n('arm'), shape: { capsule: { radius: 0.5 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { capsule: { offset: [0.01, 0, 0], tail: [0.2, 0, 0], radius: 0.04, inside: true } } } } },
      { node: n('head'), shape: { sphere: { offset: [0, 0, 0.1] } } },
    ],
    colliderGroups: [{ name: 'head', colliders: [0, 3, 5] }, { name: 'body', colliders: [1, 2, 4] }],
    springs: [
      {
        name: 'hair', colliderGroups: [0, 1],
        joints: [
          joint('hair', { hitRadius: 0.02, stiffness: 0.8, gravityPower: 0.3, gravityDir: [0, -2, 0], dragForce: 0.6 }),
          joint('hair1', { hitRadius: 0.01, stiffness: 0.5, gravityPower: 0.2, gravityDir: [3, 0, 4], dragForce: 0.2 }),
          joint('hair2'),
        ],
      },
      { name: 'tail', center: n('root'), joints: [joint('tail'), joint('tail1'), joint('tail2')] },
      // Joints may skip a node: each is a descendant of the one before.
      { joints: [joint('root'), joint('hair1')] },
    ],
  };
}

describe('VRMC_springBone 1.0 → secondaryMotion.springBone', () => {
  it('reads every collider shape (the extended one preferred), the groups, the springs with defaults and a center, in any glTF', async () => {
    const asset = await parseGltf('t.glb', springTree({ VRMC_springBone: springBone() }, ['VRMC_springBone', EXT]).glb());
    expect(asset.warnings).toEqual([]);
    expect(asset.avatar).toBeUndefined();
    const node = nodeOfJoint(asset);
    const bone = asset.secondaryMotion!.springBone!;
    expect(asset.secondaryMotion!.nodeConstraints).toEqual([]);
    expect(bone.colliders.map((c) => ({ node: node(c.node), shape: c.shape }))).toEqual([
      { node: n('head'), shape: { kind: 'sphere', offset: [0, 0.1, 0], radius: 0.12, inside: false } },
      { node: n('root'), shape: { kind: 'capsule', offset: [0, 0.2, 0], tail: [0, 0.5, 0], radius: 0.08, inside: false } },
      { node: n('root'), shape: { kind: 'plane', offset: [0, 0.05, 0], normal: [0, 1, 0] } },
      { node: n('head'), shape: { kind: 'sphere', offset: [0, 0.1, 0], radius: 0.3, inside: true } },
      { node: n('arm'), shape: { kind: 'capsule', offset: [0.01, 0, 0], tail: [0.2, 0, 0], radius: 0.04, inside: true } },
      { node: n('head'), shape: { kind: 'sphere', offset: [0, 0, 0.1], radius: 0, inside: false } },
    ]);
    expect(bone.colliderGroups).toEqual([{ name: 'head', colliders: [0, 3, 5] }, { name: 'body', colliders: [1, 2, 4] }]);
    const springs = bone.springs.map((s) => ({ ...s, center: s.center < 0 ? -1 : node(s.center), joints: s.joints.map((j) => ({ ...j, node: node(j.node) })) }));
    const defaults = { hitRadius: 0, stiffness: 1, gravityPower: 0, gravityDir: [0, -1, 0], dragForce: 0.5 };
    expect(springs).toEqual([
      {
        name: 'hair', colliderGroups: [0, 1], center: -1, virtualTail: null,
        joints: [
          { node: n('hair'), hitRadius: 0.02, stiffness: 0.8, gravityPower: 0.3, gravityDir: [0, -1, 0], dragForce: 0.6 },
          { node: n('hair1'), hitRadius: 0.01, stiffness: 0.5, gravityPower: 0.2, gravityDir: [0.6, 0, 0.8], dragForce: 0.2 },
          { node: n('hair2'), ...defaults },
        ],
      },
      { name: 'tail', colliderGroups: [], center: n('root'), virtualTail: null, joints: ['tail', 'tail1', 'tail2'].map((t) => ({ node: n(t), ...defaults })) },
      { name: '', colliderGroups: [], center: -1, virtualTail: null, joints: [{ node: n('root'), ...defaults }, { node: n('hair1'), ...defaults }] },
    ]);
  });

  it('an extended collider of an unknown specVersion: one warning, the base shape', async () => {
    const json = springBone();
    json.colliders[3].extensions[EXT].specVersion = '2.0';
    const asset = await parseGltf('t.glb', springTree({ VRMC_springBone: json }, ['VRMC_springBone', EXT]).glb());
    expect(asset.warnings).toEqual([`t.glb: /extensions/VRMC_springBone/colliders/3/extensions/${EXT}/specVersion is "2.0", not 1.0; the base shape is used`]);
    expect(asset.secondaryMotion!.springBone!.colliders[3].shape).toEqual({ kind: 'sphere', offset: [0, 0, 0], radius: 0.5, inside: false });
  });

  it('a VRMC_springBone of another specVersion, or not an object: one warning, no springs; the model loads', async () => {
    const other = await parseGltf('t.glb', springTree({ VRMC_springBone: { ...springBone(), specVersion: '0.9' } }).glb());
    expect(other.warnings).toEqual(['t.glb: /extensions/VRMC_springBone/specVersion is "0.9", not 1.0; no spring bones']);
    expect(other.secondaryMotion).toBeUndefined();
    const notObject = await parseGltf('t.glb', springTree({ VRMC_springBone: [1] }).glb());
    expect(notObject.warnings).toEqual(['t.glb: /extensions/VRMC_springBone is [1], not an object; no spring bones']);
  });
});

describe('VRMC_springBone bad input: one warning each, that spring or collider dropped, the rest loaded', () => {
  /** Reads `edit(springBone())` directly (JSON a GLB cannot carry: NaN): the warnings and the asset. */
  async function withEdit(edit: (json: any) => void): Promise<{ warnings: string[]; bone: SpringBoneAsset }> {
    const asset = await parseGltf('t.glb', springTree().glb());
    const json = springBone();
    edit(json);
    const reading = readingOf(asset, { nodes: springTree().json.nodes });
    const bone = readSpringBone(reading, json)!;
    return { warnings: reading.warnings, bone };
  }
  const where = '/extensions/VRMC_springBone';
  const cases: [string, (json: any) => void, string, { springs: number; colliders: number }][] = [
    ['a joint not a descendant of the joint before', (j) => { j.springs[1].joints[1].node = n('hair'); },
      `t.glb: ${where}/springs/1/joints/1/node is node ${n('hair')}, not a descendant of node ${n('tail')} (the joint before); the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a joint on a missing node', (j) => { j.springs[0].joints[2].node = 99; },
      `t.glb: ${where}/springs/0/joints/2/node is 99, not a node index; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a collider on a missing node', (j) => { j.colliders[1].node = 13; },
      `t.glb: ${where}/colliders/1/node is 13, not a node index; the collider is dropped`, { springs: 3, colliders: 5 }],
    ['a collider with no shape', (j) => { j.colliders[0].shape = {}; },
      `t.glb: ${where}/colliders/0/shape is {}, not a sphere or a capsule; the collider is dropped`, { springs: 3, colliders: 5 }],
    ['a NaN radius', (j) => { j.colliders[0].shape.sphere.radius = NaN; },
      `t.glb: ${where}/colliders/0/shape/sphere/radius is NaN, not a number ≥ 0; the collider is dropped`, { springs: 3, colliders: 5 }],
    ['a negative extended capsule radius', (j) => { j.colliders[4].extensions[EXT].shape.capsule.radius = -0.1; },
      `t.glb: ${where}/colliders/4/extensions/${EXT}/shape/capsule/radius is -0.1, not a number ≥ 0; the collider is dropped`, { springs: 3, colliders: 5 }],
    ['a zero plane normal', (j) => { j.colliders[2].extensions[EXT].shape.plane.normal = [0, 0, 0]; },
      `t.glb: ${where}/colliders/2/extensions/${EXT}/shape/plane/normal is [0,0,0], which has length 0 and names no direction; the collider is dropped`, { springs: 3, colliders: 5 }],
    ['a group naming a missing collider', (j) => { j.colliderGroups[0].colliders.push(6); },
      `t.glb: ${where}/colliderGroups/0/colliders/3 is 6, not a collider index; skipped`, { springs: 3, colliders: 6 }],
    ['a spring naming a missing collider group', (j) => { j.springs[0].colliderGroups.push(2); },
      `t.glb: ${where}/springs/0/colliderGroups/2 is 2, not a collider group index; skipped`, { springs: 3, colliders: 6 }],
    ['a NaN hitRadius', (j) => { j.springs[0].joints[0].hitRadius = NaN; },
      `t.glb: ${where}/springs/0/joints/0/hitRadius is NaN, not a number ≥ 0; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a negative stiffness', (j) => { j.springs[0].joints[1].stiffness = -1; },
      `t.glb: ${where}/springs/0/joints/1/stiffness is -1, not a number ≥ 0; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a non-numeric gravityPower', (j) => { j.springs[1].joints[0].gravityPower = '0.5'; },
      `t.glb: ${where}/springs/1/joints/0/gravityPower is "0.5", not a number ≥ 0; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a dragForce above 1', (j) => { j.springs[1].joints[0].dragForce = 1.5; },
      `t.glb: ${where}/springs/1/joints/0/dragForce is 1.5, not a number in [0, 1]; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['an infinite stiffness', (j) => { j.springs[2].joints[0].stiffness = Infinity; },
      `t.glb: ${where}/springs/2/joints/0/stiffness is Infinity, not a number ≥ 0; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a zero-length gravityDir', (j) => { j.springs[0].joints[0].gravityDir = [0, 0, 0]; },
      `t.glb: ${where}/springs/0/joints/0/gravityDir is [0,0,0], which has length 0 and names no direction; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a missing center node', (j) => { j.springs[1].center = -1; },
      `t.glb: ${where}/springs/1/center is -1, not a node index; the spring is dropped`, { springs: 2, colliders: 6 }],
    ['a spring of one joint (no simulated joint)', (j) => { j.springs[2].joints.pop(); },
      `t.glb: ${where}/springs/2/joints has 1 joint; a spring needs a joint and its tail; the spring is dropped`, { springs: 2, colliders: 6 }],
  ];
  for (const [what, edit, warning, left] of cases) {
    it(what, async () => {
      const { warnings, bone } = await withEdit(edit);
      expect(warnings).toEqual([warning]);
      expect(bone.springs).toHaveLength(left.springs);
      expect(bone.colliders).toHaveLength(left.colliders);
    });
  }

  it('a dropped collider leaves its groups (no second warning), and the indices stay right', async () => {
    const { warnings, bone } = await withEdit((j) => { j.colliders[1].node = 99; });
    expect(warnings).toHaveLength(1);
    // File colliders 2 and 4 are now 1 and 3; file collider 1 is gone from the body group.
    expect(bone.colliderGroups[1]).toEqual({ name: 'body', colliders: [1, 3] });
    expect(bone.colliderGroups[0]).toEqual({ name: 'head', colliders: [0, 2, 4] });
  });

  it('through the loader: the model loads with the rest and the warning names the file', async () => {
    const json = springBone();
    json.springs[0].joints[1].node = n('tail');
    const asset = await parseGltf('bad.vrm', springTree({ VRMC_springBone: json }).glb());
    expect(asset.warnings).toEqual([`bad.vrm: ${where}/springs/0/joints/1/node is node ${n('tail')}, not a descendant of node ${n('hair')} (the joint before); the spring is dropped`]);
    expect(asset.secondaryMotion!.springBone!.springs.map((s) => s.name)).toEqual(['tail', '']);
  });
});
