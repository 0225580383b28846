/**
 * The LINEAR and STEP channels of a clip laid out for forward sampling, as ozz-animation lays out its
 * keyframes (docs/explanation/animation-sampling.md): every key of every track in one stream, sorted by the time it is
 * first needed. Sampling keeps, per track, the two keys around the time (a cache) and a cursor into the stream;
 * moving time forward only reads on from the cursor — a key k+1 is needed once t ≥ t_k, the time of the key
 * before it — so playback touches each key once per loop, whatever the number of tracks. A backward seek
 * starts the cursor over. Built by `compileClip` (RuntimeClip.vec3Stream, quatStream); sampled by the pose
 * room's SamplingKernel.
 */
export class KeyStream {
  /** Components per key: 3 (translations, scales) or 4 (rotations x y z w). */
  readonly components: 3 | 4;
  /** Tracks (channels); track i fills lane i & 3 of group i >> 2. */
  readonly trackCount: number;
  /** ⌈trackCount / 4⌉. */
  readonly groupCount: number;
  /** Entries in {@link entries}. */
  readonly count: number;
  /**
   * `count` entries of 3 + c 32-bit words: needed-at time (f32 seconds: the time of the track's previous key,
   * −∞ for each track's first two keys, which come first), key time (f32 seconds), track (i32), the value (c
   * f32). Sorted by needed-at time, ties by track. A track of a single key gets a second, equal key one second
   * later, so every track has an interval.
   */
  readonly entries: ArrayBuffer;
  /** `Int32Array(trackCount)`: each track's first element in its pose array (c·joint). */
  readonly offsets: Int32Array;
  /** `Uint8Array(trackCount)`: each track's pose array, 0 translations, 1 rotations, 2 scales. */
  readonly paths: Uint8Array;
  /** `Int32Array(4·groupCount)`: −1 where the track is STEP, 0 where LINEAR (and in padding lanes). */
  readonly steps: Int32Array;

  /**
   * @param components 3 or 4
   * @param tracks each channel's key times (`Float32Array(k)`, k ≥ 1, strictly increasing seconds), values
   *   (`Float32Array(c·k)`), STEP or LINEAR, first element (c·joint) and path (0 translation, 1 rotation, 2 scale)
   */
  constructor(components: 3 | 4, tracks: readonly KeyStreamTrack[]) {
    this.components = components;
    this.trackCount = tracks.length;
    this.groupCount = (tracks.length + 3) >> 2;
    this.offsets = Int32Array.from(tracks, (track) => track.offset);
    this.paths = Uint8Array.from(tracks, (track) => track.path);
    this.steps = new Int32Array(4 * this.groupCount);
    tracks.forEach((track, i) => { this.steps[i] = track.step ? -1 : 0; });
    // Keys from the third on, by the time they are needed: their previous key's time.
    const later: Array<{ neededAt: number; track: number; key: number }> = [];
    let count = 2 * tracks.length;
    tracks.forEach((track, i) => {
      for (let k = 2; k < track.times.length; k++) later.push({ neededAt: track.times[k - 1], track: i, key: k });
      count += Math.max(0, track.times.length - 2);
    });
    later.sort((a, b) => a.neededAt - b.neededAt || a.track - b.track);
    const words = 3 + components;
    this.count = count;
    this.entries = new ArrayBuffer(4 * words * count);
    const f = new Float32Array(this.entries), n = new Int32Array(this.entries);
    const write = (e: number, neededAt: number, track: number, key: number): void => {
      const { times, values } = tracks[track];
      const last = times.length - 1, k = key > last ? last : key;
      const at = e * words;
      f[at] = neededAt;
      f[at + 1] = key > last ? times[last] + 1 : times[k];
      n[at + 2] = track;
      for (let j = 0; j < components; j++) f[at + 3 + j] = values[k * components + j];
    };
    for (let i = 0; i < tracks.length; i++) {
      write(2 * i, -Infinity, i, 0);
      write(2 * i + 1, -Infinity, i, 1);
    }
    later.forEach((entry, e) => write(2 * tracks.length + e, entry.neededAt, entry.track, entry.key));
    Object.freeze(this);
  }
}

/** One channel of a {@link KeyStream}. */
export interface KeyStreamTrack {
  /** `Float32Array(k)`, k ≥ 1: strictly increasing key times, seconds. */
  readonly times: Float32Array;
  /** `Float32Array(c·k)`: key j's value at c·j. */
  readonly values: Float32Array;
  /** STEP (hold key k until t_{k+1}) rather than LINEAR. */
  readonly step: boolean;
  /** The first element written in the pose array: c·joint. */
  readonly offset: number;
  /** 0 translations, 1 rotations, 2 scales. */
  readonly path: number;
}
