import type { SpringBoneAsset, SpringColliderAsset } from '../asset/secondary-motion-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';

/** Bytes of one record (a group's joint depth) and of one record's state (src/pose/wasm/spring-kernel.as.ts). */
export const SPRING_RECORD_BYTES = 64 + 16 * 46;
export const SPRING_STATE_BYTES = 16 * 12;
/** Matrix slots every layout starts with: two identities, then the model's world matrix. */
export const WORLD_SLOT = 2;

/** One simulated joint of a chain: its node and the tail its bone points at. */
export interface SpringKernelJoint {
  /** Index of the spring in `SpringBoneAsset.springs`, and of the joint in its chain. */
  readonly spring: number;
  readonly index: number;
  readonly node: number;
}

/**
 * A spring kernel's layout, made once from the asset (plain arrays; {@link SpringKernel} copies them into its
 * arena): the matrix program, the colliders, the groups of two chains and their records, in the byte layout
 * src/pose/wasm/spring-kernel.as.ts documents. Offsets are relative to the layout's start.
 */
export interface SpringKernelLayout {
  /** Matrix slots (12 f64 each). */
  readonly slots: number;
  /** `Int32Array(4·ops)`: dst, src, joint (−1: invert), 0. */
  readonly program: Int32Array;
  /** `Float64Array(10·colliders)`: kind, slot, inside, radius, offset xyz, tail or normal xyz. */
  readonly colliders: Float64Array;
  /** `Int32Array(4·groups)`: depth count, first record (index), first entry (index), entry count. */
  readonly groups: Int32Array;
  /** Collider entries: collider index and the lanes (bit 0: lane 0, bit 1: lane 1). */
  readonly entries: Int32Array;
  /** Records (`SPRING_RECORD_BYTES` each). */
  readonly records: ArrayBuffer;
  readonly recordCount: number;
  /** Per record and lane, the simulated joint (or null for a padding lane): state order. */
  readonly lanes: readonly (SpringKernelJoint | null)[];
}

/**
 * Lays out `asset`'s springs for the kernel: chains ordered so that a chain whose joints hang below another
 * chain's joint (or share one, as VRM 0.x branches converted to chains do) runs after it, then paired two to a
 * group (chains with the same collider groups and centre side by side, so one collider list serves both
 * lanes). `rest`: the pose whose rotations are the joints' initial local rotations (three-vrm's
 * `setInitState`), and whose translations place the tails.
 */
export function layoutSpringKernel(asset: SpringBoneAsset, skeleton: Skeleton, rest: LocalPose): SpringKernelLayout {
  const parents = skeleton.parents, n = skeleton.jointCount;
  type Chain = { spring: number; nodes: number[]; tails: (number | null)[]; level: number; key: string };
  const chains: Chain[] = [];
  asset.springs.forEach((spring, s) => {
    const joints = spring.joints, simulated = spring.virtualTail ? joints.length : joints.length - 1;
    if (simulated < 1) return;
    const nodes: number[] = [], tails: (number | null)[] = [];
    for (let k = 0; k < simulated; k++) {
      nodes.push(joints[k].node);
      tails.push(k + 1 < joints.length ? joints[k + 1].node : null);
    }
    chains.push({ spring: s, nodes, tails, level: 0, key: `${spring.center}|${spring.colliderGroups.join(',')}` });
  });
  // Levels: a chain runs after every chain simulating a node above (or at) one of its joints.
  // (A node two chains share belongs to the first: the second runs after it and poses the node last.)
  const chainOf = new Map<number, number>();
  for (let c = 0; c < chains.length; c++) for (const node of chains[c].nodes) if (!chainOf.has(node)) chainOf.set(node, c);
  for (let pass = 0; pass <= chains.length; pass++) {
    let changed = false;
    for (let c = 0; c < chains.length; c++) {
      for (const node of chains[c].nodes) {
        for (let a = node; a >= 0; a = parents[a]) {
          const o = chainOf.get(a);
          if (o !== undefined && o !== c && chains[o].level >= chains[c].level) {
            chains[c].level = chains[o].level + 1;
            changed = true;
          }
        }
      }
    }
    if (!changed) break;
  }
  const order = chains.map((_, c) => c).sort((a, b) => chains[a].level - chains[b].level
    || (chains[a].key < chains[b].key ? -1 : chains[a].key > chains[b].key ? 1 : a - b));
  // Groups: consecutive chains of a level, two at a time.
  const groupChains: [number, number][] = [];
  for (let i = 0; i < order.length;) {
    const a = order[i], b = order[i + 1];
    if (b !== undefined && chains[b].level === chains[a].level) {
      groupChains.push([a, b]);
      i += 2;
    } else {
      groupChains.push([a, -1]);
      i += 1;
    }
  }

  // Matrix slots: 0, 1 identity; 2 world; then every node the springs read, parents first.
  let slots = 3;
  const nodeSlot = new Int32Array(n).fill(-1);
  const ops: number[] = [];
  const springNodes = new Set(chains.flatMap((c) => c.nodes));
  const need = (node: number): number => {
    if (node < 0) return WORLD_SLOT;
    if (nodeSlot[node] >= 0) return nodeSlot[node];
    const above = need(parents[node]);
    const slot = slots++;
    nodeSlot[node] = slot;
    ops.push(slot, above, node, 0);
    return slot;
  };
  for (const node of springNodes) need(node);
  for (const collider of asset.colliders) need(collider.node);
  const centerSlots = new Map<number, [number, number]>();
  for (const chain of chains) {
    const center = asset.springs[chain.spring].center;
    if (center < 0 || centerSlots.has(center)) continue;
    const slot = need(center), inverse = slots++;
    ops.push(inverse, slot, -1, 0);
    centerSlots.set(center, [slot, inverse]);
  }
  // The base and relative matrix of a joint's parent: the nearest spring node above it (its slot is written
  // by the stage) times the local matrices between; or the parent's own slot when no spring node is above.
  const parentOf = (node: number): [number, number] => {
    const p = parents[node];
    if (p < 0) return [WORLD_SLOT, 0];
    const path: number[] = [];
    let a = p;
    while (a >= 0 && !springNodes.has(a)) { path.push(a); a = parents[a]; }
    if (a < 0) return [nodeSlot[p] >= 0 ? nodeSlot[p] : need(p), 0];
    if (path.length === 0) return [nodeSlot[a], 0];
    const rel = slots++;
    path.reverse().forEach((node, k) => ops.push(rel, k === 0 ? 0 : rel, node, 0));
    return [nodeSlot[a], rel];
  };

  // Colliders.
  const colliders = new Float64Array(10 * asset.colliders.length);
  asset.colliders.forEach((collider: SpringColliderAsset, c) => {
    const shape = collider.shape, o = 10 * c;
    colliders[o] = shape.kind === 'sphere' ? 0 : shape.kind === 'capsule' ? 1 : 2;
    colliders[o + 1] = nodeSlot[collider.node];
    colliders[o + 2] = shape.kind !== 'plane' && shape.inside ? 1 : 0;
    colliders[o + 3] = shape.kind !== 'plane' ? shape.radius : 0;
    colliders.set(shape.offset, o + 4);
    if (shape.kind === 'capsule') colliders.set(shape.tail, o + 7);
    if (shape.kind === 'plane') colliders.set(shape.normal, o + 7);
  });

  // Groups, entries and records.
  const groups = new Int32Array(4 * groupChains.length), entries: number[] = [], lanes: (SpringKernelJoint | null)[] = [];
  let recordCount = 0;
  for (const [a, b] of groupChains) recordCount += Math.max(chains[a].nodes.length, b >= 0 ? chains[b].nodes.length : 0);
  const records = new ArrayBuffer(SPRING_RECORD_BYTES * recordCount);
  const words = new Int32Array(records), values = new Float64Array(records);
  let record = 0;
  groupChains.forEach(([a, b], g) => {
    const pair = b >= 0 ? [chains[a], chains[b]] : [chains[a]];
    const depths = Math.max(...pair.map((c) => c.nodes.length));
    const lists = pair.map((c) => asset.springs[c.spring].colliderGroups.flatMap((group) => asset.colliderGroups[group]?.colliders ?? []));
    const first = entries.length / 2;
    if (lists.length === 2 && lists[0].join() === lists[1].join()) for (const c of lists[0]) entries.push(c, 3);
    else lists.forEach((list, lane) => { for (const c of list) entries.push(c, 1 << lane); });
    groups.set([depths, record, first, entries.length / 2 - first], 4 * g);
    for (let d = 0; d < depths; d++, record++) {
      const w = (SPRING_RECORD_BYTES * record) >> 2, v = (SPRING_RECORD_BYTES * record + 64) >> 3;
      words[w + 12] = record;
      let chained = d > 0;
      for (let lane = 0; lane < 2; lane++) {
        const chain = pair[lane];
        if (chain === undefined || d >= chain.nodes.length) {
          // (a padding lane computes from whatever its scratch holds and writes nothing)
          lanes.push(null);
          words[w + 4 * lane] = 0;
          words[w + 8 + lane] = 0;
          words[w + 13 + lane] = 1;
          continue;
        }
        const spring = asset.springs[chain.spring], joint = spring.joints[d], node = chain.nodes[d];
        lanes.push({ spring: chain.spring, index: d, node });
        const [base, rel] = parentOf(node);
        if (rel !== 0 || base !== nodeSlot[chain.nodes[d - 1] ?? -1]) chained = false;
        words.set([base, rel, nodeSlot[node], node], w + 4 * lane);
        const centre = spring.center >= 0 ? centerSlots.get(spring.center)! : [0, 1];
        words[w + 8 + lane] = centre[0];
        words[w + 10 + lane] = 1;
        words[w + 13 + lane] = centre[1];
        if (spring.center >= 0) words[w + 15] = 1;
        // Rest: T·R·S of the node; the tail's initial local position (the tail node's rest translation, or the
        // virtual tail); its offset from the joint through the nodes between (for the bone length).
        const t = rest.translations.subarray(3 * node, 3 * node + 3), q = rest.rotations.subarray(4 * node, 4 * node + 4);
        const s = rest.scales.subarray(3 * node, 3 * node + 3);
        const L = trs(t, q, s);
        const tail = chain.tails[d];
        const child: number[] = tail === null ? [...spring.virtualTail!] : [...rest.translations.subarray(3 * tail, 3 * tail + 3)];
        let offset = child;
        if (tail !== null) {
          let m = trs(rest.translations.subarray(3 * tail, 3 * tail + 3), [0, 0, 0, 1], [1, 1, 1]);
          for (let x = parents[tail]; x !== node && x >= 0; x = parents[x]) {
            m = multiply(trs(rest.translations.subarray(3 * x, 3 * x + 3), rest.rotations.subarray(4 * x, 4 * x + 4), rest.scales.subarray(3 * x, 3 * x + 3)), m);
          }
          offset = [m[9], m[10], m[11]];
        }
        const cl = Math.hypot(child[0], child[1], child[2]);
        const axis = cl > 0 ? child.map((x) => x / cl) : [0, 0, 0];
        const a0 = normalise(linear(L, axis)), u = linear(L, offset);
        const deg = Math.abs(axis[0]) > Math.abs(axis[2]) ? [-axis[1], axis[0], 0, 0] : [0, -axis[2], axis[1], 0];
        const g3 = joint.gravityDir.map((x) => x * joint.gravityPower);
        const fields = [...L, ...a0, ...u, ...axis, q[0], q[1], q[2], q[3], ...child, joint.stiffness, 1 - joint.dragForce,
          ...g3, joint.hitRadius, ...deg, s[0], s[1], s[2]];
        fields.forEach((x, k) => { values[v + 2 * k + lane] = x; });
        new Int32Array(records, SPRING_RECORD_BYTES * record + 64 + 16 * 41 + 8 * lane, 2).fill(-1);
        offset.forEach((x, k) => { values[v + 2 * (42 + k) + lane] = x; });
        if (tail !== null) new Int32Array(records, SPRING_RECORD_BYTES * record + 64 + 16 * 45 + 8 * lane, 2).fill(-1);
      }
      // The joint's parent is the joint one depth up in both lanes: the kernel keeps its matrix from there.
      if (chained) words[w + 12] |= 1 << 30;
    }
  });
  return {
    slots, program: Int32Array.from(ops), colliders, groups, entries: Int32Array.from(entries), records, recordCount, lanes,
  };
}

/** The 3×4 (column-major, 12 numbers) of translation t, rotation q (x y z w) and scale s. */
function trs(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const x2 = x + x, y2 = y + y, z2 = z + z, xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  return [
    (1 - (yy + zz)) * s[0], (xy + wz) * s[0], (xz - wy) * s[0],
    (xy - wz) * s[1], (1 - (xx + zz)) * s[1], (yz + wx) * s[1],
    (xz + wy) * s[2], (yz - wx) * s[2], (1 - (xx + yy)) * s[2],
    t[0], t[1], t[2],
  ];
}

function multiply(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 3; r++) out.push(a[r] * b[3 * c] + a[3 + r] * b[3 * c + 1] + a[6 + r] * b[3 * c + 2] + (c === 3 ? a[9 + r] : 0));
  }
  return out;
}

function linear(m: readonly number[], v: readonly number[]): number[] {
  return [0, 1, 2].map((r) => m[r] * v[0] + m[3 + r] * v[1] + m[6 + r] * v[2]);
}

function normalise(v: readonly number[]): number[] {
  const l = Math.hypot(v[0], v[1], v[2]);
  return l > 0 ? v.map((x) => x / l) : [0, 0, 0];
}
