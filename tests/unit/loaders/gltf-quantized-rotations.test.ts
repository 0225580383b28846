/**
 * Quantised rotation keys (normalized BYTE, glTF 2.0 §3.11 / KHR_mesh_quantization) are only about unit length;
 * the Khronos glTF Sample Viewer normalises both keys before it slerps. Sinew normalises every LINEAR / STEP
 * key at load, so the pose equals that rule: checked here against an independent f64 slerp of the normalised
 * keys, on the skinned quad's vertices.
 */
import { describe, expect, it } from 'vitest';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

type Quat = [number, number, number, number];

const unit = (q: number[]): Quat => {
  const length = Math.hypot(...q);
  return q.map((c) => c / length) as Quat;
};
/** glTF 2.0's normalized BYTE encoding of a component: round(c · 127). */
const toByte = (q: Quat): number[] => q.map((c) => Math.round(c * 127));
/** Its decoding (glTF 2.0 §3.11): max(c / 127, −1). */
const fromByte = (b: number[]): Quat => b.map((c) => Math.max(c / 127, -1)) as Quat;

/** Textbook slerp in f64 (Shoemake 1985) with trigonometry from Math: shortest arc, angle from the dot product. */
function slerp(a: Quat, b: Quat, s: number): Quat {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (dot < 0) { dot = -dot; bb = b.map((c) => -c) as Quat; }
  const theta = Math.acos(Math.min(dot, 1));
  const k0 = Math.sin((1 - s) * theta) / Math.sin(theta), k1 = Math.sin(s * theta) / Math.sin(theta);
  return unit(a.map((c, i) => k0 * c + k1 * bb[i]));
}

/** Rotates (x, y, z) by the unit quaternion q. */
function rotate(q: Quat, v: [number, number, number]): [number, number, number] {
  const [x, y, z, w] = q;
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  return [0, 1, 2].map((r) => m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2]) as [number, number, number];
}

/**
 * The quad's vertices when joint1 (at (0, 1, 0), inverse bind T(0, −1, 0)) has rotation q: vertices 0–2 do not
 * move (joint0, or joint1's own origin); vertex 3 (1, 1, 0) is ½ joint0 + ½ joint1: ½ (1, 1, 0) + ½ ((0, 1, 0) + q·(1, 0, 0)).
 */
function quadVertices(q: Quat): number[] {
  const r = rotate(q, [1, 0, 0]);
  return [0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5 + 0.5 * r[0], 1 + 0.5 * r[1], 0.5 * r[2]];
}

const maxDistance = (a: readonly number[], b: readonly number[]): number => {
  let max = 0;
  for (let i = 0; i < a.length; i += 3) max = Math.max(max, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
  return max;
};

describe('normalized BYTE rotation keys', () => {
  // Two keys far apart whose byte forms are a few tenths of a percent off unit length (within the 1 % that
  // passes for float noise, so nothing but this rule normalises them).
  const bytes = [toByte(unit([0.1, 0.7, -0.3, 0.64])), toByte(unit([-0.52, 0.21, 0.6, -0.57]))];
  const keys = bytes.map(fromByte);
  const diagonal = Math.SQRT2; // the quad's bind-pose bounding box, (0, 0, 0)…(1, 1, 0)

  async function load(interpolation: string): Promise<Awaited<ReturnType<typeof parseGltf>>> {
    const b = skinnedQuad();
    const output = b.accessor(Int8Array.from(bytes.flat()), 'VEC4', { normalized: true });
    b.json.animations[0].samplers[0].output = output;
    b.json.animations[0].samplers[0].interpolation = interpolation;
    b.json.extensionsUsed = ['KHR_mesh_quantization'];
    return parseGltf('byte-rotations.gltf', b.gltf());
  }

  it('the keys are off unit length, enough to move the pose (the case can fail)', () => {
    const lengths = keys.map((q) => Math.hypot(...q));
    expect(Math.abs(lengths[0] - 1)).toBeGreaterThan(1e-3);
    expect(Math.abs(lengths[1] - 1)).toBeGreaterThan(1e-3);
    // Slerping the keys as stored (angle from their raw dot product), as Sinew did before: the pose differs
    // from the Sample Viewer's by more than 1e-4 × the diagonal somewhere in the clip.
    let worst = 0;
    for (let s = 0.05; s < 1; s += 0.05) {
      worst = Math.max(worst, maxDistance(quadVertices(slerp(keys[0], keys[1], s)), quadVertices(slerp(unit(keys[0]), unit(keys[1]), s))));
    }
    expect(worst / diagonal).toBeGreaterThan(1e-4);
  });

  it('LINEAR: the pose is the slerp of the normalised keys (the Sample Viewer rule) within 1e-6 × diagonal', async () => {
    const asset = await load('LINEAR');
    expect(asset.warnings.filter((w) => /rotation keys/.test(w))).toEqual([]);
    for (const time of [0, 0.13, 0.37, 0.5, 0.81, 1]) {
      const expected = quadVertices(slerp(unit(keys[0]), unit(keys[1]), time));
      const actual = evaluateModel(asset, 0, time).primitives[0].positions;
      expect(maxDistance(actual, expected) / diagonal).toBeLessThan(1e-6);
    }
  });

  it('STEP: each key is held normalised', async () => {
    const asset = await load('STEP');
    const values = asset.clips[0].channels[0].values;
    for (let k = 0; k < 2; k++) {
      expect(Math.hypot(...values.subarray(4 * k, 4 * k + 4))).toBeCloseTo(1, 6);
      const expected = quadVertices(unit(keys[k]));
      expect(maxDistance(evaluateModel(asset, 0, k === 0 ? 0.5 : 1).primitives[0].positions, expected) / diagonal).toBeLessThan(1e-6);
    }
  });
});
