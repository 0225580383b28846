import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import type { NodeConstraintAsset } from '../../../../src/asset/secondary-motion-asset.ts';
import { orderNodeConstraints } from '../../../../src/loaders/vrm/constraint-order.ts';
import { nodeOfJoint, springTree, treeNode as n } from './spring-tree.ts';

const EXT = 'VRMC_node_constraint';

/** The spring tree with `constraints` (node name → `constraint` object) on its nodes. */
function withConstraints(constraints: Record<string, unknown>, specVersion = '1.0') {
  const b = springTree({}, [EXT]);
  for (const [name, constraint] of Object.entries(constraints)) {
    b.json.nodes[n(name)].extensions = { [EXT]: { specVersion, constraint } };
  }
  return b;
}

/** The constraints as glTF nodes: `kind node←source`, in the order read. */
function described(asset: Awaited<ReturnType<typeof parseGltf>>): string[] {
  const node = nodeOfJoint(asset);
  return asset.secondaryMotion!.nodeConstraints.map((c: NodeConstraintAsset) => `${c.kind} ${node(c.node)}←${node(c.source)}`);
}

describe('VRMC_node_constraint 1.0 → secondaryMotion.nodeConstraints, in evaluation order', () => {
  const constraints = {
    ear: { aim: { source: n('hand'), aimAxis: 'NegativeZ' } },
    hair: { rotation: { source: n('tail1'), weight: 0.25 } },
    tail: { roll: { source: n('hand'), rollAxis: 'X', weight: 0.5 } },
    head: { rotation: { source: n('arm') } },
    twist: { roll: { source: n('hand'), rollAxis: 'Z' } },
  };

  it('reads roll, aim and rotation with their axes and weights (default 1)', async () => {
    const asset = await parseGltf('t.glb', withConstraints(constraints).glb());
    expect(asset.warnings).toEqual([]);
    expect(asset.secondaryMotion!.springBone).toBeNull();
    const node = nodeOfJoint(asset);
    const byNode = new Map(asset.secondaryMotion!.nodeConstraints.map((c) => [node(c.node), { ...c, node: node(c.node), source: node(c.source) }]));
    expect(byNode.get(n('ear'))).toEqual({ kind: 'aim', node: n('ear'), source: n('hand'), weight: 1, aimAxis: 'NegativeZ' });
    expect(byNode.get(n('hair'))).toEqual({ kind: 'rotation', node: n('hair'), source: n('tail1'), weight: 0.25 });
    expect(byNode.get(n('tail'))).toEqual({ kind: 'roll', node: n('tail'), source: n('hand'), weight: 0.5, rollAxis: 'X' });
    expect(byNode.size).toBe(5);
  });

  it('sources first: an aim after the constraints on its source, its source\'s ancestors and its own parent; a rotation after those on its source\'s ancestors; a roll after its source\'s only', async () => {
    const asset = await parseGltf('t.glb', withConstraints(constraints).glb());
    // File order is ear, hair, tail, head, twist. ear (aim) reads hand's world position, below twist, and its own
    // parent head's; hair (rotation) reads tail1, below tail; tail (roll) reads hand's local rotation only.
    expect(described(asset)).toEqual([
      `roll ${n('twist')}←${n('hand')}`, `rotation ${n('head')}←${n('arm')}`, `aim ${n('ear')}←${n('hand')}`,
      `roll ${n('tail')}←${n('hand')}`, `rotation ${n('hair')}←${n('tail1')}`,
    ]);
  });

  it('a cycle: one warning naming the constraint that closes it and the nodes around it; it is dropped, the rest run', async () => {
    const asset = await parseGltf('c.vrm', withConstraints({
      hair: { rotation: { source: n('tail') } }, tail: { rotation: { source: n('hair') } }, head: { roll: { source: n('arm'), rollAxis: 'Y' } },
    }).glb());
    expect(asset.warnings).toEqual([
      `c.vrm: /nodes/${n('tail')}/extensions/${EXT}/constraint/rotation/source closes a cycle of node constraints (on nodes ${n('hair')} → ${n('tail')} → ${n('hair')}); the constraint is dropped`,
    ]);
    expect(described(asset)).toEqual([`rotation ${n('hair')}←${n('tail')}`, `roll ${n('head')}←${n('arm')}`]);
  });

  it('a constraint whose source is its own node is a cycle of one', async () => {
    const asset = await parseGltf('c.vrm', withConstraints({ hair: { roll: { source: n('hair'), rollAxis: 'X' } } }).glb());
    expect(asset.warnings).toEqual([`c.vrm: /nodes/${n('hair')}/extensions/${EXT}/constraint/roll/source closes a cycle of node constraints (on nodes ${n('hair')} → ${n('hair')}); the constraint is dropped`]);
    expect(asset.secondaryMotion).toBeUndefined();
  });
});

describe('VRMC_node_constraint bad input: one warning each, that constraint dropped, the rest loaded', () => {
  const good = { head: { rotation: { source: n('arm') } } };
  const where = (name: string) => `/nodes/${n(name)}/extensions/${EXT}`;
  const cases: [string, Record<string, unknown>, string][] = [
    ['a weight above 1', { tail: { roll: { source: n('hand'), rollAxis: 'X', weight: 2 } } }, `${where('tail')}/constraint/roll/weight is 2, not a number in [0, 1]`],
    ['a weight that is not a number', { tail: { rotation: { source: n('hand'), weight: '1' } } }, `${where('tail')}/constraint/rotation/weight is "1", not a number in [0, 1]`],
    ['a missing roll axis', { tail: { roll: { source: n('hand') } } }, `${where('tail')}/constraint/roll/rollAxis is undefined, not one of X, Y, Z`],
    ['an unknown aim axis', { tail: { aim: { source: n('hand'), aimAxis: 'Up' } } }, `${where('tail')}/constraint/aim/aimAxis is "Up", not one of PositiveX, NegativeX, PositiveY, NegativeY, PositiveZ, NegativeZ`],
    ['a source that is no node', { tail: { aim: { source: 13, aimAxis: 'PositiveX' } } }, `${where('tail')}/constraint/aim/source is 13, not a node index`],
    ['no roll, aim or rotation', { tail: { spin: {} } }, `${where('tail')}/constraint is {"spin":{}}, not a roll, aim or rotation constraint`],
  ];
  for (const [what, bad, warning] of cases) {
    it(what, async () => {
      const asset = await parseGltf('b.vrm', withConstraints({ ...good, ...bad }).glb());
      expect(asset.warnings).toEqual([`b.vrm: ${warning}; the constraint is dropped`]);
      expect(described(asset)).toEqual([`rotation ${n('head')}←${n('arm')}`]);
    });
  }

  it('an unknown specVersion', async () => {
    const asset = await parseGltf('b.vrm', withConstraints(good, '0.1').glb());
    expect(asset.warnings).toEqual([`b.vrm: ${where('head')}/specVersion is "0.1", not 1.0; the constraint is dropped`]);
    expect(asset.secondaryMotion).toBeUndefined();
  });
});

describe('orderNodeConstraints', () => {
  it('a long chain of constraints (each reading the next) is ordered without running out of stack', () => {
    const n = 50_000;
    // Joints in a line; constraint i sits on joint i and reads joint i + 1's roll.
    const parents = Int32Array.from({ length: n + 1 }, (_, j) => j - 1);
    const constraints = Array.from({ length: n }, (_, i): NodeConstraintAsset => ({ kind: 'roll', node: i, source: i + 1, weight: 1, rollAxis: 'X' }));
    const { order, brokenCycles } = orderNodeConstraints(constraints, parents);
    expect(brokenCycles).toEqual([]);
    expect(order).toHaveLength(n);
    expect(order[0]).toBe(n - 1);
    expect(order[n - 1]).toBe(0);
  });
});
