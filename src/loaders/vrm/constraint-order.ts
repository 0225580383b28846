import type { NodeConstraintAsset } from '../../asset/secondary-motion-asset.ts';

/** What {@link orderNodeConstraints} found. */
export interface NodeConstraintOrder {
  /** Indices into the constraints given, in evaluation order (dropped ones left out). */
  readonly order: readonly number[];
  /**
   * One entry per cycle broken: `dropped` the constraint that closed it (left out of `order`), `cycle` the
   * constraints around it, from the one first reached to `dropped`.
   */
  readonly brokenCycles: readonly { readonly dropped: number; readonly cycle: readonly number[] }[];
}

/**
 * The evaluation order of node constraints (VRMC_node_constraint 1.0): every constraint after the constraints it
 * reads from. A constraint reads its source's rotation (roll, rotation) or world position (aim), so it depends on
 * the constraint whose destination is the source, and for aim and rotation also on those on the source's
 * ancestors; an aim also reads its destination's world position, so it depends on the constraints on its
 * destination's parent and that parent's ancestors. The walk is three-vrm's (depth first, in the order given,
 * dependencies ancestors first); three-vrm also counts the source's ancestors for roll, which reads only the
 * source's local rotation, so it refuses some files this order takes.
 *
 * A cycle is broken by dropping the constraint whose dependency closes it (the last one reached on the cycle),
 * where three-vrm throws; the caller warns once per entry of `brokenCycles`.
 *
 * @param constraints node and source are skeleton joints
 * @param parents `Int32Array(jointCount)`: the skeleton's parents, −1 for a root
 */
export function orderNodeConstraints(constraints: readonly NodeConstraintAsset[], parents: Int32Array): NodeConstraintOrder {
  const onJoint = new Map<number, number[]>();
  constraints.forEach((c, i) => {
    const list = onJoint.get(c.node);
    if (list) list.push(i);
    else onJoint.set(c.node, [i]);
  });
  const NEW = 0, ON_PATH = 1, DONE = 2, DROPPED = 3;
  const state = new Uint8Array(constraints.length);
  const path: number[] = [];
  const order: number[] = [];
  const brokenCycles: { dropped: number; cycle: number[] }[] = [];

  /** Ancestors of `joint` from its root down, and `joint` itself when `self`. */
  const chainOf = (joint: number, self: boolean): number[] => {
    const chain: number[] = [];
    for (let j = self ? joint : parents[joint]; j >= 0; j = parents[j]) chain.push(j);
    return chain.reverse();
  };
  /** The joints whose constraints `c` waits for. */
  const dependencies = (c: NodeConstraintAsset): number[] => {
    const joints = c.kind === 'roll' ? [c.source] : chainOf(c.source, true);
    if (c.kind === 'aim' && parents[c.node] >= 0) joints.push(...chainOf(parents[c.node], true));
    return joints;
  };
  // Depth first with an explicit stack (a file may chain many constraints): each frame is a constraint on the
  // current path, the constraints it waits for, and how many of them it has visited.
  const stack: { i: number; waitsFor: number[]; next: number }[] = [];
  const enter = (i: number) => {
    state[i] = ON_PATH;
    path.push(i);
    stack.push({ i, waitsFor: dependencies(constraints[i]).flatMap((joint) => onJoint.get(joint) ?? []), next: 0 });
  };
  const leave = () => {
    stack.pop();
    path.pop();
  };
  for (let root = 0; root < constraints.length; root++) {
    if (state[root] !== NEW) continue;
    enter(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next < top.waitsFor.length) {
        const d = top.waitsFor[top.next++];
        if (state[d] === NEW) enter(d);
        else if (state[d] === ON_PATH) {
          // `top` closes the cycle d → … → top → d: it is dropped, and the constraints below it go on without it.
          brokenCycles.push({ dropped: top.i, cycle: path.slice(path.indexOf(d)) });
          state[top.i] = DROPPED;
          leave();
        }
        continue;
      }
      state[top.i] = DONE;
      order.push(top.i);
      leave();
    }
  }
  return { order, brokenCycles };
}
