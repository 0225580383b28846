import { describe, expect, it } from 'vitest';
import type { MotionSkeleton, MotionTrack } from '../../../src/compression/clip-motion.ts';
import { reduceClipKeys, type ReducedTrack } from '../../../src/compression/reduce-keys.ts';

// A chain of 10 joints 0.1 m apart along x, each turning about z. Rotations about one axis compose by adding
// angles, and slerp between two of them turns by the lerped angle, so positions have a closed form here,
// independent of the optimizer's matrices.
const JOINTS = 10, BONE = 0.1, D = 0.03, BOUND = 0.0001, FPS = 30, SECONDS = 4;

function angle(joint: number, t: number): number {
  return 0.3 * Math.sin(2 * Math.PI * 0.1 * t + joint) + 0.00005 * Math.sin(2 * Math.PI * 3 * t + 2 * joint);
}

function axisPoints(): Float64Array {
  return Float64Array.from([D, 0, 0, -D, 0, 0, 0, D, 0, 0, -D, 0, 0, 0, D, 0, 0, -D]);
}

/** The chain, or (`flat`) every joint its own root: each track then measured alone, as a per-track tolerance does. */
function skeleton(flat: boolean): MotionSkeleton {
  const rest = new Float64Array(10 * JOINTS);
  for (let j = 0; j < JOINTS; j++) rest.set([j === 0 ? 0 : BONE, 0, 0, 0, 0, 0, 1, 1, 1, 1], 10 * j);
  return {
    parents: Int32Array.from({ length: JOINTS }, (_, j) => (flat ? -1 : j - 1)),
    subtreeSizes: Int32Array.from({ length: JOINTS }, (_, j) => (flat ? 1 : JOINTS - j)),
    rest, names: Array.from({ length: JOINTS }, (_, j) => `j${j}`), points: Array.from({ length: JOINTS }, axisPoints),
  };
}

function tracks(): MotionTrack[] {
  const keyCount = FPS * SECONDS + 1;
  const times = Float64Array.from({ length: keyCount }, (_, k) => k / FPS);
  return Array.from({ length: JOINTS }, (_, j) => {
    const values = new Float64Array(4 * keyCount);
    times.forEach((t, k) => values.set([0, 0, Math.sin(angle(j, t) / 2), Math.cos(angle(j, t) / 2)], 4 * k));
    return { node: j, path: 'rotation' as const, interpolation: 'LINEAR' as const, times, values };
  });
}

/** Angle of a kept-key track at t: the lerped key angle (slerp about one axis). */
function keptAngle(track: ReducedTrack, t: number): number {
  const { times, values } = track;
  const at = (k: number) => 2 * Math.atan2(values[4 * k + 2], values[4 * k + 3]);
  let k = 0;
  while (k < times.length - 2 && times[k + 1] <= t) k++;
  const u = Math.min(1, Math.max(0, (t - times[k]) / (times[k + 1] - times[k])));
  return at(k) + (at(k + 1) - at(k)) * u;
}

/** Every joint's six virtual points in model space (x y pairs; the z points lie on the joint). */
function chainPoints(angles: number[]): number[] {
  const out: number[] = [];
  let x = 0, y = 0, phi = 0;
  for (let j = 0; j < JOINTS; j++) {
    if (j > 0) { x += BONE * Math.cos(phi); y += BONE * Math.sin(phi); }
    phi += angles[j];
    const c = Math.cos(phi), s = Math.sin(phi);
    out.push(x + D * c, y + D * s, x - D * c, y - D * s, x - D * s, y + D * c, x + D * s, y - D * c, x, y);
  }
  return out;
}

/** Worst distance of any chain point from the source clip's motion (its keys, interpolated) over 1000 even times. */
function chainError(result: ReducedTrack[]): number {
  const source = tracks();
  let worst = 0;
  for (let i = 0; i <= 1000; i++) {
    const t = (SECONDS * i) / 1000;
    const exact = chainPoints(source.map((track) => keptAngle(track, t)));
    const kept = chainPoints(result.map((track) => keptAngle(track, t)));
    for (let p = 0; p < exact.length; p += 2) worst = Math.max(worst, Math.hypot(exact[p] - kept[p], exact[p + 1] - kept[p + 1]));
  }
  return worst;
}

describe('key reduction bounds the error through the hierarchy, not per track', () => {
  it('each track within the bound alone lets the chain\'s leaf exceed it (the gltfpack failure)', () => {
    const perTrack = reduceClipKeys(skeleton(true), tracks(), { maxError: BOUND });
    expect(perTrack.worst.error).toBeLessThanOrEqual(BOUND);
    expect(chainError(perTrack.tracks)).toBeGreaterThan(10 * BOUND);
  });

  it('measured through the chain, every point of every joint stays within the bound and keys are still removed', () => {
    const chain = reduceClipKeys(skeleton(false), tracks(), { maxError: BOUND });
    expect(chainError(chain.tracks)).toBeLessThanOrEqual(BOUND * 1.001);
    expect(chain.worst.error).toBeLessThanOrEqual(BOUND);
    expect(chain.keysAfter).toBeLessThan(chain.keysBefore * 0.75);
    expect(chain.tracks.every((t) => t.times[0] === 0 && t.times[t.times.length - 1] === SECONDS)).toBe(true);
  });

  it('a bound of 0 keeps every key', () => {
    const exact = reduceClipKeys(skeleton(false), tracks(), { maxError: 0 });
    expect(exact.keysAfter).toBe(exact.keysBefore);
    expect(chainError(exact.tracks)).toBeLessThan(1e-12);
  });
});
