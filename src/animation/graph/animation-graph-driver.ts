import type { AnimationEventList } from '../animation-events.ts';
import type { Animator } from '../animator.ts';
import type { AnimationGraph } from './animation-graph.ts';
import type { AnimationGraphState } from './animation-graph-state.ts';

/**
 * Runs an {@link AnimationGraph} on an {@link Animator}: one character's graph state drives the animator's
 * layers (graph layer l on animator layer l: mode, weight, mask), each clip the graph plays held in one of the
 * layer's clip slots at weight (state weight × clip weight within the state), its player moved on by exactly the
 * clip seconds the graph advanced (so synchronised clips stay at one phase, and the players report loops and
 * markers as they cross them). Root motion (`Animator.rootMotion`) then accumulates through states and blends
 * as for any crossfade. Allocates nothing per {@link update}.
 *
 * ```ts
 * const graph = new AnimationGraph(asset, clips);                            // once per model
 * const animator = new Animator(jointCount, { maxClipsPerLayer: graph.maxClipsPerLayer() });
 * const driver = new AnimationGraphDriver(graph, animator);                   // per character
 * graph.setParameter(driver.state, 'speed', 0.5);
 * driver.update(dt, events);                                                  // each frame
 * animator.evaluate(pose, restPose);
 * ```
 */
export class AnimationGraphDriver {
  readonly graph: AnimationGraph;
  readonly animator: Animator;
  /** The character's graph state (parameters, active states…). */
  readonly state: AnimationGraphState;
  /** Per layer, `Int32Array(maxClipsPerLayer)`: the graph clip (leaf) each animator slot holds, −1 free. */
  private readonly bound: Int32Array[] = [];
  /** Scratch: [0] the dt of the update running (seconds), [1] a slot's weight, [2] its start time (`Animator.driveSlot`). */
  private readonly scratch = new Float64Array(3);
  /** `Float64Array(S)`: every state's weight this update (`AnimationGraph.stateWeights`). */
  private readonly weights: Float64Array;
  /** `Float64Array(L)`: the layer weights last given to the animator (NaN: none yet). */
  private readonly layerWeights: Float64Array;

  /**
   * Adds animator layers up to the graph's (override or additive, weight and mask as the graph says) and
   * stops what the animator's layers played.
   * @param state the character's graph state; default a new one
   * @throws RangeError when the animator holds fewer clips per layer than `graph.maxClipsPerLayer()`, or the
   *   graph's first layer is `ADDITIVE` (it drives the animator's base layer). An animator layer that exists
   *   already keeps its mode (make the animator fresh for the graph).
   */
  constructor(graph: AnimationGraph, animator: Animator, state: AnimationGraphState = graph.createState()) {
    this.graph = graph;
    this.animator = animator;
    this.state = state;
    const layout = graph.layout;
    if (animator.maxClipsPerLayer < graph.maxClipsPerLayer()) {
      throw new RangeError(`AnimationGraphDriver: the animator holds ${animator.maxClipsPerLayer} clips per layer, the graph needs ${graph.maxClipsPerLayer()} (AnimatorOptions.maxClipsPerLayer)`);
    }
    if (layout.layerAdditive[0] === 1) throw new RangeError('AnimationGraphDriver: the graph\'s first layer must be OVERWRITE (it drives the animator\'s base layer)');
    for (let l = 0; l < graph.layerCount; l++) {
      const mask = layout.layerMasks[l];
      if (l >= animator.layerCount) animator.addLayer({ mode: layout.layerAdditive[l] ? 'additive' : 'override', weight: layout.layerWeights[l], mask });
      else {
        animator.stop(l);
        animator.setLayerWeight(l, layout.layerWeights[l]);
        animator.setLayerMask(l, mask);
      }
      this.bound.push(new Int32Array(animator.maxClipsPerLayer).fill(-1));
    }
    this.weights = new Float64Array(layout.stateNames.length);
    this.layerWeights = new Float64Array(graph.layerCount).fill(Number.NaN);
  }

  /**
   * One frame: clears `events`, runs `graph.update(state, dt, events)` (state and transition events), sets the
   * animator's slots from the result, then `animator.update(dt, events, true)` (the clips' loops and markers,
   * appended). Then `animator.evaluate(pose, restPose)` gives the pose. Allocates nothing.
   */
  update(dtSeconds: number, events: AnimationEventList | null = null): void {
    const dt = dtSeconds > 0 ? dtSeconds : 0;
    const graph = this.graph, layout = graph.layout, state = this.state, animator = this.animator;
    this.scratch[0] = dt;
    events?.clear();
    graph.update(state, dt, events);
    graph.stateWeights(state, this.weights);
    const K = graph.maxPreviousStates;
    for (let l = 0; l < graph.layerCount; l++) {
      if (this.layerWeights[l] !== state.layerWeights[l]) {
        this.layerWeights[l] = state.layerWeights[l];
        animator.setLayerWeight(l, state.layerWeights[l]);
      }
      const bound = this.bound[l];
      // Free the slots of clips whose state no longer plays.
      for (let s = 0; s < bound.length; s++) {
        const leaf = bound[s];
        if (leaf >= 0 && !this.playing(state, l, layout.leafState[leaf])) {
          animator.releaseSlot(l, s);
          bound[s] = -1;
        }
      }
      this.drive(l, state.activeStates[l]);
      for (let k = 0; k < state.previousCounts[l]; k++) this.drive(l, state.previousStates[l * K + k]);
    }
    animator.update(dt, events, true);
  }

  /** Whether state `s` is the active one or fading out on layer `l`. */
  private playing(state: AnimationGraphState, l: number, s: number): boolean {
    if (state.activeStates[l] === s) return true;
    const k0 = l * this.graph.maxPreviousStates;
    for (let k = 0; k < state.previousCounts[l]; k++) if (state.previousStates[k0 + k] === s) return true;
    return false;
  }

  /** Holds each clip of state `s` in a slot of layer `l` at its weight, its player set to move on by the graph's advance. */
  private drive(l: number, s: number): void {
    const layout = this.graph.layout, state = this.state, bound = this.bound[l];
    const n = layout.stateLeafCount[s];
    if (n === 0) return;
    const stateWeight = this.weights[s], loop = layout.stateLoop[s] === 1 ? 'loop' : 'once';
    const scratch = this.scratch, dt = scratch[0];
    for (let i = layout.stateLeafStart[s]; i < layout.stateLeafStart[s] + n; i++) {
      let slot = bound.indexOf(i);
      if (slot < 0) {
        slot = bound.indexOf(-1);
        bound[slot] = i;
        this.animator.releaseSlot(l, slot);
      }
      const advance = state.leafAdvance[i];
      scratch[1] = stateWeight * state.leafWeights[i];
      scratch[2] = state.leafTimes[i] - advance;
      const player = this.animator.driveSlot(l, slot, layout.leafClips[i], scratch);
      player.loop = loop;
      // The player moves by speed·dt in `animator.update`: exactly the graph's advance.
      player.speed = dt > 0 ? advance / dt : 0;
    }
  }

}
