import type { AimAxis, NodeConstraintAsset } from '../../asset/secondary-motion-asset.ts';
import { isIndex, isJsonObject } from './vrm-reading.ts';
import { droppedParameter, droppingPart, nodeCountOf, unitInterval, type SecondaryMotionReading } from './secondary-motion-reading.ts';
import { orderNodeConstraints } from './constraint-order.ts';

/** The `VRMC_node_constraint.specVersion` values read (three-vrm reads the same two). */
const NODE_CONSTRAINT_SPEC_VERSIONS: readonly string[] = ['1.0', '1.0-beta'];

const ROLL_AXES: readonly string[] = ['X', 'Y', 'Z'];
const AIM_AXES: readonly string[] = ['PositiveX', 'NegativeX', 'PositiveY', 'NegativeY', 'PositiveZ', 'NegativeZ'];

/**
 * Every node's `extensions.VRMC_node_constraint` (VRMC_node_constraint 1.0) → {@link NodeConstraintAsset}s in
 * evaluation order (constraint-order.ts): `constraint.roll` (`source`, `rollAxis` X | Y | Z), `constraint.aim`
 * (`source`, `aimAxis` ±X | ±Y | ±Z) or `constraint.rotation` (`source`), the first of them present in that order
 * (three-vrm's), each with `weight` in [0, 1], default 1. Node indices become skeleton joints. Read for any glTF
 * that has them.
 *
 * Bad input is one warning each and that constraint is dropped; the model loads: an extension that is not an
 * object or whose `specVersion` is not 1.0 or 1.0-beta (three-vrm skips it too), no roll / aim / rotation, a source
 * that is not a node, a missing or unknown axis (three-vrm would fall back to X / PositiveX; the schema requires
 * the axis), a weight outside [0, 1] or not a number. A cycle of constraints is one warning and broken by dropping
 * the constraint that closes it.
 */
export function readNodeConstraints(reading: SecondaryMotionReading): NodeConstraintAsset[] {
  const nodes = reading.json.nodes ?? [];
  const read: { constraint: NodeConstraintAsset; where: string; node: number }[] = [];
  nodes.forEach((node, n) => {
    const extension: unknown = isJsonObject(node.extensions) ? node.extensions.VRMC_node_constraint : undefined;
    if (extension === undefined) return;
    const where = `/nodes/${n}/extensions/VRMC_node_constraint`;
    const found = droppingPart(reading, 'the constraint is dropped', () => readConstraint(reading, extension, where, n));
    if (found !== null) read.push({ ...found, node: n });
  });
  const { order, brokenCycles } = orderNodeConstraints(read.map((r) => r.constraint), reading.parents);
  for (const { dropped, cycle } of brokenCycles) {
    const nodesOnCycle = cycle.map((i) => read[i].node);
    reading.warnings.push(`${reading.fileName}: ${read[dropped].where}/source closes a cycle of node constraints (on nodes ${[...nodesOnCycle, nodesOnCycle[0]].join(' → ')}); the constraint is dropped`);
  }
  return order.map((i) => read[i].constraint);
}

/** One node's extension. @throws DroppedPart for anything that drops it (readNodeConstraints lists them) */
function readConstraint(reading: SecondaryMotionReading, extension: unknown, where: string, node: number): { constraint: NodeConstraintAsset; where: string } {
  if (!isJsonObject(extension)) throw droppedParameter(where, extension, 'an object');
  if (typeof extension.specVersion !== 'string' || !NODE_CONSTRAINT_SPEC_VERSIONS.includes(extension.specVersion)) {
    throw droppedParameter(`${where}/specVersion`, extension.specVersion, '1.0');
  }
  const c = extension.constraint;
  if (!isJsonObject(c)) throw droppedParameter(`${where}/constraint`, c, 'an object');
  const kind = (['roll', 'aim', 'rotation'] as const).find((k) => c[k] !== undefined && c[k] !== null);
  if (kind === undefined) throw droppedParameter(`${where}/constraint`, c, 'a roll, aim or rotation constraint');
  const body = c[kind];
  const at = `${where}/constraint/${kind}`;
  if (!isJsonObject(body)) throw droppedParameter(at, body, 'an object');
  if (!isIndex(body.source, nodeCountOf(reading))) throw droppedParameter(`${at}/source`, body.source, 'a node index');
  const joint = reading.jointOfNode[node], source = reading.jointOfNode[body.source];
  const weight = unitInterval(body.weight, 1, `${at}/weight`);
  switch (kind) {
    case 'roll':
      if (typeof body.rollAxis !== 'string' || !ROLL_AXES.includes(body.rollAxis)) throw droppedParameter(`${at}/rollAxis`, body.rollAxis, `one of ${ROLL_AXES.join(', ')}`);
      return { constraint: { kind, node: joint, source, weight, rollAxis: body.rollAxis as 'X' | 'Y' | 'Z' }, where: at };
    case 'aim':
      if (typeof body.aimAxis !== 'string' || !AIM_AXES.includes(body.aimAxis)) throw droppedParameter(`${at}/aimAxis`, body.aimAxis, `one of ${AIM_AXES.join(', ')}`);
      return { constraint: { kind, node: joint, source, weight, aimAxis: body.aimAxis as AimAxis }, where: at };
    case 'rotation':
      return { constraint: { kind, node: joint, source, weight }, where: at };
  }
}
