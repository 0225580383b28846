import type { AnimationGraph } from '../animation/graph/animation-graph.ts';

export type { AnimationGraph };
import { AnimationGraphState } from '../animation/graph/animation-graph-state.ts';
import type { RuntimeClip } from '../animation/runtime-clip.ts';
import type { ExtraClips } from './extra-clips.ts';

/** The per-instance clip arrays of a `Crowd` that {@link CrowdAnimationGraph.update} writes (`Crowd` is one). */
export interface CrowdClipSlots {
  /** Instances in use. */
  readonly count: number;
  readonly clipIndices: Int16Array;
  readonly times: Float64Array;
  readonly blendClipIndices: Int16Array;
  readonly blendTimes: Float64Array;
  readonly blendWeights: Float32Array;
  readonly fadeRates: Float32Array;
  readonly extraClips: ExtraClips;
}

/**
 * One {@link AnimationGraph} run by every instance of a crowd, each with its own parameters and state
 * (`Crowd.setAnimationGraph`): per instance one `AnimationGraphState` (typed arrays only), made once for the
 * crowd's capacity, moved on by the graph's own `update` — the one implementation a single character's
 * `AnimationGraphDriver` runs too. After it, {@link update} writes what the instance plays into the crowd's clip
 * slots: each clip of the active state and of the states fading out that weighs more than 0, at weight
 * (state weight × clip weight within the state) and at the graph's clip time (`AnimationGraphState.leafTimes`),
 * the weights normalised to sum to 1 — the first clip as the instance's clip, the second as its blended clip at
 * weight w, the rest as extra clips. The crowd then blends them as `blendLayers` blends normal layers, which
 * is what the `Animator` an `AnimationGraphDriver` drives does within its layer (docs/guide/crowds.md, "Animation
 * graphs"), in the crowd kernel or in JavaScript alike.
 *
 * A 1D blend tree weighs at most two of its clips at once, so a graph of 1D trees needs 2·(1 + states fading
 * out) clip slots at most (`CrowdOptions.clipsPerInstance`); an instance that plays more clips than the crowd
 * has slots keeps its strongest ones, renormalised, and counts in {@link droppedClips}.
 *
 * The graph must have one layer, of weight 1 and without a mask (the crowd poses one blend of clips per
 * instance). The graph's events are not reported per instance (read {@link activeState}); root motion is not
 * accumulated for graph-driven instances (run the crowd with `rootMotion` `off` or `in-place`).
 * {@link update} allocates nothing.
 */
export class CrowdAnimationGraph {
  readonly graph: AnimationGraph;
  /** Per instance of the crowd's capacity, its graph state (parameters, active states, clip weights and times). */
  readonly states: readonly AnimationGraphState[];
  /** Instance updates, since this was made, in which an instance played more clips than the crowd has slots. */
  droppedClips = 0;
  private readonly crowd: CrowdClipSlots;
  /** Per graph clip (leaf), its index in the crowd's clips. */
  private readonly leafClip: Int16Array;
  /** Scratch: one instance's clips playing (graph leaf) and weights. */
  private readonly entryLeaf: Int32Array;
  private readonly entryWeight: Float64Array;

  /**
   * @param clips the crowd's clips (`Crowd.model.clips`): the graph must be compiled against them
   * @param capacity the crowd's capacity
   * @throws RangeError for a graph of more than one layer, a layer weight other than 1 or a mask, or a graph
   *   compiled against other clips
   */
  constructor(graph: AnimationGraph, crowd: CrowdClipSlots, clips: readonly RuntimeClip[], capacity: number) {
    const layout = graph.layout;
    if (graph.layerCount !== 1 || layout.layerWeights[0] !== 1 || layout.layerMasks[0]) {
      throw new RangeError(`Crowd: an animation graph for a crowd has one layer of weight 1 without a mask (this one has ${graph.layerCount} layers)`);
    }
    this.leafClip = Int16Array.from(layout.leafClips, (clip) => {
      const index = clips.indexOf(clip);
      if (index < 0) throw new RangeError(`Crowd: the animation graph plays clip "${clip.name}", not one of the crowd's (compile it against Crowd.model.clips)`);
      return index;
    });
    this.graph = graph;
    this.crowd = crowd;
    // One buffer, instance after instance: 10 000 states as separate small arrays scatter over the heap and the
    // update waits on memory (bench key crowd.graph.N10000.cpu_ms).
    const stride = AnimationGraphState.byteLength(graph.stateSizes), buffer = new ArrayBuffer(stride * capacity);
    this.states = Array.from({ length: capacity }, (_, k) => graph.createState({ buffer, byteOffset: k * stride }));
    const most = graph.maxClipsPerLayer();
    this.entryLeaf = new Int32Array(most);
    this.entryWeight = new Float64Array(most);
  }

  /** Instance k's graph starts again (parameters at their defaults, in `START`). @throws RangeError for an instance outside [0, capacity) */
  reset(k: number): void {
    this.graph.reset(this.stateOf(k));
  }

  /**
   * Sets instance k's parameter by name or index (`AnimationGraph.setParameter`: booleans and triggers from
   * `true`/`false` or a number, integers rounded); an index (`graph.parameterIndex`) saves a name look-up per
   * call. Allocates nothing.
   * @throws RangeError for an instance outside [0, count) or a parameter the graph does not have
   */
  setParameter(k: number, parameter: string | number, value: number | boolean): void {
    this.graph.setParameter(this.liveState(k), parameter, value);
  }

  /** Instance k's parameter (booleans and triggers as 1 or 0). @throws RangeError as {@link setParameter} */
  getParameter(k: number, parameter: string | number): number {
    return this.graph.getParameter(this.liveState(k), parameter);
  }

  /** The name of instance k's active state on `layer` (the destination while a transition runs). @throws RangeError for an instance outside [0, count) */
  activeState(k: number, layer = 0): string {
    return this.graph.activeState(this.liveState(k), layer);
  }

  /**
   * Moves every instance's graph on by `dtSeconds` (`AnimationGraph.update`, no events), then writes what each
   * plays into the crowd's clip slots (see the class comment); the crowd's fades stop. Allocates nothing.
   */
  update(dtSeconds: number): void {
    const graph = this.graph, states = this.states, n = this.crowd.count;
    for (let k = 0; k < n; k++) {
      graph.update(states[k], dtSeconds, null);
      this.write(k);
    }
  }

  /** Instance k's clips (its active state's, its fading states') into the crowd's slots, strongest kept. */
  private write(k: number): void {
    const layout = this.graph.layout, state = this.states[k], crowd = this.crowd;
    const leaves = this.entryLeaf, weights = this.entryWeight;
    let n = 0;
    const d = state.transitionDuration[0], e = state.transitionElapsed[0];
    const t = !state.transitioning[0] ? 1 : d > 0 && e < d ? e / d : 1;
    for (let p = -1; p < state.previousCounts[0]; p++) {
      const s = p < 0 ? state.activeStates[0] : state.previousStates[p];
      const w = p < 0 ? t : (1 - t) * state.previousWeights[p];
      if (!(w > 0)) continue;
      for (let i = layout.stateLeafStart[s]; i < layout.stateLeafStart[s] + layout.stateLeafCount[s]; i++) {
        const x = w * state.leafWeights[i];
        if (!(x > 0)) continue;
        leaves[n] = i;
        weights[n++] = x;
      }
    }
    const extra = crowd.extraClips, E = extra.count, slots = 2 + E;
    if (n > slots) {
      this.droppedClips++;
      n = keepStrongest(leaves, weights, n, slots);
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += weights[j];
    crowd.fadeRates[k] = 0;
    crowd.blendWeights[k] = 0;
    if (E > 0) extra.weights[E * k] = 0;
    if (n === 0) {
      crowd.clipIndices[k] = -1;
      crowd.times[k] = 0;
      return;
    }
    const times = state.leafTimes;
    crowd.clipIndices[k] = this.leafClip[leaves[0]];
    crowd.times[k] = times[leaves[0]];
    if (n === 1) return;
    crowd.blendClipIndices[k] = this.leafClip[leaves[1]];
    crowd.blendTimes[k] = times[leaves[1]];
    crowd.blendWeights[k] = weights[1] / sum;
    for (let j = 2; j < slots; j++) {
      const o = E * k + j - 2;
      if (j < n) {
        extra.clipIndices[o] = this.leafClip[leaves[j]];
        extra.times[o] = times[leaves[j]];
        extra.weights[o] = weights[j] / sum;
      } else extra.weights[o] = 0;
    }
  }

  private stateOf(k: number): AnimationGraphState {
    if (!Number.isInteger(k) || k < 0 || k >= this.states.length) throw new RangeError(`Crowd: instance ${k} does not exist (capacity ${this.states.length})`);
    return this.states[k];
  }

  private liveState(k: number): AnimationGraphState {
    if (!Number.isInteger(k) || k < 0 || k >= this.crowd.count) throw new RangeError(`Crowd: instance ${k} does not exist (${this.crowd.count} instances)`);
    return this.states[k];
  }
}

/** Keeps the `slots` heaviest of `n` clips (order otherwise kept); returns `slots`. */
function keepStrongest(leaves: Int32Array, weights: Float64Array, n: number, slots: number): number {
  for (; n > slots; n--) {
    let weakest = 0;
    for (let j = 1; j < n; j++) if (weights[j] < weights[weakest]) weakest = j;
    for (let j = weakest; j < n - 1; j++) {
      leaves[j] = leaves[j + 1];
      weights[j] = weights[j + 1];
    }
  }
  return n;
}
