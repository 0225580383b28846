import { describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import { CubicBezierCurve, CubicInterpolant, Vector2 } from 'three';
import type { AnimationChannel, ChannelPath, Interpolation } from '../../../src/asset/animation-clip.ts';
import { keyStride, keyValueOffset, validateAnimationChannel } from '../../../src/asset/animation-clip.ts';
import { findKeyframe, sampleChannel } from './sample-channel-oracle.ts';
import { solveBezierParameter } from '../../../src/animation/samplers/bezier.ts';
import { threeTrack } from './three-oracle.ts';

/** Samples a channel at t through findKeyframe (no hint) and sampleChannel. */
function sample(channel: AnimationChannel, t: number): number[] {
  const c = channel.path === 'rotation' ? 4 : 3;
  const out = new Float32Array(c);
  sampleChannel(channel, t, findKeyframe(channel.times, t, 0), out, 0);
  return Array.from(out);
}

function channel(path: ChannelPath, interpolation: Interpolation, times: number[], values: number[]): AnimationChannel {
  const ch: AnimationChannel = { joint: 0, path, interpolation, times: Float32Array.from(times), values: Float32Array.from(values) };
  validateAnimationChannel(ch, 1, 'test');
  return ch;
}

/** Deterministic pseudo-random numbers in [0, 1) (LCG), so failures reproduce. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Times at many non-key places (and the keys themselves), before, inside and after the key range. */
function probeTimes(times: number[], perInterval = 7): number[] {
  const out = [times[0] - 0.5, times[times.length - 1] + 0.5, ...times];
  for (let k = 0; k + 1 < times.length; k++) {
    for (let j = 1; j <= perInterval; j++) out.push(times[k] + ((times[k + 1] - times[k]) * j) / (perInterval + 1) + 1e-4);
  }
  return out;
}

function randomQuats(n: number, rnd: () => number, flipSigns: boolean): number[] {
  const out: number[] = [];
  let prev = quat.create();
  for (let i = 0; i < n; i++) {
    const axis = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const len = Math.hypot(...axis);
    const step = quat.setAxisAngle(quat.create(), axis.map((x) => x / len) as [number, number, number], rnd() * 1.5);
    prev = quat.multiply(quat.create(), prev, step);
    const sign = flipSigns && rnd() < 0.4 ? -1 : 1;
    out.push(...Array.from(prev, (x) => x * sign));
  }
  return out;
}

describe('keyStride / keyValueOffset / validateAnimationChannel', () => {
  it('give each layout its size and value position', () => {
    expect([keyStride('STEP', 3), keyStride('LINEAR', 4), keyStride('CATMULLROM', 3)]).toEqual([3, 4, 3]);
    expect([keyStride('CUBICSPLINE', 4), keyStride('HERMITE', 3), keyStride('BEZIER', 4)]).toEqual([12, 6, 20]);
    expect([keyValueOffset('CUBICSPLINE', 3), keyValueOffset('BEZIER', 4), keyValueOffset('HERMITE', 3)]).toEqual([3, 8, 0]);
  });

  it('reject wrong value counts, unordered times and bad joints, naming the place', () => {
    const ok: AnimationChannel = { joint: 0, path: 'scale', interpolation: 'HERMITE', times: Float32Array.of(0, 1), values: new Float32Array(12) };
    expect(() => validateAnimationChannel(ok, 1, 'clip a')).not.toThrow();
    expect(() => validateAnimationChannel({ ...ok, values: new Float32Array(6) }, 1, 'clip a')).toThrow(/clip a: HERMITE scale channel with 2 keys needs 12 values, has 6/);
    expect(() => validateAnimationChannel({ ...ok, times: Float32Array.of(1, 1) }, 1, 'clip a')).toThrow(/not strictly increasing/);
    expect(() => validateAnimationChannel(ok, 0, 'clip a')).toThrow(/joint 0 of 0/);
  });
});

describe('STEP and LINEAR against three.js interpolants (independent oracle)', () => {
  const rnd = random(7);
  const times = [0.1, 0.4, 0.45, 1.2, 2, 2.1];
  const vectors = Array.from({ length: 18 }, () => rnd() * 10 - 5);
  const rotations = randomQuats(6, rnd, true);

  for (const interpolation of ['STEP', 'LINEAR'] as const) {
    it(`${interpolation} vectors equal three.js's ${interpolation === 'STEP' ? 'DiscreteInterpolant' : 'LinearInterpolant'}`, async () => {
      const ours = channel('translation', interpolation, times, vectors);
      const three = await threeTrack(3, interpolation, ours.times, ours.values);
      for (const t of probeTimes(times)) {
        const a = sample(ours, t), b = three(t);
        for (let i = 0; i < 3; i++) expect(a[i]).toBeCloseTo(b[i], 5);
      }
    });

    it(`${interpolation} rotations equal three.js's quaternion interpolant (shortest arc)`, async () => {
      const ours = channel('rotation', interpolation, times, rotations);
      const three = await threeTrack(4, interpolation, ours.times, ours.values);
      for (const t of probeTimes(times)) {
        const a = sample(ours, t), b = three(t);
        // Same rotation: q or −q. three.js's slerpFlat also flips to the short arc.
        const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        expect(Math.abs(dot)).toBeCloseTo(1, 5);
        if (interpolation === 'STEP') for (let i = 0; i < 4; i++) expect(a[i]).toBeCloseTo(b[i], 6);
      }
    });
  }
});

describe('CUBICSPLINE (glTF 2.0 Appendix C)', () => {
  it('reproduces a cubic polynomial from its values and derivatives, on uneven keys', () => {
    const f = (t: number) => 0.5 * t ** 3 - 2 * t ** 2 + t - 3;
    const df = (t: number) => 1.5 * t ** 2 - 4 * t + 1;
    const times = [0, 0.3, 1.1, 1.5, 3];
    // Each key: in-tangent, value, out-tangent (one component shown, the others scaled copies).
    const values = times.flatMap((t) => [df(t), 2 * df(t), -df(t), f(t), 2 * f(t), -f(t), df(t), 2 * df(t), -df(t)]);
    const ch = channel('translation', 'CUBICSPLINE', times, values);
    for (const t of probeTimes(times)) {
      const clamped = Math.min(Math.max(t, 0), 3);
      const out = sample(ch, t);
      expect(out[0]).toBeCloseTo(f(clamped), 4);
      expect(out[1]).toBeCloseTo(2 * f(clamped), 4);
      expect(out[2]).toBeCloseTo(-f(clamped), 4);
    }
  });

  it('vectors and rotations equal three.js GLTFLoader\'s CUBICSPLINE interpolants', async () => {
    const rnd = random(11);
    const times = [0, 0.25, 0.9, 1, 1.7];
    const vectors = Array.from({ length: 5 * 9 }, () => rnd() * 4 - 2);
    const q = randomQuats(5, rnd, false);
    const rotations = times.flatMap((_, k) => [
      ...Array.from({ length: 4 }, () => rnd() - 0.5), ...q.slice(4 * k, 4 * k + 4), ...Array.from({ length: 4 }, () => rnd() - 0.5),
    ]);
    for (const [c, values] of [[3, vectors], [4, rotations]] as const) {
      const ours = channel(c === 4 ? 'rotation' : 'translation', 'CUBICSPLINE', times, values);
      const three = await threeTrack(c, 'CUBICSPLINE', ours.times, ours.values);
      for (const t of probeTimes(times)) {
        const a = sample(ours, t), b = three(t);
        for (let i = 0; i < c; i++) expect(a[i]).toBeCloseTo(b[i], 5);
      }
    }
  });
});

describe('HERMITE with explicit per-key tangents', () => {
  it('reproduces a cubic polynomial from its values and derivatives (closed form)', () => {
    const f = (t: number) => -(t ** 3) + 4 * t ** 2 - 2;
    const df = (t: number) => -3 * t ** 2 + 8 * t;
    const times = [0.5, 0.7, 1.6, 2.4];
    const values = times.flatMap((t) => [f(t), 3, t, df(t), 0, 1]); // x = f, y = 3 constant, z = t linear
    const ch = channel('scale', 'HERMITE', times, values);
    for (const t of probeTimes(times)) {
      const u = Math.min(Math.max(t, 0.5), 2.4);
      const out = sample(ch, t);
      expect(out[0]).toBeCloseTo(f(u), 4);
      expect(out[1]).toBeCloseTo(3, 6);
      expect(out[2]).toBeCloseTo(u, 5);
    }
  });

  it('equals CUBICSPLINE whose in- and out-tangents are both the HERMITE tangent', () => {
    const rnd = random(3);
    const times = [0, 1, 1.5, 4];
    const v = Array.from({ length: 12 }, () => rnd());
    const m = Array.from({ length: 12 }, () => rnd() - 0.5);
    const hermite = channel('translation', 'HERMITE', times, times.flatMap((_, k) => [...v.slice(3 * k, 3 * k + 3), ...m.slice(3 * k, 3 * k + 3)]));
    const gltf = channel('translation', 'CUBICSPLINE', times, times.flatMap((_, k) => [...m.slice(3 * k, 3 * k + 3), ...v.slice(3 * k, 3 * k + 3), ...m.slice(3 * k, 3 * k + 3)]));
    for (const t of probeTimes(times)) expect(sample(hermite, t)).toEqual(sample(gltf, t));
  });

  it('normalises rotations', () => {
    const q0 = quat.setAxisAngle(quat.create(), [0, 0, 1], 0.1), q1 = quat.setAxisAngle(quat.create(), [0, 0, 1], 1.3);
    const ch = channel('rotation', 'HERMITE', [0, 1], [...q0, 0, 0, 0.6, 0, ...q1, 0, 0, 0.6, 0]);
    for (const t of [0.2, 0.5, 0.8]) expect(Math.hypot(...sample(ch, t))).toBeCloseTo(1, 6);
  });
});

describe('BEZIER with 2-D handles', () => {
  /** BEZIER keys for c = 3 from per-key [inDt, inValue, value, outDt, outValue], x only (y, z zero). */
  function bezierValues(keys: number[][]): number[] {
    return keys.flatMap(([inDt, inV, v, outDt, outV]) => [inDt, 0, 0, inV, 0, 0, v, 0, 0, outDt, 0, 0, outV, 0, 0]);
  }

  it('handles at thirds on the line between keys give linear interpolation', () => {
    const ch = channel('translation', 'BEZIER', [0, 3], bezierValues([[-1, -9, 0, 1, 3], [-1, 6, 9, 1, 12]]));
    for (const t of [0.2, 1, 1.5, 2.7]) expect(sample(ch, t)[0]).toBeCloseTo(3 * t, 5);
  });

  it('time handles at thirds give the cubic whose Bernstein coefficients are the handle values', () => {
    // f(t) on [1, 3], Δ = 2: Bézier control values f0, f0 + Δ/3·f'0, f1 − Δ/3·f'1, f1.
    const f = (t: number) => t ** 3 - 5 * t + 1, df = (t: number) => 3 * t ** 2 - 5;
    const d = 2;
    const ch = channel('translation', 'BEZIER', [1, 3], bezierValues([
      [-d / 3, 0, f(1), d / 3, f(1) + (d / 3) * df(1)],
      [-d / 3, f(3) - (d / 3) * df(3), f(3), d / 3, 0],
    ]));
    for (const t of probeTimes([1, 3], 15)) expect(sample(ch, t)[0]).toBeCloseTo(f(Math.min(Math.max(t, 1), 3)), 4);
  });

  it('uneven time handles match three.js CubicBezierCurve inverted by bisection on a dense table', () => {
    const rnd = random(5);
    for (let trial = 0; trial < 20; trial++) {
      const t0 = rnd(), dt = 0.2 + 2 * rnd();
      const h1 = rnd() * dt * 0.9, h2 = rnd() * (dt - h1); // h1 + h2 ≤ Δ: no correction needed
      const y = [rnd() * 4 - 2, rnd() * 8 - 4, rnd() * 8 - 4, rnd() * 4 - 2];
      const ch = channel('translation', 'BEZIER', [t0, t0 + dt], bezierValues([[-0.1, 0, y[0], h1, y[1]], [-h2, y[2], y[3], 0.3, 0]]));
      const curve = new CubicBezierCurve(new Vector2(t0, y[0]), new Vector2(t0 + h1, y[1]), new Vector2(t0 + dt - h2, y[2]), new Vector2(t0 + dt, y[3]));
      for (let j = 1; j < 10; j++) {
        const t = t0 + (dt * j) / 10;
        let lo = 0, hi = 1;
        for (let it = 0; it < 60; it++) {
          const mid = 0.5 * (lo + hi);
          if (curve.getPoint(mid).x < t) lo = mid;
          else hi = mid;
        }
        expect(sample(ch, t)[0]).toBeCloseTo(curve.getPoint(0.5 * (lo + hi)).y, 4);
      }
    }
  });

  it('overlong handles are shortened along their direction (Blender correct_bezpart), keeping time monotonic', () => {
    // Δ = 1, h1 = h2 = 1 (sum 2): both scaled by ½ to (0.5, …), values scaled towards their keys.
    const ch = channel('translation', 'BEZIER', [0, 1], bezierValues([[0, 0, 0, 1, 2], [-1, -1, 1, 0, 0]]));
    const curve = new CubicBezierCurve(new Vector2(0, 0), new Vector2(0.5, 1), new Vector2(0.5, 0), new Vector2(1, 1));
    for (const u of [0.1, 0.3, 0.5, 0.77, 0.95]) {
      const p = curve.getPoint(u);
      expect(sample(ch, p.x)[0]).toBeCloseTo(p.y, 4);
    }
  });

  it('solveBezierParameter inverts the time curve, including flat ends where X′ = 0', () => {
    for (const [a, b] of [[0, 1], [0, 0], [1, 1], [0.1, 0.2], [0.9, 0.95], [1 / 3, 2 / 3]]) {
      for (let j = 0; j <= 20; j++) {
        const x = j / 20;
        const u = solveBezierParameter(a, b, x);
        const v = 1 - u;
        expect(3 * v * v * u * a + 3 * v * u * u * b + u ** 3).toBeCloseTo(x, 6);
      }
    }
  });
});

describe('CATMULLROM', () => {
  it('passes through every key and reproduces linear motion on uneven keys', () => {
    const times = [0, 0.2, 0.9, 1.0, 2.5];
    const ch = channel('translation', 'CATMULLROM', times, times.flatMap((t) => [2 * t - 1, 7, -t]));
    for (const t of probeTimes(times)) {
      const u = Math.min(Math.max(t, 0), 2.5);
      const out = sample(ch, t);
      expect(out[0]).toBeCloseTo(2 * u - 1, 5);
      expect(out[1]).toBeCloseTo(7, 5);
      expect(out[2]).toBeCloseTo(-u, 5);
    }
  });

  it('uses tangent (v_{k+1} − v_{k−1})/(t_{k+1} − t_{k−1}) inside and the one-sided secant at the ends', () => {
    const times = [0, 1, 3, 4], v = [0, 2, 1, 5];
    const m = [(2 - 0) / 1, (1 - 0) / 3, (5 - 2) / 3, (5 - 1) / 1];
    const ch = channel('translation', 'CATMULLROM', times, v.flatMap((x) => [x, 0, 0]));
    for (let k = 0; k < 3; k++) {
      for (const s of [0.15, 0.5, 0.85]) {
        const d = times[k + 1] - times[k];
        const h00 = 2 * s ** 3 - 3 * s ** 2 + 1, h10 = s ** 3 - 2 * s ** 2 + s, h01 = -2 * s ** 3 + 3 * s ** 2, h11 = s ** 3 - s ** 2;
        const expected = h00 * v[k] + h10 * d * m[k] + h01 * v[k + 1] + h11 * d * m[k + 1];
        expect(sample(ch, times[k] + s * d)[0]).toBeCloseTo(expected, 5);
      }
    }
  });

  it('equals three.js CubicInterpolant (ZeroCurvatureEnding) on evenly spaced keys', () => {
    const rnd = random(9);
    const times = [0.5, 1, 1.5, 2, 2.5, 3];
    const values = Array.from({ length: 18 }, () => rnd() * 6 - 3);
    const ch = channel('translation', 'CATMULLROM', times, values);
    const three = new CubicInterpolant(Float32Array.from(times), Float32Array.from(values), 3, new Float32Array(3));
    for (const t of probeTimes(times)) {
      const a = sample(ch, t), b = Array.from(three.evaluate(t));
      for (let i = 0; i < 3; i++) expect(a[i]).toBeCloseTo(b[i], 5);
    }
  });

  it('rotations: flipping any key\'s sign (same rotation) changes nothing, and results are unit', () => {
    const rnd = random(13);
    const times = [0, 0.5, 1, 1.5, 2];
    const q = randomQuats(5, rnd, false);
    const flipped = q.map((x, i) => (Math.floor(i / 4) % 2 === 1 ? -x : x));
    const a = channel('rotation', 'CATMULLROM', times, q), b = channel('rotation', 'CATMULLROM', times, flipped);
    for (const t of probeTimes(times)) {
      const qa = sample(a, t), qb = sample(b, t);
      expect(Math.hypot(...qa)).toBeCloseTo(1, 6);
      const dot = qa.reduce((s, x, i) => s + x * qb[i], 0);
      expect(Math.abs(dot)).toBeCloseTo(1, 6);
    }
  });
});

describe('every interpolation clamps outside the keys and handles a single key', () => {
  for (const interpolation of ['STEP', 'LINEAR', 'CUBICSPLINE', 'HERMITE', 'BEZIER', 'CATMULLROM'] as const) {
    it(interpolation, () => {
      const stride = keyStride(interpolation, 3), at = keyValueOffset(interpolation, 3);
      const values = new Float32Array(3 * stride).fill(0.25);
      values.set([1, 2, 3], at);
      values.set([7, 8, 9], 2 * stride + at);
      values.set([4, 5, 6], stride + at);
      const ch: AnimationChannel = { joint: 0, path: 'translation', interpolation, times: Float32Array.of(1, 2, 3), values };
      expect(sample(ch, -4)).toEqual([1, 2, 3]);
      expect(sample(ch, 1)).toEqual([1, 2, 3]);
      expect(sample(ch, 3)).toEqual([7, 8, 9]);
      expect(sample(ch, 30)).toEqual([7, 8, 9]);
      const single: AnimationChannel = { ...ch, times: Float32Array.of(1), values: values.slice(0, stride) };
      expect(sample(single, 0)).toEqual([1, 2, 3]);
      expect(sample(single, 5)).toEqual([1, 2, 3]);
    });
  }
});

describe('LINEAR rotation slerp precision', () => {
  it('stays within 1e-7 of trigonometric slerp (gl-matrix) for angles from 0 to π between keys', () => {
    const rnd = random(21);
    let worst = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const axis = normalize3([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]);
      const q0 = quat.setAxisAngle(quat.create(), axis, rnd() * 6);
      const angle = trial < 100 ? trial * 1e-6 : rnd() * Math.PI; // tiny angles and the whole range
      const axis2 = normalize3([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]);
      const q1 = quat.multiply(quat.create(), q0, quat.setAxisAngle(quat.create(), axis2, angle));
      const ch: AnimationChannel = { joint: 0, path: 'rotation', interpolation: 'LINEAR', times: Float32Array.of(0, 1), values: Float32Array.from([...q0, ...q1]) };
      const s = rnd();
      const ours = sample(ch, s);
      const f0 = quat.fromValues(ch.values[0], ch.values[1], ch.values[2], ch.values[3]);
      const f1 = quat.fromValues(ch.values[4], ch.values[5], ch.values[6], ch.values[7]);
      const exact = quat.slerp(quat.create(), f0, f1, s);
      quat.normalize(exact, exact);
      for (let i = 0; i < 4; i++) worst = Math.max(worst, Math.abs(ours[i] - exact[i]));
    }
    expect(worst).toBeLessThan(1e-7 + 6e-8); // the approximation plus float32 rounding of the output
  });
});

function normalize3(v: number[]): [number, number, number] {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
}
