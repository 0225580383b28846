import { GltfBuilder } from './gltf-builder.ts';

/** Options of {@link skinnedMorphTube}. */
export interface MorphTubeOptions {
  /** Morph targets (POSITION + NORMAL each; TANGENT on target 0), default 3. */
  readonly targets?: number;
  /** Interpolation of clip 0's `weights` channel, default `'LINEAR'`; clip 1 is always CUBICSPLINE. */
  readonly interpolation?: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Skinned (a skin over 2 joints, default) or a rigid morphed tube on a moving node. */
  readonly skinned?: boolean;
}

const RINGS = 6, SIDES = 8, HEIGHT = 2, RADIUS = 0.3;

/**
 * A test model with morph targets: a tube along +Y (6 rings of 8 vertices, height 2, radius 0.3), mesh 0 with
 * n targets — target t pushes ring vertices outward by a bulge centred at height (t+1)·2/(n+1) (scaled by 3/n
 * past 3 targets) and tilts
 * their normals (POSITION + NORMAL deltas), target 0 also turns the tangents (TANGENT) — default mesh weights
 * (0.2, 0, …) overridden by node 0's own (0.1, 0.3, 0, …). Skinned: node 0 carries the mesh and skin 0 over
 * joints node 1 (root, y = 0) and node 2 (child, y = 1), each vertex weighted by its height; clip 0 `bend`
 * animates node 0's weights (`interpolation`) and rotates node 2 about Z; clip 1 `pulse` animates the
 * weights by CUBICSPLINE with non-zero tangents. Rigid: node 0 carries the mesh and is itself rotated.
 */
export function skinnedMorphTube(options: MorphTubeOptions = {}): GltfBuilder {
  const n = options.targets ?? 3;
  const skinned = options.skinned ?? true;
  const interpolation = options.interpolation ?? 'LINEAR';
  const b = new GltfBuilder();
  const count = RINGS * SIDES;
  const positions = new Float32Array(3 * count), normals = new Float32Array(3 * count), tangents = new Float32Array(4 * count);
  const joints = new Uint8Array(4 * count), weights = new Float32Array(4 * count);
  for (let r = 0; r < RINGS; r++) {
    const y = (HEIGHT * r) / (RINGS - 1);
    for (let s = 0; s < SIDES; s++) {
      const v = r * SIDES + s, a = (2 * Math.PI * s) / SIDES;
      positions.set([RADIUS * Math.cos(a), y, RADIUS * Math.sin(a)], 3 * v);
      normals.set([Math.cos(a), 0, Math.sin(a)], 3 * v);
      tangents.set([-Math.sin(a), 0, Math.cos(a), s % 2 === 0 ? 1 : -1], 4 * v);
      const upper = Math.min(1, Math.max(0, y - 0.5));
      joints.set([0, 1, 0, 0], 4 * v);
      weights.set([1 - upper, upper, 0, 0], 4 * v);
    }
  }
  const indices: number[] = [];
  for (let r = 0; r + 1 < RINGS; r++) {
    for (let s = 0; s < SIDES; s++) {
      const a = r * SIDES + s, b2 = r * SIDES + ((s + 1) % SIDES), c = a + SIDES, d = b2 + SIDES;
      indices.push(a, c, b2, b2, c, d);
    }
  }
  const targets: Record<string, number>[] = [];
  for (let t = 0; t < n; t++) {
    const dp = new Float32Array(3 * count), dn = new Float32Array(3 * count), dt = new Float32Array(3 * count);
    const centre = ((t + 1) * HEIGHT) / (n + 1);
    for (let v = 0; v < count; v++) {
      const y = positions[3 * v + 1];
      // Scaled by 3/n past 3 targets, so the summed displacement stays the tube's size however many there are.
      const bulge = 0.25 * Math.exp(-((y - centre) ** 2) / 0.2) * (1 + 0.1 * (t % 3)) * Math.min(1, 3 / n);
      dp.set([bulge * normals[3 * v], 0.05 * bulge * (t % 2 ? 1 : -1), bulge * normals[3 * v + 2]], 3 * v);
      dn.set([0, 0.4 * bulge, 0], 3 * v);
      dt.set([0, 0.3 * bulge, 0], 3 * v);
    }
    const target: Record<string, number> = {
      POSITION: b.accessor(dp, 'VEC3', { min: minOf(dp), max: maxOf(dp) }),
      NORMAL: b.accessor(dn, 'VEC3'),
    };
    if (t === 0) target.TANGENT = b.accessor(dt, 'VEC3');
    targets.push(target);
  }
  const attributes: Record<string, number> = {
    POSITION: b.accessor(positions, 'VEC3', { min: minOf(positions), max: maxOf(positions) }),
    NORMAL: b.accessor(normals, 'VEC3'),
    TANGENT: b.accessor(tangents, 'VEC4'),
  };
  if (skinned) {
    attributes.JOINTS_0 = b.accessor(joints, 'VEC4');
    attributes.WEIGHTS_0 = b.accessor(weights, 'VEC4');
  }
  const defaults = Array.from({ length: n }, (_, t) => (t === 0 ? 0.2 : 0));
  const own = Array.from({ length: n }, (_, t) => (t === 0 ? 0.1 : t === 1 ? 0.3 : 0));

  // Clip 0: weights keys at 0, 1, 2 s (one target rising per key) and a joint rotation.
  const keyTimes = new Float32Array([0, 1, 2]);
  const keyWeights = (k: number, t: number) => (k === 0 ? 0 : t % 3 === k - 1 ? 1 : t % 3 === (k % 3) ? 0.5 : 0.25);
  const linear = new Float32Array(3 * n);
  for (let k = 0; k < 3; k++) for (let t = 0; t < n; t++) linear[k * n + t] = keyWeights(k, t);
  const bendValues = interpolation === 'CUBICSPLINE' ? cubicFrom(linear, n, 3) : linear;
  const times = b.accessor(keyTimes, 'SCALAR', { min: [0], max: [2] });
  const bendWeights = b.accessor(bendValues, 'SCALAR');
  const angle = Math.PI / 5;
  const rotations = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, Math.sin(angle / 2), Math.cos(angle / 2), 0, 0, Math.sin(-angle / 4), Math.cos(-angle / 4)]), 'VEC4');
  // Clip 1: CUBICSPLINE weights, 2 keys (0.5 s, 1.5 s), non-zero tangents.
  const pulse = new Float32Array(2 * 3 * n);
  for (let t = 0; t < n; t++) {
    pulse[0 * n + t] = 0.5 + 0.1 * t;          // key 0 in-tangent
    pulse[1 * n + t] = 0.1 * (t % 4);          // key 0 value
    pulse[2 * n + t] = 1.5 - 0.2 * (t % 5);    // key 0 out-tangent
    pulse[3 * n + t] = -0.8 + 0.05 * t;        // key 1 in-tangent
    pulse[4 * n + t] = 0.9 - 0.1 * (t % 3);    // key 1 value
    pulse[5 * n + t] = 0.3;                    // key 1 out-tangent
  }
  const pulseTimes = b.accessor(new Float32Array([0.5, 1.5]), 'SCALAR', { min: [0.5], max: [1.5] });
  const pulseWeights = b.accessor(pulse, 'SCALAR');

  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: skinned ? [0, 1] : [0] }],
    nodes: skinned
      ? [{ name: 'tube', mesh: 0, skin: 0, weights: own }, { name: 'root', children: [2] }, { name: 'upper', translation: [0, 1, 0] }]
      : [{ name: 'tube', mesh: 0, weights: own, translation: [0.5, 0, 0] }],
    meshes: [{ name: 'tube', primitives: [{ attributes, targets, indices: b.accessor(new Uint16Array(indices), 'SCALAR') }], weights: defaults }],
    ...(skinned ? { skins: [{ joints: [1, 2], inverseBindMatrices: b.accessor(new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1]), 'MAT4') }] } : {}),
    animations: [
      {
        name: 'bend',
        samplers: [{ input: times, output: bendWeights, interpolation }, { input: times, output: rotations }],
        channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }, { sampler: 1, target: { node: skinned ? 2 : 0, path: 'rotation' } }],
      },
      { name: 'pulse', samplers: [{ input: pulseTimes, output: pulseWeights, interpolation: 'CUBICSPLINE' }], channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }] },
    ],
  });
  return b;
}

/** CUBICSPLINE values from per-key values: in-tangent, value, out-tangent per key (tangents ±0.5, so not flat). */
function cubicFrom(values: Float32Array, n: number, keys: number): Float32Array {
  const out = new Float32Array(3 * n * keys);
  for (let k = 0; k < keys; k++) {
    for (let t = 0; t < n; t++) {
      out[(3 * k) * n + t] = 0.5;
      out[(3 * k + 1) * n + t] = values[k * n + t];
      out[(3 * k + 2) * n + t] = -0.5;
    }
  }
  return out;
}

function minOf(a: Float32Array): number[] {
  const m = [Infinity, Infinity, Infinity];
  for (let i = 0; i < a.length; i++) m[i % 3] = Math.min(m[i % 3], a[i]);
  return m;
}

function maxOf(a: Float32Array): number[] {
  const m = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < a.length; i++) m[i % 3] = Math.max(m[i % 3], a[i]);
  return m;
}
