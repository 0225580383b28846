import type { AnimationEventList } from '../animation-events.ts';
import type { RuntimeClip } from '../runtime-clip.ts';
import type { AnimationGraphAsset } from './animation-graph-asset.ts';
import { AnimationGraphState, type AnimationGraphStateSizes } from './animation-graph-state.ts';
import { blendWeights1D, blendWeightsCartesian, blendWeightsDirect, blendWeightsDirectional } from './blend-weights.ts';
import { GraphLayout, NODE_KIND, TRIGGER } from './graph-layout.ts';

/** Options of the {@link AnimationGraph} constructor. */
export interface AnimationGraphOptions {
  /** The skeleton's joint names (`Skeleton.names`), to resolve layer masks; needed only when a layer has one. */
  readonly jointNames?: readonly string[];
  /**
   * States a layer fades out at once (a transition interrupted by another, and so on), default 3: past it the
   * weakest is dropped and the others' shares renormalised.
   */
  readonly maxPreviousStates?: number;
}

/**
 * An animation state graph compiled against a model's clips: the job that runs it over caller-owned
 * {@link AnimationGraphState}s, one per character (PlayCanvas's `AnimController`, data and behaviour apart).
 * The graph itself is immutable and shared; `update(state, dt, events)` moves one character's state on.
 *
 * Each update, per layer (PlayCanvas's `AnimController.update` order; docs/guide/animation-graph.md):
 * 1. **Advance.** The active state and the states fading out compute their clips' weights from the parameters
 *    (blend trees) and move their progress on by `speed·dt / D` (D: a synchronised state's Σ wᵢ·dᵢ/sᵢ over its
 *    clips, wᵢ weight, dᵢ duration, sᵢ the child's speed; an unsynchronised tree's first clip's duration; each
 *    unsynchronised clip moves on by `speed·sᵢ·dt` on its own).
 * 2. **Transition.** At most one starts: the candidates are the active state's transitions, then `ANY`'s (each
 *    list by ascending `priority`, ties in file order); while a transition runs, those its
 *    `interruptionSource` names instead (`NONE`: none, `ANY`'s neither). Transitions to the active state are
 *    skipped. The first whose exit time falls in this update's progress (when it has one) and whose conditions
 *    all hold fires: the triggers it reads are reset, the states playing become the fading-out ones, the
 *    destination starts at `transitionOffset` and plays this update's dt (as PlayCanvas's clips do); events
 *    `transition-start`, then `state-enter`.
 * 3. **Crossfade.** A running transition's clock moves on by dt (one started in this update too); the
 *    destination weighs `t = elapsed/time`, the fading-out states share 1 − t; at t ≥ 1 `state-exit` for each
 *    of them, then `transition-end`.
 *
 * Allocates nothing in {@link update} (events go to the caller's list, whose pool grows only past its
 * largest update); the constructor and {@link createState} allocate.
 */
export class AnimationGraph {
  /** The flattened graph (read by the Animator driver). */
  readonly layout: GraphLayout;
  /** States faded out at once per layer (`AnimationGraphOptions.maxPreviousStates`). */
  readonly maxPreviousStates: number;
  /** Scratch: a tree's children's weights (indexed by child slot) and DIRECT inputs. */
  private readonly childWeights: Float64Array;
  private readonly childValues: Float64Array;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  /** Scratch: per node, the factor its clips' weights take (nested trees multiply down). */
  private readonly nodeScale: Float64Array;
  /** Scratch: a tree's input point; [2] this update's dt, [3] a synchronised state's cycle length (seconds). */
  private readonly scratch = new Float64Array(4);

  /**
   * @param clips compiled clips (`compileClip`); states and blend-tree children name them (`clip`, else their own name)
   * @throws RangeError for a clip, parameter or state the graph names and does not have, or a mask without joint
   *   names (`readAnimationGraph` checks these first, with the file and place)
   */
  constructor(asset: AnimationGraphAsset, clips: readonly RuntimeClip[], options: AnimationGraphOptions = {}) {
    this.layout = new GraphLayout(asset, clips, options.jointNames ?? null);
    this.maxPreviousStates = Math.max(1, options.maxPreviousStates ?? 3);
    const c = this.layout.childNode.length;
    this.childWeights = new Float64Array(c);
    this.childValues = new Float64Array(c);
    this.xs = Float64Array.from(this.layout.childX);
    this.ys = Float64Array.from(this.layout.childY);
    this.nodeScale = new Float64Array(this.layout.nodeKind.length);
  }

  /** Number of layers. */
  get layerCount(): number {
    return this.layout.layerNames.length;
  }

  /**
   * Clips one layer may play at once: the active state's and those of {@link maxPreviousStates} states fading
   * out (`AnimatorOptions.maxClipsPerLayer` for an Animator the graph drives).
   */
  maxClipsPerLayer(): number {
    let n = 1;
    for (let l = 0; l < this.layerCount; l++) n = Math.max(n, (this.maxPreviousStates + 1) * this.layout.layerMaxLeaves[l]);
    return n;
  }

  /** The sizes of this graph's states (`AnimationGraphState.byteLength` of them is one state's bytes in a shared buffer). */
  get stateSizes(): AnimationGraphStateSizes {
    const layout = this.layout;
    return {
      parameters: layout.parameterNames.length, layers: this.layerCount, states: layout.stateNames.length,
      leaves: layout.leafClips.length, previous: this.maxPreviousStates,
    };
  }

  /**
   * A new state at the graph's start: parameters at their defaults, every layer in `START`. Allocates.
   * @param storage where its arrays live (`AnimationGraphState`'s constructor: `AnimationGraphState.byteLength(
   *   graph.stateSizes)` bytes from a multiple of 8); absent, arrays of its own
   * @throws RangeError when the storage is too small or misaligned
   */
  createState(storage?: { readonly buffer: ArrayBuffer; readonly byteOffset: number }): AnimationGraphState {
    const state = new AnimationGraphState(this.stateSizes, storage);
    this.reset(state);
    return state;
  }

  /** Puts `state` back at the start (parameters at their defaults, layers in `START`, weights as the graph's). */
  reset(state: AnimationGraphState): void {
    const layout = this.layout;
    state.parameters.set(layout.parameterDefaults);
    state.layerWeights.set(layout.layerWeights);
    state.activeStates.set(layout.layerStart);
    state.transitioning.fill(0);
    state.transitionIndex.fill(-1);
    state.transitionSource.fill(-1);
    state.previousCounts.fill(0);
    state.progress.fill(0);
    state.progressBefore.fill(0);
    state.leafWeights.fill(0);
    state.leafTimes.fill(0);
    state.leafAdvance.fill(0);
  }

  /** A parameter's index, or −1 when the graph has none of that name. */
  parameterIndex(name: string): number {
    return this.layout.parameterNames.indexOf(name);
  }

  /**
   * Sets a parameter by name or index: booleans and triggers from `true`/`false` or a number (non-zero is
   * true), integers rounded. Allocates nothing.
   * @throws RangeError for a parameter the graph does not have
   */
  setParameter(state: AnimationGraphState, parameter: string | number, value: number | boolean): void {
    const i = this.checkedParameter(parameter);
    const type = this.layout.parameterTypes[i];
    const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    state.parameters[i] = type === 0 ? v : type === 1 ? Math.round(v) : v !== 0 ? 1 : 0;
  }

  /** A parameter's value (booleans and triggers as 1 or 0). @throws RangeError for a parameter the graph does not have */
  getParameter(state: AnimationGraphState, parameter: string | number): number {
    return state.parameters[this.checkedParameter(parameter)];
  }

  /** A state's graph-wide index by layer and name, or −1. */
  stateIndex(layer: number, name: string): number {
    const l = this.layout;
    for (let s = l.layerStateStart[layer]; s < l.layerStateStart[layer + 1]; s++) if (l.stateNames[s] === name) return s;
    return -1;
  }

  /** The name of a state (graph-wide index). */
  stateName(state: number): string {
    return this.layout.stateNames[state];
  }

  /** The name of a layer's active state (the destination while a transition runs). */
  activeState(state: AnimationGraphState, layer = 0): string {
    return this.layout.stateNames[state.activeStates[layer]];
  }

  /**
   * A state's weight in its layer now: 1 for the active state outside transitions; during one, the destination
   * `t = min(1, elapsed/time)` and each state fading out its share of 1 − t; 0 for states not playing.
   */
  stateWeight(state: AnimationGraphState, s: number): number {
    const l = this.layout.stateLayer[s];
    const t = this.transitionProgress(state, l);
    if (state.activeStates[l] === s) return t;
    const k0 = l * this.maxPreviousStates;
    for (let k = 0; k < state.previousCounts[l]; k++) if (state.previousStates[k0 + k] === s) return (1 - t) * state.previousWeights[k0 + k];
    return 0;
  }

  /**
   * Writes every state's weight in its layer ({@link stateWeight}) into `out[0 … S−1]` (S = `layout.stateNames.length`),
   * for a caller that reads many each frame (no floating-point value returned across a call). Allocates nothing.
   * @returns `out`
   */
  stateWeights(state: AnimationGraphState, out: Float64Array): Float64Array {
    const layout = this.layout, K = this.maxPreviousStates;
    out.fill(0, 0, layout.stateNames.length);
    for (let l = 0; l < this.layerCount; l++) {
      const d = state.transitionDuration[l], e = state.transitionElapsed[l];
      const t = !state.transitioning[l] ? 1 : d > 0 && e < d ? e / d : 1;
      out[state.activeStates[l]] = t;
      for (let k = 0; k < state.previousCounts[l]; k++) out[state.previousStates[l * K + k]] = (1 - t) * state.previousWeights[l * K + k];
    }
    return out;
  }

  /** A layer's running transition's progress t in [0, 1]; 1 when none runs. */
  transitionProgress(state: AnimationGraphState, layer: number): number {
    if (!state.transitioning[layer]) return 1;
    const d = state.transitionDuration[layer];
    const t = d > 0 ? state.transitionElapsed[layer] / d : 1;
    return t < 1 ? t : 1;
  }

  /**
   * Moves `state` on by `dtSeconds` (≥ 0): advance, transition, crossfade, per layer in order (see the class
   * comment). Appends `state-enter`, `state-exit`, `transition-start`, `transition-end` to `events` (not
   * cleared; clip markers come from the clips' players, `AnimationGraphDriver`). Allocates nothing.
   */
  update(state: AnimationGraphState, dtSeconds: number, events: AnimationEventList | null = null): void {
    const dt = dtSeconds > 0 ? dtSeconds : 0;
    // Floating-point values go between the methods through `scratch`: V8 boxes a double passed to a call.
    this.scratch[2] = dt;
    const K = this.maxPreviousStates;
    for (let l = 0; l < this.layerCount; l++) {
      this.advanceState(state, state.activeStates[l]);
      for (let k = 0; k < state.previousCounts[l]; k++) this.advanceState(state, state.previousStates[l * K + k]);
      const t = this.findTransition(state, l);
      if (t >= 0) this.startTransition(state, l, t, events);
      if (state.transitioning[l]) {
        state.transitionElapsed[l] += dt;
        if (!(state.transitionElapsed[l] < state.transitionDuration[l])) this.endTransition(state, l, events);
      }
    }
  }

  private checkedParameter(parameter: string | number): number {
    const i = typeof parameter === 'number' ? parameter : this.parameterIndex(parameter);
    if (!(i >= 0 && i < this.layout.parameterNames.length && Number.isInteger(i))) {
      throw new RangeError(`AnimationGraph: no parameter ${JSON.stringify(parameter)} (parameters: ${this.layout.parameterNames.map((n) => JSON.stringify(n)).join(', ') || 'none'})`);
    }
    return i;
  }

  /** Weights of state `s`'s clips from the parameters, then its progress and clips' times moved on by this update's dt. */
  private advanceState(state: AnimationGraphState, s: number): void {
    const layout = this.layout, dt = this.scratch[2];
    const before = state.progress[s];
    state.progressBefore[s] = before;
    const root = layout.stateRoot[s];
    if (root < 0) {
      state.progress[s] = 1; // control states are always done (PlayCanvas)
      state.progressBefore[s] = 1;
      return;
    }
    this.nodeScale[root] = 1;
    this.treeWeights(state, root);
    const first = layout.stateLeafStart[s], n = layout.stateLeafCount[s], speed = layout.stateSpeed[s], loop = layout.stateLoop[s] === 1;
    const times = state.leafTimes, advance = state.leafAdvance;
    if (layout.stateSync[s] === 1) {
      this.syncDuration(state, s);
      const d = this.scratch[3];
      let after = d > 0 ? before + (speed * dt) / d : before;
      if (!loop) after = after < 0 ? 0 : after > 1 ? 1 : after;
      state.progress[s] = after;
      const phase = loop ? after - Math.floor(after) : after;
      for (let i = first; i < first + n; i++) {
        const di = layout.leafClips[i].duration;
        advance[i] = (after - before) * di;
        times[i] = phase * di;
      }
      return;
    }
    for (let i = first; i < first + n; i++) {
      const di = layout.leafClips[i].duration;
      const step = speed * layout.leafSpeed[i] * dt;
      let t = times[i] + step;
      if (loop) t = di > 0 ? t - di * Math.floor(t / di) : 0;
      else t = t < 0 ? 0 : t > di ? di : t;
      advance[i] = loop ? step : t - times[i];
      times[i] = t;
    }
    const d0 = layout.leafClips[first].duration / Math.abs(layout.leafSpeed[first] || 1);
    let after = d0 > 0 ? before + (speed * dt) / d0 : before;
    if (!loop) after = after < 0 ? 0 : after > 1 ? 1 : after;
    state.progress[s] = after;
  }

  /** Writes `scratch[3]`: Σ wᵢ·dᵢ/|sᵢ| over a state's clips, the seconds one normalised cycle of the synchronised blend lasts. */
  private syncDuration(state: AnimationGraphState, s: number): void {
    const layout = this.layout;
    let sum = 0;
    for (let i = layout.stateLeafStart[s]; i < layout.stateLeafStart[s] + layout.stateLeafCount[s]; i++) {
      sum += (state.leafWeights[i] * layout.leafClips[i].duration) / Math.abs(layout.leafSpeed[i] || 1);
    }
    this.scratch[3] = sum;
  }

  /** Writes the weights of the clips under `node`, each times `nodeScale[node]` (nested trees multiply down). */
  private treeWeights(state: AnimationGraphState, node: number): void {
    const layout = this.layout, kind = layout.nodeKind[node], scale = this.nodeScale[node];
    if (kind === NODE_KIND.LEAF) {
      state.leafWeights[layout.nodeLeaf[node]] = scale;
      return;
    }
    const start = layout.nodeChildStart[node], count = layout.nodeChildCount[node], w = this.childWeights, p = state.parameters;
    const input = this.scratch;
    input[0] = p[layout.nodeParamA[node]];
    if (layout.nodeParamB[node] >= 0) input[1] = p[layout.nodeParamB[node]];
    if (kind === NODE_KIND.TREE_1D) blendWeights1D(w, this.xs, start, count, input);
    else if (kind === NODE_KIND.CARTESIAN) blendWeightsCartesian(w, this.xs, this.ys, start, count, input);
    else if (kind === NODE_KIND.DIRECTIONAL) blendWeightsDirectional(w, this.xs, this.ys, start, count, input);
    else {
      for (let c = start; c < start + count; c++) this.childValues[c] = p[layout.childParam[c]];
      blendWeightsDirect(w, this.childValues, start, count);
    }
    // Children's weights are read before recursing, which overwrites other slots of the scratch only.
    for (let c = start; c < start + count; c++) {
      this.nodeScale[layout.childNode[c]] = scale * w[c];
      this.treeWeights(state, layout.childNode[c]);
    }
  }

  /** The transition that fires on layer `l` in this update, or −1 (step 2 of the class comment). */
  private findTransition(state: AnimationGraphState, l: number): number {
    const layout = this.layout, active = state.activeStates[l], any = layout.layerAny[l];
    if (!state.transitioning[l]) {
      const t = this.scan(state, active, active);
      return t >= 0 ? t : this.scan(state, any, active);
    }
    const previous = state.previousStates[l * this.maxPreviousStates + state.previousCounts[l] - 1];
    let t = -1;
    switch (layout.transitionInterruption[state.transitionIndex[l]]) {
      case 1: // PREV_STATE
        t = this.scan(state, previous, active);
        break;
      case 2: // NEXT_STATE
        t = this.scan(state, active, active);
        break;
      case 3: // PREV_STATE_NEXT_STATE
        t = this.scan(state, previous, active);
        if (t < 0) t = this.scan(state, active, active);
        break;
      case 4: // NEXT_STATE_PREV_STATE
        t = this.scan(state, active, active);
        if (t < 0) t = this.scan(state, previous, active);
        break;
      default:
        return -1;
    }
    return t >= 0 ? t : this.scan(state, any, active);
  }

  /** The first of `source`'s transitions (priority order) that may fire, skipping those to `active`; −1 none. */
  private scan(state: AnimationGraphState, source: number, active: number): number {
    const layout = this.layout;
    // ANY's exit times read the active state's progress.
    const clock = source === layout.layerAny[layout.stateLayer[source]] ? active : source;
    for (let k = layout.stateFromStart[source]; k < layout.stateFromStart[source + 1]; k++) {
      const t = layout.fromList[k];
      if (layout.transitionTo[t] === active) continue;
      if (layout.transitionExit[t] !== 0 && !this.passesExitTime(state, clock, t)) continue;
      if (this.conditionsHold(state, t)) return t;
    }
    return -1;
  }

  /**
   * Whether state `s`'s progress reached `exit` in this update: in (before, after], or equal to it when the
   * update did not move; below 1 on a looping state, each loop (the fractional parts, a wrap included —
   * PlayCanvas compares the fractional parts only, and misses an exit time in an update that wraps).
   */
  private passesExitTime(state: AnimationGraphState, s: number, t: number): boolean {
    const exit = this.layout.transitionExit[t], before = state.progressBefore[s], after = state.progress[s];
    if (exit < 1 && this.layout.stateLoop[s] === 1) {
      const fb = before - Math.floor(before), fa = after - Math.floor(after);
      if (after === before) return fa === exit;
      if (Math.floor(after) > Math.floor(before)) return exit > fb || exit <= fa;
      return exit > fb && exit <= fa;
    }
    if (after === before) return after === exit;
    return exit > before && exit <= after;
  }

  private conditionsHold(state: AnimationGraphState, t: number): boolean {
    const layout = this.layout, p = state.parameters;
    for (let c = layout.conditionStart[t]; c < layout.conditionStart[t] + layout.conditionCount[t]; c++) {
      const v = p[layout.conditionParam[c]], x = layout.conditionValue[c];
      let ok: boolean;
      switch (layout.conditionOp[c]) {
        case 0: ok = v > x; break;
        case 1: ok = v < x; break;
        case 2: ok = v >= x; break;
        case 3: ok = v <= x; break;
        case 4: ok = v === x; break;
        default: ok = v !== x;
      }
      if (!ok) return false;
    }
    return true;
  }

  /** Starts transition `t` on layer `l` (step 2 of the class comment). */
  private startTransition(state: AnimationGraphState, l: number, t: number, events: AnimationEventList | null): void {
    const layout = this.layout, K = this.maxPreviousStates, k0 = l * K;
    for (let c = layout.conditionStart[t]; c < layout.conditionStart[t] + layout.conditionCount[t]; c++) {
      const p = layout.conditionParam[c];
      if (layout.parameterTypes[p] === TRIGGER) state.parameters[p] = 0;
    }
    const from = state.activeStates[l], to = layout.transitionTo[t];
    events?.addGraphEvent('transition-start', l, layout.stateNames[to], layout.stateNames[from]);
    const prev = state.previousStates, weights = state.previousWeights;
    let n = state.previousCounts[l];
    if (state.transitioning[l]) {
      // Interrupted: the states fading out keep their weight, scaled by what the old transition left them.
      const d = state.transitionDuration[l], e = state.transitionElapsed[l];
      const x = d > 0 && e < d ? e / d : 1;
      for (let k = 0; k < n; k++) weights[k0 + k] *= 1 - x;
      if (n === K) n = this.dropWeakest(state, l, n, events);
      prev[k0 + n] = from;
      weights[k0 + n] = x;
      n++;
    } else {
      // Nothing was fading: the old state alone fades out.
      for (let k = 0; k < n; k++) events?.addGraphEvent('state-exit', l, layout.stateNames[prev[k0 + k]], '');
      prev[k0] = from;
      weights[k0] = 1;
      n = 1;
    }
    // The destination, if it was fading out, plays afresh.
    for (let k = 0; k < n; k++) {
      if (prev[k0 + k] !== to) continue;
      for (let m = k; m < n - 1; m++) {
        prev[k0 + m] = prev[k0 + m + 1];
        weights[k0 + m] = weights[k0 + m + 1];
      }
      n--;
      break;
    }
    let sum = 0;
    for (let k = 0; k < n; k++) sum += weights[k0 + k];
    for (let k = 0; k < n; k++) weights[k0 + k] = sum > 0 ? weights[k0 + k] / sum : 1 / n;
    state.previousCounts[l] = n;
    state.activeStates[l] = to;
    state.transitioning[l] = 1;
    state.transitionIndex[l] = t;
    state.transitionSource[l] = from;
    state.transitionElapsed[l] = 0;
    state.transitionDuration[l] = layout.transitionTime[t];
    const offset = layout.transitionOffset[t];
    state.progress[to] = offset;
    state.progressBefore[to] = offset;
    for (let i = layout.stateLeafStart[to]; i < layout.stateLeafStart[to] + layout.stateLeafCount[to]; i++) {
      state.leafTimes[i] = offset * layout.leafClips[i].duration;
    }
    // The destination plays this update's dt from its start, as PlayCanvas's clips do: after n updates of dt
    // from t = 0, a state entered on the first is n·dt in.
    this.advanceState(state, to);
    events?.addGraphEvent('state-enter', l, layout.stateNames[to], '');
  }

  /** Drops the weakest state fading out (to make room), renormalising nothing yet. @returns the new count */
  private dropWeakest(state: AnimationGraphState, l: number, n: number, events: AnimationEventList | null): number {
    const k0 = l * this.maxPreviousStates, prev = state.previousStates, weights = state.previousWeights;
    let weakest = 0;
    for (let k = 1; k < n; k++) if (weights[k0 + k] < weights[k0 + weakest]) weakest = k;
    events?.addGraphEvent('state-exit', l, this.layout.stateNames[prev[k0 + weakest]], '');
    for (let k = weakest; k < n - 1; k++) {
      prev[k0 + k] = prev[k0 + k + 1];
      weights[k0 + k] = weights[k0 + k + 1];
    }
    return n - 1;
  }

  /** Ends layer `l`'s transition: the states fading out exit, then `transition-end`. */
  private endTransition(state: AnimationGraphState, l: number, events: AnimationEventList | null): void {
    const k0 = l * this.maxPreviousStates, names = this.layout.stateNames;
    for (let k = 0; k < state.previousCounts[l]; k++) events?.addGraphEvent('state-exit', l, names[state.previousStates[k0 + k]], '');
    state.previousCounts[l] = 0;
    state.transitioning[l] = 0;
    events?.addGraphEvent('transition-end', l, names[state.activeStates[l]], names[state.transitionSource[l]]);
    state.transitionIndex[l] = -1;
  }
}
