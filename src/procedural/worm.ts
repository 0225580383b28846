import type { AnimationChannel, AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { createLocalPose } from '../skeleton/local-pose.ts';
import { computeInverseBindMatrices } from './bind-matrices.ts';

/** Resolution of a {@link createWorm} worm. */
export interface WormOptions {
  /** Joints of the chain along the body (≥ 2). */
  readonly joints: number;
  /** Rings of vertices along the body (≥ 2). */
  readonly rings: number;
  /** Vertices around each ring (≥ 3). */
  readonly sides: number;
}

/** The crowd bench's characters (bench/gpu-bench.ts, docs/guide/crowds.md): 5 000 vertices on 64 joints, and a low-poly 800 on 16. */
export const WORM_5000: WormOptions = { joints: 64, rings: 250, sides: 20 };
export const WORM_800: WormOptions = { joints: 16, rings: 50, sides: 16 };

/**
 * A worm made in code, the crowd benchmark's character: a tube 2 units long along +z lying on the ground
 * (y ≥ 0), radius 0.12 tapering at both ends, `rings × sides` vertices (no seam, no UVs), skinned to a chain
 * of `joints` joints along its axis, each ring weighted linearly between the two joints around it. Clips:
 * `crawl` (2 s) and `wriggle` (1.2 s), travelling waves of yaw turns down the chain (LINEAR quaternion keys,
 * 15 per second), so every joint moves every frame. Deterministic.
 * @throws RangeError for fewer than 2 joints or rings, or 3 sides, or more than 65 536 vertices
 */
export function createWorm(options: WormOptions): ModelAsset {
  const { joints, rings, sides } = options;
  if (!(joints >= 2 && rings >= 2 && sides >= 3) || rings * sides > 65_536) throw new RangeError(`createWorm: unsupported resolution ${JSON.stringify(options)}`);
  const length = 2, radius = 0.12, segment = length / (joints - 1);
  const skeleton = {
    jointCount: joints,
    names: Array.from({ length: joints }, (_, i) => `segment${i}`),
    parents: Int32Array.from({ length: joints }, (_, i) => i - 1),
    sourceIndices: Int32Array.from({ length: joints }, (_, i) => i),
  };
  const restPose = createLocalPose(joints);
  restPose.translations[1] = radius;
  for (let i = 1; i < joints; i++) restPose.translations[3 * i + 2] = segment;
  const vertexCount = rings * sides;
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount);
  const jointIndices = new Uint8Array(4 * vertexCount), weights = new Float32Array(4 * vertexCount);
  for (let r = 0; r < rings; r++) {
    const z = (length * r) / (rings - 1);
    const taper = Math.sin(Math.PI * Math.min(1, 0.1 + (0.9 * r) / (rings - 1)));
    const u = Math.min(z / segment, joints - 1 - 1e-9), j0 = Math.floor(u), w1 = u - j0;
    for (let s = 0; s < sides; s++) {
      const v = r * sides + s, a = (2 * Math.PI * s) / sides;
      positions.set([radius * taper * Math.cos(a), radius + radius * taper * Math.sin(a), z], 3 * v);
      normals.set([Math.cos(a), Math.sin(a), 0], 3 * v);
      jointIndices.set([j0, Math.min(j0 + 1, joints - 1), 0, 0], 4 * v);
      weights.set([1 - w1, w1, 0, 0], 4 * v);
    }
  }
  const indices = new Uint16Array(6 * (rings - 1) * sides);
  let k = 0;
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = r * sides + s, b = r * sides + ((s + 1) % sides), c = a + sides, d = b + sides;
      indices.set([a, b, c, b, d, c], k);
      k += 6;
    }
  }
  return {
    name: `worm ${vertexCount} vertices, ${joints} joints (generated)`,
    skeleton,
    restPose,
    meshes: [{ name: 'worm', primitives: [{ vertexCount, positions, normals, tangents: null, uvs: null, joints: jointIndices, weights, indices, material: 0 }] }],
    skins: [{ name: 'worm', joints: Int32Array.from({ length: joints }, (_, i) => i), inverseBindMatrices: computeInverseBindMatrices(skeleton, restPose) }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: 0 }],
    materials: [{ name: 'worm', baseColorFactor: [0.85, 0.45, 0.4, 1], baseColorTexture: -1, doubleSided: false }],
    images: [],
    clips: [waveClip('crawl', joints, 2, 0.25, 1), waveClip('wriggle', joints, 1.2, 0.4, 2)],
    upAxis: 'y',
    warnings: [],
  };
}

/** Yaw of joint i at time t: `amplitude·sin(2π(t/duration) − 2π·waves·i/joints)`, keyed at 15 per second. */
function waveClip(name: string, joints: number, duration: number, amplitude: number, waves: number): AnimationClip {
  const keys = Math.round(duration * 15) + 1;
  const times = Float32Array.from({ length: keys }, (_, k) => (duration * k) / (keys - 1));
  const channels: AnimationChannel[] = [];
  for (let i = 1; i < joints; i++) {
    const values = new Float32Array(4 * keys);
    for (let k = 0; k < keys; k++) {
      const angle = amplitude * Math.sin(2 * Math.PI * (times[k] / duration - (waves * i) / joints));
      values.set([0, Math.sin(angle / 2), 0, Math.cos(angle / 2)], 4 * k);
    }
    channels.push({ joint: i, path: 'rotation', interpolation: 'LINEAR', times, values });
  }
  return { name, duration, channels };
}
