import { clipSampleTimes, linearKeysOf, sampleTrack, strideOf, trsOffsetOf, type MotionSkeleton, type MotionTrack } from './clip-motion.ts';
import { composeMatrix, interpolateKey, multiplyAffine, pointDistance } from './trs-math.ts';

/** Options of {@link reduceClipKeys}. */
export interface ReduceKeysOptions {
  /** The bound: the largest distance any measured point may move from where the source puts it, metres (≥ 0). */
  readonly maxError: number;
  /**
   * Rounds rotation key values to what a normalized signed 16-bit accessor holds (glTF 2.0 §3.11: rotation outputs
   * may be normalized SHORT), before the error is measured, so the quantisation counts towards the bound.
   */
  readonly quantizeRotations?: boolean;
  /**
   * Budget steps: in round r of R every track may remove keys while the whole skeleton's error stays ≤ maxError·r/R.
   * More rounds share the bound more evenly between a parent and its descendants; default 4.
   */
  readonly rounds?: number;
}

/** Where an error was measured. */
export interface ErrorPlace {
  /** Metres. */
  readonly error: number;
  /** Node in {@link MotionSkeleton} order, −1 when nothing was measured. */
  readonly node: number;
  /** Seconds into the clip. */
  readonly time: number;
}

/** A track's LINEAR keys after {@link reduceClipKeys}. */
export interface ReducedTrack {
  readonly times: Float64Array;
  /** Stride 3 or 4 per key; quantised values when rotations were quantised. */
  readonly values: Float64Array;
}

/** What {@link reduceClipKeys} returns. */
export interface ReducedClip {
  /** One per input track, same order. */
  readonly tracks: ReducedTrack[];
  /** Keys of the input tracks (CUBICSPLINE: one per key, not per tangent). */
  readonly keysBefore: number;
  readonly keysAfter: number;
  /** The worst error of the result over the sample times, and where. */
  readonly worst: ErrorPlace;
  /** The worst error of every key kept (after quantising, if asked), before any key was removed. */
  readonly floor: ErrorPlace;
}

/** Rounds a unit quaternion's components to normalized signed 16-bit steps (glTF 2.0 §3.11.2 decoding: c / 32767). */
export function quantizeRotationKeys(values: Float64Array): void {
  for (let i = 0; i < values.length; i++) values[i] = Math.max(-32767, Math.min(32767, Math.round(values[i] * 32767))) / 32767;
}

/**
 * Removes keys from a clip's tracks while the error of every measured point of every node stays ≤ the bound
 * (the error metric of ACL, the Animation Compression Library: virtual vertices carried by each joint, measured
 * in model space through the whole hierarchy, so a parent's error moves its children's points — not per track as
 * gltfpack does). Works on the tracks' LINEAR forms ({@link linearKeysOf}); the error is measured at
 * {@link clipSampleTimes} against the source tracks with their own interpolation, in double precision.
 *
 * Per track, from its first key, it keeps the furthest key b such that interpolating key a to key b, all keys
 * between dropped, keeps every node in the track's subtree within the round's budget at every sample time between
 * them (other tracks as they are at that moment); b is found by doubling then bisection, and every accepted span
 * is one that was measured. First and last keys stay.
 * @param skeleton the nodes (pre-order) and their measured points
 * @param tracks the clip's node tracks (morph weights are not passed)
 */
export function reduceClipKeys(skeleton: MotionSkeleton, tracks: readonly MotionTrack[], options: ReduceKeysOptions): ReducedClip {
  const state = new ReductionState(skeleton, tracks, options.quantizeRotations === true);
  const floor = state.worst();
  const rounds = Math.max(1, options.rounds ?? 4);
  if (floor.error <= options.maxError) {
    // Leaves first: their span tests are cheap, and what they use of the budget the parents then see.
    const order = tracks.map((_, i) => i).sort((a, b) => tracks[b].node - tracks[a].node);
    for (let r = 1; r <= rounds; r++) {
      const budget = floor.error + ((options.maxError - floor.error) * r) / rounds;
      for (const i of order) state.reduceTrack(i, budget);
    }
    state.restoreUnprofitable(options.maxError, options.quantizeRotations === true);
  }
  const keysBefore = tracks.reduce((sum, t) => sum + t.times.length, 0);
  const result = state.result();
  return { tracks: result, keysBefore, keysAfter: result.reduce((sum, t) => sum + t.times.length, 0), worst: state.worst(), floor };
}

/** The caller-owned working state of one reduction: reference and current poses at every sample time. */
class ReductionState {
  readonly sampleTimes: Float64Array;
  private readonly nodeCount: number;
  private readonly refWorld: Float64Array;
  private readonly curTrs: Float64Array;
  private readonly curLocal: Float64Array;
  private readonly curWorld: Float64Array;
  private readonly keyTimes: Float64Array[];
  private readonly keyValues: Float64Array[];
  /** Sample index of each working key's time. */
  private readonly keySamples: Int32Array[];
  private readonly kept: Uint8Array[];
  private readonly scratchWorld: Float64Array;
  private readonly scratchTrs = new Float64Array(10);
  private readonly scratchLocal = new Float64Array(16);

  constructor(private readonly skeleton: MotionSkeleton, private readonly tracks: readonly MotionTrack[], quantize: boolean) {
    const n = skeleton.parents.length;
    this.nodeCount = n;
    const times = clipSampleTimes(tracks);
    this.sampleTimes = times;
    const s = times.length;
    this.refWorld = new Float64Array(s * n * 16);
    this.curTrs = new Float64Array(s * n * 10);
    this.curLocal = new Float64Array(s * n * 16);
    this.curWorld = new Float64Array(s * n * 16);
    this.scratchWorld = new Float64Array(n * 16);
    for (let i = 0; i < s; i++) this.curTrs.set(skeleton.rest, i * n * 10);
    // Reference: the source tracks with their own interpolation.
    for (const track of tracks) {
      const at = trsOffsetOf(track.path);
      for (let i = 0; i < s; i++) sampleTrack(track, times[i], this.curTrs, (i * n + track.node) * 10 + at);
    }
    for (let i = 0; i < s; i++) this.updateNodes(i, 0, n);
    this.refWorld.set(this.curWorld);
    // Working keys: LINEAR forms, quantised if asked; the current pose is what they give.
    this.keyTimes = []; this.keyValues = []; this.keySamples = []; this.kept = [];
    for (const track of tracks) {
      const keys = linearKeysOf(track, times);
      if (quantize && track.path === 'rotation') quantizeRotationKeys(keys.values);
      this.keyTimes.push(keys.times);
      this.keyValues.push(keys.values);
      this.keySamples.push(Int32Array.from(keys.times, (t) => lowerBound(times, t)));
      this.kept.push(new Uint8Array(keys.times.length).fill(1));
    }
    // The working keys' pose at every sample, then every node's matrices once.
    for (let i = 0; i < tracks.length; i++) this.writeKept(i);
    for (let i = 0; i < s; i++) this.updateNodes(i, 0, n);
  }

  /** Writes track i's value from its kept keys at every sample (clamped outside its keys) into the current pose, matrices not updated. */
  private writeKept(i: number): void {
    const track = this.tracks[i], times = this.keyTimes[i], values = this.keyValues[i], kept = this.kept[i], stride = strideOf(track.path);
    const at = trsOffsetOf(track.path), n = this.nodeCount, last = times.length - 1;
    let a = 0;
    for (let s = 0; s < this.sampleTimes.length; s++) {
      const t = this.sampleTimes[s], o = (s * n + track.node) * 10 + at;
      if (t <= times[0] || t >= times[last]) {
        const key = t <= times[0] ? 0 : last;
        for (let c = 0; c < stride; c++) this.curTrs[o + c] = values[key * stride + c];
        continue;
      }
      // a: the last kept key at or before t; b: the next kept key.
      let b = a + 1;
      while (!kept[b]) b++;
      while (times[b] <= t && b < last) {
        a = b;
        b++;
        while (!kept[b]) b++;
      }
      interpolateKey(this.curTrs, o, values, a, b, Math.min(1, (t - times[a]) / (times[b] - times[a])), stride);
    }
  }

  /** Recomputes local and model-space matrices of nodes [first, first + count) at sample s (parents first). */
  private updateNodes(s: number, first: number, count: number): void {
    const n = this.nodeCount, base = s * n, parents = this.skeleton.parents;
    for (let j = first; j < first + count; j++) {
      composeMatrix(this.curLocal, (base + j) * 16, this.curTrs, (base + j) * 10);
      const p = parents[j];
      if (p < 0) this.curWorld.set(this.curLocal.subarray((base + j) * 16, (base + j) * 16 + 16), (base + j) * 16);
      else multiplyAffine(this.curWorld, (base + j) * 16, this.curWorld, (base + p) * 16, this.curLocal, (base + j) * 16);
    }
  }

  /**
   * Sets track i to interpolate key a to key b over the samples strictly between them (and, with `mark`, drops
   * the kept keys in between).
   */
  private applySpan(i: number, a: number, b: number, mark: boolean): void {
    const track = this.tracks[i], times = this.keyTimes[i], values = this.keyValues[i], stride = strideOf(track.path);
    const at = trsOffsetOf(track.path), n = this.nodeCount, size = this.skeleton.subtreeSizes[track.node];
    const sa = this.keySamples[i][a], sb = this.keySamples[i][b];
    for (let s = sa; s <= sb; s++) {
      const u = Math.min(1, Math.max(0, (this.sampleTimes[s] - times[a]) / (times[b] - times[a])));
      interpolateKey(this.curTrs, (s * n + track.node) * 10 + at, values, a, b, u, stride);
      this.updateNodes(s, track.node, size);
    }
    if (mark) this.kept[i].fill(0, a + 1, b);
  }

  /** The largest error, over the samples strictly between keys a and b, of track i's subtree if it interpolated a to b; stops early past `budget`. */
  private spanError(i: number, a: number, b: number, budget: number): number {
    const track = this.tracks[i], times = this.keyTimes[i], values = this.keyValues[i], stride = strideOf(track.path);
    const at = trsOffsetOf(track.path), n = this.nodeCount, j = track.node, size = this.skeleton.subtreeSizes[j];
    const parents = this.skeleton.parents, points = this.skeleton.points;
    const trs = this.scratchTrs, local = this.scratchLocal, world = this.scratchWorld;
    let worst = 0;
    for (let s = this.keySamples[i][a] + 1; s < this.keySamples[i][b]; s++) {
      const base = s * n;
      trs.set(this.curTrs.subarray((base + j) * 10, (base + j) * 10 + 10));
      interpolateKey(trs, at, values, a, b, (this.sampleTimes[s] - times[a]) / (times[b] - times[a]), stride);
      composeMatrix(local, 0, trs, 0);
      if (parents[j] < 0) world.set(local);
      else multiplyAffine(world, 0, this.curWorld, (base + parents[j]) * 16, local, 0);
      for (let c = 0; c < size; c++) {
        if (c > 0) {
          const p = parents[j + c] - j;
          multiplyAffine(world, 16 * c, world, 16 * p, this.curLocal, (base + j + c) * 16);
        }
        const e = pointsError(world, 16 * c, this.refWorld, (base + j + c) * 16, points[j + c]);
        if (e > worst) {
          worst = e;
          if (worst > budget) return worst;
        }
      }
    }
    return worst;
  }

  /** One pass over track i: drops every key it can while the error stays ≤ budget. */
  reduceTrack(i: number, budget: number): void {
    const keptIndices: number[] = [];
    this.kept[i].forEach((k, index) => { if (k) keptIndices.push(index); });
    const count = keptIndices.length;
    let p = 0;
    while (p < count - 2) {
      const fits = (q: number) => this.spanError(i, keptIndices[p], keptIndices[q], budget) <= budget;
      // Doubling: spans of 2, 4, 8 … kept keys (the last one tried too), then bisection between the longest that fits and the first that does not.
      let good = p + 1, bad = count, q = p + 2;
      while (q < count) {
        if (!fits(q)) { bad = q; break; }
        good = q;
        q = good === count - 1 ? count : Math.min(p + 2 * (q - p), count - 1);
      }
      while (bad - good > 1) {
        const mid = (good + bad) >> 1;
        if (fits(mid)) good = mid; else bad = mid;
      }
      if (good > p + 1) this.applySpan(i, keptIndices[p], keptIndices[good], true);
      p = good;
    }
  }

  /**
   * Puts back every key of a LINEAR track (not quantised) whose reduced form is not smaller once it needs key times
   * of its own (4 bytes a key) beside its values, so it can keep sharing its source's key times; keeps the reduced
   * forms if the bound would not hold without them.
   */
  restoreUnprofitable(maxError: number, quantize: boolean): void {
    const saved = this.kept.map((kept) => kept.slice());
    let restored = false;
    this.tracks.forEach((track, i) => {
      if (track.interpolation !== 'LINEAR' || (quantize && track.path === 'rotation')) return;
      const valueBytes = 4 * strideOf(track.path), before = this.kept[i].length;
      const after = this.kept[i].reduce((sum, k) => sum + k, 0);
      if (after === before || after * (4 + valueBytes) < before * valueBytes) return;
      this.setKept(i, new Uint8Array(before).fill(1));
      restored = true;
    });
    if (restored && this.worst().error > maxError) saved.forEach((kept, i) => this.setKept(i, kept));
  }

  /** Sets track i's kept keys and the poses they give. */
  private setKept(i: number, kept: Uint8Array): void {
    this.kept[i] = kept;
    this.writeKept(i);
    const node = this.tracks[i].node, size = this.skeleton.subtreeSizes[node];
    for (let s = 0; s < this.sampleTimes.length; s++) this.updateNodes(s, node, size);
  }

  /** The worst error of the current keys over all nodes and sample times. */
  worst(): ErrorPlace {
    const n = this.nodeCount, points = this.skeleton.points;
    let worst: ErrorPlace = { error: 0, node: -1, time: 0 };
    for (let s = 0; s < this.sampleTimes.length; s++) {
      for (let j = 0; j < n; j++) {
        const e = pointsError(this.curWorld, (s * n + j) * 16, this.refWorld, (s * n + j) * 16, points[j]);
        if (e > worst.error) worst = { error: e, node: j, time: this.sampleTimes[s] };
      }
    }
    return worst;
  }

  /** The kept keys of every track. */
  result(): ReducedTrack[] {
    return this.tracks.map((track, i) => {
      const stride = strideOf(track.path), kept = this.kept[i], times = this.keyTimes[i], values = this.keyValues[i];
      const count = kept.reduce((sum, k) => sum + k, 0);
      const outTimes = new Float64Array(count), outValues = new Float64Array(count * stride);
      for (let k = 0, o = 0; k < kept.length; k++) {
        if (!kept[k]) continue;
        outTimes[o] = times[k];
        outValues.set(values.subarray(k * stride, k * stride + stride), o * stride);
        o++;
      }
      return { times: outTimes, values: outValues };
    });
  }
}

/** Largest distance a point of `points` (x y z triples) has between the two matrices. */
function pointsError(m1: Float64Array, o1: number, m2: Float64Array, o2: number, points: Float64Array): number {
  let worst = 0;
  for (let p = 0; p < points.length; p += 3) {
    const e = pointDistance(m1, o1, m2, o2, points[p], points[p + 1], points[p + 2]);
    if (e > worst) worst = e;
  }
  return worst;
}

/** First index of `sorted` whose value is ≥ t. */
function lowerBound(sorted: Float64Array, t: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < t) lo = mid + 1; else hi = mid;
  }
  return lo;
}
