import type { TentacleRig } from './octopus-rig.ts';

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(Math.max((x - edge0) / (edge1 - edge0), 0), 1);
  return t * t * (3 - 2 * t);
}

/** Arc length (metres) over which a tentacle's base blends from the head joint into its chain. */
export const HEAD_BLEND: readonly [number, number] = [-0.02, 0.1];

/**
 * Skin influences of a tentacle surface point at arc length s (metres along the rest centre line):
 * linear blend between the two chain joints whose arc lengths bracket s (weight 1 on the last joint past
 * it), and near the base a smooth blend with the head joint (weight 1 on the head at s ≤ −0.02 m, 0 from
 * s ≥ 0.1 m). At most 3 non-zero influences; the weights sum to 1.
 *
 * @param joints `Uint16Array(4)`, receives skin joint indices (skin joint = skeleton joint here)
 * @param weights `Float64Array(4)`, receives the matching weights; unused slots are left as they are (0)
 * @param headJoint skin index of the head joint
 */
export function tentacleInfluences(
  joints: Uint16Array,
  weights: Float64Array,
  tentacle: TentacleRig,
  s: number,
  headJoint: number,
): void {
  const arcs = tentacle.jointArcLengths;
  const last = arcs.length - 1;
  const head = 1 - smoothstep(HEAD_BLEND[0], HEAD_BLEND[1], s);
  let slot = 0;
  if (head > 0) {
    joints[slot] = headJoint;
    weights[slot++] = head;
  }
  if (head >= 1) return;
  const rest = 1 - head;
  if (s >= arcs[last]) {
    joints[slot] = tentacle.joints[last];
    weights[slot] = rest;
    return;
  }
  let j = 0;
  while (j < last - 1 && s >= arcs[j + 1]) j++;
  const f = Math.min(Math.max((s - arcs[j]) / (arcs[j + 1] - arcs[j]), 0), 1);
  joints[slot] = tentacle.joints[j];
  weights[slot++] = rest * (1 - f);
  joints[slot] = tentacle.joints[j + 1];
  weights[slot] = rest * f;
}
