import { mat4, quat } from 'gl-matrix';
import { rawAccessor, type RawGltf } from './gltf-raw.ts';

/**
 * An independent reference for glTF node matrices, written for tests from the glTF 2.0 specification alone
 * (no src/ code): each node's local matrix from its `matrix` or TRS (§3.5.2), TRS channels of one animation
 * sampled at a time as Appendix C says (STEP: the previous key; LINEAR: lerp for translation and scale, slerp
 * along the shorter arc for rotation; CUBICSPLINE: the Hermite spline of the keys and tangents, §C.4; times
 * outside the keys clamp to the end keys), and model space reached by walking the parent chain up to the
 * scene's root (§3.5.3). Everything in f64 (gl-matrix on Float64Arrays).
 */

type Path = 'translation' | 'rotation' | 'scale';
const SIZE: Record<Path, number> = { translation: 3, rotation: 4, scale: 3 };

/** A float accessor's value, de-normalised for the normalized integer types a KHR_mesh_quantization rotation may use. */
function outputs(raw: RawGltf, index: number): number[] {
  const accessor = raw.json.accessors[index];
  const values = rawAccessor(raw, index);
  if (!accessor.normalized) return values;
  const divisor: Record<number, number> = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };
  return values.map((v) => Math.max(v / divisor[accessor.componentType], -1));
}

/** One channel's value at `t` (Appendix C), `size` components. */
function sampleChannel(times: number[], values: number[], interpolation: string, path: Path, t: number): number[] {
  const n = SIZE[path], cubic = interpolation === 'CUBICSPLINE';
  const value = (k: number): number[] => (cubic ? values.slice((3 * k + 1) * n, (3 * k + 2) * n) : values.slice(k * n, k * n + n));
  if (t <= times[0]) return value(0);
  if (t >= times[times.length - 1]) return value(times.length - 1);
  let k = 0;
  while (times[k + 1] <= t) k++;
  const td = times[k + 1] - times[k], s = (t - times[k]) / td;
  let out: number[];
  if (interpolation === 'STEP') {
    out = value(k);
  } else if (cubic) {
    const a = value(k), b = value(k + 1);
    const outTangent = values.slice((3 * k + 2) * n, (3 * k + 3) * n), inTangent = values.slice((3 * (k + 1)) * n, (3 * (k + 1) + 1) * n);
    const s2 = s * s, s3 = s2 * s;
    out = a.map((_, c) => (2 * s3 - 3 * s2 + 1) * a[c] + td * (s3 - 2 * s2 + s) * outTangent[c] + (-2 * s3 + 3 * s2) * b[c] + td * (s3 - s2) * inTangent[c]);
  } else if (path === 'rotation') {
    const q = quat.slerp(new Float64Array(4) as unknown as quat, value(k) as unknown as quat, value(k + 1) as unknown as quat, s);
    out = Array.from(q);
  } else {
    const a = value(k), b = value(k + 1);
    out = a.map((_, c) => a[c] + s * (b[c] - a[c]));
  }
  if (path === 'rotation') {
    const length = Math.hypot(...out);
    out = out.map((c) => c / length);
  }
  return out;
}

/**
 * Model-space matrix (`Float64Array(16)`, column-major) of every node of `raw` at `t` seconds of animation
 * `animation` (−1: the nodes as the file states them), indexed by node.
 */
export function referenceNodeMatrices(raw: RawGltf, animation: number, t: number): Float64Array[] {
  const nodes: any[] = raw.json.nodes;
  const trs = nodes.map((node) => ({
    translation: node.translation ?? [0, 0, 0],
    rotation: node.rotation ?? [0, 0, 0, 1],
    scale: node.scale ?? [1, 1, 1],
  }));
  const animated = new Set<number>();
  if (animation >= 0) {
    const clip = raw.json.animations[animation];
    for (const channel of clip.channels) {
      const path = channel.target.path as Path;
      if (channel.target.node === undefined || !(path in SIZE)) continue;
      const sampler = clip.samplers[channel.sampler];
      const times = rawAccessor(raw, sampler.input);
      trs[channel.target.node][path] = sampleChannel(times, outputs(raw, sampler.output), sampler.interpolation ?? 'LINEAR', path, t);
      animated.add(channel.target.node);
    }
  }
  const local = nodes.map((node, i) => {
    if (node.matrix && !animated.has(i)) return Float64Array.from(node.matrix);
    const m = new Float64Array(16) as unknown as mat4;
    return mat4.fromRotationTranslationScale(m, trs[i].rotation as unknown as quat, trs[i].translation as [number, number, number], trs[i].scale as [number, number, number]) as unknown as Float64Array;
  });
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => (node.children ?? []).forEach((c: number) => (parent[c] = i)));
  const model: (Float64Array | undefined)[] = [];
  const resolve = (i: number): Float64Array => {
    const done = model[i];
    if (done) return done;
    const m = parent[i] < 0 ? local[i] : (mat4.multiply(new Float64Array(16) as unknown as mat4, resolve(parent[i]) as unknown as mat4, local[i] as unknown as mat4) as unknown as Float64Array);
    model[i] = m;
    return m;
  };
  return nodes.map((_, i) => resolve(i));
}
