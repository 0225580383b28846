import { expect } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { Evaluation } from '../../../src/cli/evaluate-model.ts';
import { evaluateModel } from './evaluate-model-reference.ts';

// Vertices of a model and its compressed copy, matched by position: codecs may re-order (and weld) vertices.

/** Index of the nearest point of `to` (x, y, z triples) for each point of `from`. */
export function nearest(from: readonly number[], to: readonly number[]): Int32Array {
  const out = new Int32Array(from.length / 3);
  for (let i = 0; i < from.length; i += 3) {
    let best = Infinity, bestJ = -1;
    for (let j = 0; j < to.length; j += 3) {
      const dx = from[i] - to[j], dy = from[i + 1] - to[j + 1], dz = from[i + 2] - to[j + 2];
      const d = dx * dx + dy * dy + dz * dz;
      if (d < best) { best = d; bestJ = j / 3; }
    }
    out[i / 3] = bestJ;
  }
  return out;
}

/** Diagonal of the box around every primitive's positions of `evaluation`. */
export function diagonal(evaluation: Evaluation): number {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const primitive of evaluation.primitives) {
    for (let i = 0; i < primitive.positions.length; i++) {
      min[i % 3] = Math.min(min[i % 3], primitive.positions[i]);
      max[i % 3] = Math.max(max[i % 3], primitive.positions[i]);
    }
  }
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
}

/** Largest distance between matched vertices of `a` and `b` (primitives paired in order), relative to `scale`. */
export function matchedError(a: Evaluation, b: Evaluation, aToB: Int32Array[], bToA: Int32Array[], scale: number): number {
  let worst = 0;
  a.primitives.forEach((pa, k) => {
    const pb = b.primitives[k];
    const distance = (i: number, j: number) => Math.hypot(pa.positions[3 * i] - pb.positions[3 * j], pa.positions[3 * i + 1] - pb.positions[3 * j + 1], pa.positions[3 * i + 2] - pb.positions[3 * j + 2]);
    aToB[k].forEach((j, i) => { worst = Math.max(worst, distance(i, j)); });
    bToA[k].forEach((i, j) => { worst = Math.max(worst, distance(i, j)); });
  });
  return worst / scale;
}

/**
 * Worst matched error of `decoded` against `original` (÷ the rest pose's diagonal) over the rest pose and 5 times
 * of every clip: vertices matched by nearest position in the rest pose, both ways, so that no decoded vertex
 * strays and no original one is lost.
 */
export function worstMatchedError(original: ModelAsset, decoded: ModelAsset): number {
  const restA = evaluateModel(original, -1, 0), restB = evaluateModel(decoded, -1, 0);
  expect(restB.primitives.map((p) => [p.node, p.mesh, p.primitive, p.skinned])).toEqual(restA.primitives.map((p) => [p.node, p.mesh, p.primitive, p.skinned]));
  const aToB = restA.primitives.map((p, k) => nearest(p.positions, restB.primitives[k].positions));
  const bToA = restB.primitives.map((p, k) => nearest(p.positions, restA.primitives[k].positions));
  const scale = diagonal(restA);
  let worst = matchedError(restA, restB, aToB, bToA, scale);
  expect(decoded.clips.map((c) => c.name)).toEqual(original.clips.map((c) => c.name));
  original.clips.forEach((clip, c) => {
    for (const fraction of [0, 0.23, 0.5, 0.77, 1]) {
      const time = fraction * clip.duration;
      worst = Math.max(worst, matchedError(evaluateModel(original, c, time), evaluateModel(decoded, c, time), aToB, bToA, scale));
    }
  });
  return worst;
}
