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
   */
  constructor(sizes: { readonly parameters: number; readonly layers: number; readonly states: number; readonly leaves: number; readonly previous: number }) {
    const { parameters: p, layers: l, states: s, leaves: n, previous: k } = sizes;
    this.parameters = new Float64Array(p);
    this.layerWeights = new Float64Array(l);
    this.activeStates = new Int32Array(l);
    this.transitioning = new Uint8Array(l);
    this.transitionElapsed = new Float64Array(l);
    this.transitionDuration = new Float64Array(l);
    this.transitionIndex = new Int32Array(l).fill(-1);
    this.transitionSource = new Int32Array(l).fill(-1);
    this.previousCounts = new Int32Array(l);
    this.previousStates = new Int32Array(l * k);
    this.previousWeights = new Float64Array(l * k);
    this.progress = new Float64Array(s);
    this.progressBefore = new Float64Array(s);
    this.leafWeights = new Float64Array(n);
    this.leafTimes = new Float64Array(n);
    this.leafAdvance = new Float64Array(n);
  }
}
