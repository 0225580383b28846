import type { AnimationChannel } from './animation-clip.ts';
import { componentCount } from './animation-clip.ts';

/**
 * Samples one channel at time `t` (seconds) into `out[offset … offset+c)`, where c = 3 or 4.
 * Before the first key the first value holds, after the last key the last value (glTF 2.0 §3.11).
 *
 * - STEP: value of key k, the last key with `times[k] ≤ t`.
 * - LINEAR: `(1−s)·v_k + s·v_{k+1}`, s = (t − t_k)/(t_{k+1} − t_k); rotations by shortest-arc slerp
 *   (glTF 2.0 Appendix C, "Spherical Linear Interpolation").
 * - CUBICSPLINE: cubic Hermite with Δ = t_{k+1} − t_k,
 *   `p(s) = (2s³−3s²+1)·v_k + (s³−2s²+s)·Δ·b_k + (−2s³+3s²)·v_{k+1} + (s³−s²)·Δ·a_{k+1}`, where b_k is key
 *   k's out-tangent and a_{k+1} key k+1's in-tangent (glTF 2.0 Appendix C); rotations normalised after.
 *
 * @param key the interval index from {@link findKeyframe}
 */
export function sampleChannel(channel: AnimationChannel, t: number, key: number, out: Float32Array, offset: number): void {
  const { times, values, interpolation } = channel;
  const c = componentCount(channel.path);
  const count = times.length;
  const cubic = interpolation === 'CUBICSPLINE';
  // Stride between keys in `values`, and where the value sits inside a key (cubic keys are in, value, out).
  const stride = cubic ? 3 * c : c;
  const valueAt = cubic ? c : 0;
  if (count === 1 || t <= times[0] || t >= times[count - 1]) {
    const k = count === 1 || t <= times[0] ? 0 : count - 1;
    const base = k * stride + valueAt;
    for (let i = 0; i < c; i++) out[offset + i] = values[base + i];
    return;
  }
  const t0 = times[key], t1 = times[key + 1];
  const dt = t1 - t0;
  const s = (t - t0) / dt;
  const a = key * stride + valueAt, b = (key + 1) * stride + valueAt;
  if (interpolation === 'STEP') {
    for (let i = 0; i < c; i++) out[offset + i] = values[a + i];
  } else if (interpolation === 'LINEAR') {
    if (c === 4) slerp(values, a, b, s, out, offset);
    else for (let i = 0; i < c; i++) out[offset + i] = values[a + i] + s * (values[b + i] - values[a + i]);
  } else {
    const s2 = s * s, s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * dt, h01 = -2 * s3 + 3 * s2, h11 = (s3 - s2) * dt;
    const outTangent = a + c; // b_k follows key k's value
    const inTangent = b - c; // a_{k+1} precedes key k+1's value
    for (let i = 0; i < c; i++) {
      out[offset + i] = h00 * values[a + i] + h10 * values[outTangent + i] + h01 * values[b + i] + h11 * values[inTangent + i];
    }
    if (c === 4) normalizeQuat(out, offset);
  }
}

/** Shortest-arc slerp of the unit quaternions at `q[a…a+4)` and `q[b…b+4)` into `out[o…o+4)`. */
function slerp(q: Float32Array, a: number, b: number, s: number, out: Float32Array, o: number): void {
  const ax = q[a], ay = q[a + 1], az = q[a + 2], aw = q[a + 3];
  let bx = q[b], by = q[b + 1], bz = q[b + 2], bw = q[b + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let k0: number, k1: number;
  if (cos > 0.9995) {
    // Nearly parallel: lerp (then normalise) avoids dividing by sin θ ≈ 0.
    k0 = 1 - s;
    k1 = s;
  } else {
    const theta = Math.acos(cos);
    const sin = Math.sin(theta);
    k0 = Math.sin((1 - s) * theta) / sin;
    k1 = Math.sin(s * theta) / sin;
  }
  out[o] = k0 * ax + k1 * bx;
  out[o + 1] = k0 * ay + k1 * by;
  out[o + 2] = k0 * az + k1 * bz;
  out[o + 3] = k0 * aw + k1 * bw;
  normalizeQuat(out, o);
}

function normalizeQuat(out: Float32Array, o: number): void {
  const len = Math.hypot(out[o], out[o + 1], out[o + 2], out[o + 3]);
  if (len > 0) {
    out[o] /= len; out[o + 1] /= len; out[o + 2] /= len; out[o + 3] /= len;
  }
}
