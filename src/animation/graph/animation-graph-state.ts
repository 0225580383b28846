/**
 * One character's run of an `AnimationGraph`: everything that changes from frame to frame, in typed arrays the
 * caller owns (`AnimationGraph.createState`), so a crowd holds one per instance and one compiled graph serves
 * them all. Indices: parameters as `AnimationGraph.parameterIndex`, layers 0…L−1, states by their graph-wide
 * index (`AnimationGraph.stateIndex`), clips of blend trees ("leaves") by their graph-wide index.
 * Read freely; write {@link parameters} and {@link layerWeights} (or use `AnimationGraph.setParameter`), the rest
 * belongs to `AnimationGraph.update`.
 */
export class AnimationGraphState {
  /** `Float64Array(P)`: parameter values; booleans and triggers 1 or 0. A trigger goes back to 0 when a transition reads it. */
  readonly parameters: Float64Array;
  /** `Float64Array(L)`: layer weights in [0, 1] (the graph's to start with). */
  readonly layerWeights: Float64Array;
  /** `Int32Array(L)`: each layer's active state (the destination while a transition runs); `START` at first. */
  readonly activeStates: Int32Array;
  /** `Uint8Array(L)`: 1 while a transition runs on the layer. */
  readonly transitioning: Uint8Array;
  /** `Float64Array(L)`: seconds since the running transition started, and its duration (`time`). */
  readonly transitionElapsed: Float64Array;
  readonly transitionDuration: Float64Array;
  /** `Int32Array(L)`: the running transition's index (graph-wide), −1 none. */
  readonly transitionIndex: Int32Array;
  /** `Int32Array(L)`: the state the running transition left. */
  readonly transitionSource: Int32Array;
  /** `Int32Array(L)`: states being faded out (most recently left last), `previousStates[l·K + k]`, k < `previousCounts[l]`. */
  readonly previousCounts: Int32Array;
  readonly previousStates: Int32Array;
  /** `Float64Array(L·K)`: their shares of the fading-out weight, summing to 1 per layer (PlayCanvas's previous-state weights). */
  readonly previousWeights: Float64Array;
  /**
   * `Float64Array(S)`: each state's normalised progress (1 per play of its clips, unwrapped: 2.5 is half-way
   * through the third loop; a state that does not loop stops at 1) after and before the last update. A
   * synchronised state's clips are all at phase frac(progress).
   */
  readonly progress: Float64Array;
  readonly progressBefore: Float64Array;
  /** `Float64Array(N)`: each clip's weight within its state (a state's clips sum to 1), as of the last update. */
  readonly leafWeights: Float64Array;
  /** `Float64Array(N)`: each clip's clip time after the last update, seconds in [0, duration]. */
  readonly leafTimes: Float64Array;
  /** `Float64Array(N)`: clip seconds each clip moved on in the last update (unwrapped: a loop's wrap included). */
  readonly leafAdvance: Float64Array;

  /**
   * @param sizes parameters P, layers L, states S, leaves N, previous states kept per layer K
   * @param storage where the arrays live: `byteLength(sizes)` bytes of `buffer` from `byteOffset` (a multiple of 8),
   *   zeroed; absent, arrays of their own. A crowd lays its instances' states out one after another in one buffer,
   *   so an instance's state is a few cache lines rather than sixteen small arrays scattered over the heap.
   * @throws RangeError when the storage is too small or misaligned
   */
  constructor(sizes: AnimationGraphStateSizes, storage?: { readonly buffer: ArrayBuffer; readonly byteOffset: number }) {
    const { parameters: p, layers: l, states: s, leaves: n, previous: k } = sizes;
    const buffer = storage?.buffer ?? new ArrayBuffer(AnimationGraphState.byteLength(sizes));
    let at = storage?.byteOffset ?? 0;
    // Doubles first, then 32-bit, then bytes: every array stays aligned to its element size.
    const f64 = (length: number) => { const a = new Float64Array(buffer, at, length); at += 8 * length; return a; };
    const i32 = (length: number) => { const a = new Int32Array(buffer, at, length); at += 4 * length; return a; };
    this.parameters = f64(p);
    this.layerWeights = f64(l);
    this.transitionElapsed = f64(l);
    this.transitionDuration = f64(l);
    this.previousWeights = f64(l * k);
    this.progress = f64(s);
    this.progressBefore = f64(s);
    this.leafWeights = f64(n);
    this.leafTimes = f64(n);
    this.leafAdvance = f64(n);
    this.activeStates = i32(l);
    this.transitionIndex = i32(l).fill(-1);
    this.transitionSource = i32(l).fill(-1);
    this.previousCounts = i32(l);
    this.previousStates = i32(l * k);
    this.transitioning = new Uint8Array(buffer, at, l);
  }

  /** Bytes one state takes in a shared buffer (the constructor's `storage`), a multiple of 8. */
  static byteLength(sizes: AnimationGraphStateSizes): number {
    const { parameters: p, layers: l, states: s, leaves: n, previous: k } = sizes;
    const bytes = 8 * (p + 3 * l + l * k + 2 * s + 3 * n) + 4 * (4 * l + l * k) + l;
    return Math.ceil(bytes / 8) * 8;
  }
}

/** The sizes of an {@link AnimationGraphState}: parameters P, layers L, states S, leaves N, previous states kept per layer K. */
export interface AnimationGraphStateSizes {
  readonly parameters: number;
  readonly layers: number;
  readonly states: number;
  readonly leaves: number;
  readonly previous: number;
}
