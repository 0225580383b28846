/**
 * The cubic channels of a clip (CUBICSPLINE, HERMITE, CATMULLROM), laid out for forward sampling like a {@link KeyStream} (src/animation/key-stream.ts; docs/explanation/animation-sampling.md), but
 * one entry per interval rather than per key: entry k of a track holds all interval k needs —
 * `[t_k, t_{k+1}, v_k, Δ·m_k, v_{k+1}, Δ·m_{k+1}]` (`hermiteIntervals`) — and is needed once t ≥ t_k. Sampling
 * keeps, per track, the entry of the interval around the time (a cache) and a cursor into the stream; an
 * entry simply replaces its track's cache, so nothing is carried from one key to the next (a CATMULLROM
 * rotation's key k+1 may be flipped in interval k, not in interval k+1). Built by `compileClip`
 * (RuntimeClip.vec3HermiteStream, quatHermiteStream); sampled by the pose room's SamplingKernel.
 */
export class HermiteStream {
  /** Components per key: 3 (translations, scales) or 4 (rotations x y z w). */
  readonly components: 3 | 4;
  /** Tracks (channels); track i fills lane i & 3 of group i >> 2. */
  readonly trackCount: number;
  /** ⌈trackCount / 4⌉. */
  readonly groupCount: number;
  /** Entries in {@link entries}. */
  readonly count: number;
  /**
   * `count` entries of 4 + 4c 32-bit words: needed-at time (f32 seconds: t_k, −∞ for each track's first entry,
   * which come first), t_k, t_{k+1} (f32 seconds), track (i32), then v_k, Δ·m_k, v_{k+1}, Δ·m_{k+1} (c f32 each).
   * Sorted by needed-at time, ties by track. Each track of n keys has n entries: its n − 1 intervals, then
   * the last key held — `[t_{n−1} − 1 − |t_{n−1}|, t_{n−1}, v_{n−1}, 0, v_{n−1}, 0]`, needed at t_{n−1}, so
   * that s ≥ 1 from t_{n−1} on — and the kernel writes that key's value exactly after the last key (and,
   * masked, for a track of one key).
   */
  readonly entries: ArrayBuffer;
  /** `Int32Array(trackCount)`: each track's first element in its pose array (c·joint). */
  readonly offsets: Int32Array;
  /** `Uint8Array(trackCount)`: each track's pose array, 0 translations, 1 rotations, 2 scales. */
  readonly paths: Uint8Array;
  /** `Int32Array(4·groupCount)`: −1 where the track holds v_k (a track of one key), else 0 (and in padding lanes). */
  readonly masks: Int32Array;

  /**
   * @param components 3 or 4
   * @param tracks each track's key times, Hermite intervals (`hermiteIntervals`: `Float32Array(4c·(n − 1))`),
   *   last key value, first element and pose array
   */
  constructor(components: 3 | 4, tracks: readonly HermiteStreamTrack[]) {
    const c = components;
    this.components = c;
    this.trackCount = tracks.length;
    this.groupCount = (tracks.length + 3) >> 2;
    this.offsets = Int32Array.from(tracks, (track) => track.offset);
    this.paths = Uint8Array.from(tracks, (track) => track.path);
    this.masks = new Int32Array(4 * this.groupCount);
    tracks.forEach((track, i) => { this.masks[i] = track.times.length === 1 ? -1 : 0; });
    // Entries from each track's second on, by the time they are needed: their interval's start.
    const later: Array<{ neededAt: number; track: number; entry: number }> = [];
    let count = tracks.length;
    tracks.forEach((track, i) => {
      for (let k = 1; k < track.times.length; k++) later.push({ neededAt: track.times[k], track: i, entry: k });
      count += track.times.length - 1;
    });
    later.sort((a, b) => a.neededAt - b.neededAt || a.track - b.track);
    const words = 4 + 4 * c;
    this.count = count;
    this.entries = new ArrayBuffer(4 * words * count);
    const f = new Float32Array(this.entries), n = new Int32Array(this.entries);
    const write = (e: number, neededAt: number, i: number, k: number): void => {
      const { times, intervals, last } = tracks[i];
      const at = e * words;
      f[at] = neededAt;
      n[at + 3] = i;
      if (k + 1 < times.length) {
        f[at + 1] = times[k];
        f[at + 2] = times[k + 1];
        f.set(intervals.subarray(4 * c * k, 4 * c * (k + 1)), at + 4);
      } else {
        // The last key held: t ≥ t_{n−1} gives s ≥ 1, the right value, exactly (rotations unnormalised).
        f[at + 1] = times[k] - 1 - Math.abs(times[k]);
        f[at + 2] = times[k];
        f.set(last, at + 4);
        f.set(last, at + 4 + 2 * c);
      }
    };
    for (let i = 0; i < tracks.length; i++) write(i, -Infinity, i, 0);
    later.forEach((entry, e) => write(tracks.length + e, entry.neededAt, entry.track, entry.entry));
    Object.freeze(this);
  }
}

/** One track of a {@link HermiteStream}. */
export interface HermiteStreamTrack {
  /** `Float32Array(n)`, n ≥ 1: strictly increasing key times, seconds. */
  readonly times: Float32Array;
  /** `Float32Array(4c·(n − 1))`: per interval v_k, Δ·m_k, v_{k+1}, Δ·m_{k+1} (`hermiteIntervals`). */
  readonly intervals: Float32Array;
  /** `Float32Array(c)`: the last key's value. */
  readonly last: Float32Array;
  /** The first element written in the pose array: c·joint. */
  readonly offset: number;
  /** 0 translations, 1 rotations, 2 scales. */
  readonly path: number;
}
