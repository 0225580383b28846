import type { RuntimeClip } from '../runtime-clip.ts';
import {
  ANY_STATE, END_STATE, START_STATE, type AnimationGraphAsset, type GraphBlendTree, type GraphInterruptionSource, type GraphPredicate,
} from './animation-graph-asset.ts';

/** Codes of blend-tree node kinds in {@link GraphLayout.nodeKind}. */
export const NODE_KIND = { LEAF: -1, TREE_1D: 0, CARTESIAN: 1, DIRECTIONAL: 2, DIRECT: 3 } as const;
/** Codes of predicates in {@link GraphLayout.conditionOp}, in `GraphPredicate` order. */
export const PREDICATES: readonly GraphPredicate[] = ['GREATER_THAN', 'LESS_THAN', 'GREATER_THAN_EQUAL_TO', 'LESS_THAN_EQUAL_TO', 'EQUAL_TO', 'NOT_EQUAL_TO'];
/** Codes of interruption sources in {@link GraphLayout.transitionInterruption}. */
export const INTERRUPTIONS: readonly GraphInterruptionSource[] = ['NONE', 'PREV_STATE', 'NEXT_STATE', 'PREV_STATE_NEXT_STATE', 'NEXT_STATE_PREV_STATE'];
/** Codes of parameter types in {@link GraphLayout.parameterTypes}. */
export const PARAMETER_TYPES = ['FLOAT', 'INTEGER', 'BOOLEAN', 'TRIGGER'] as const;
export const TRIGGER = 3;

/**
 * An `AnimationGraphAsset` flattened for the per-frame job: states, blend-tree nodes, clips ("leaves"),
 * transitions and conditions in typed arrays indexed graph-wide, so `AnimationGraph.update` reads no objects of
 * varying shapes and allocates nothing. Immutable once built. Internal to src/animation/graph.
 */
export class GraphLayout {
  readonly parameterNames: string[] = [];
  readonly parameterTypes: Uint8Array;
  readonly parameterDefaults: Float64Array;
  readonly layerNames: string[] = [];
  readonly layerAdditive: Uint8Array;
  readonly layerWeights: Float64Array;
  /** Per layer: `Float32Array(jointCount)` mask, or null. */
  readonly layerMasks: (Float32Array | null)[] = [];
  /** Per layer: its states are [layerStateStart[l], layerStateStart[l+1]). */
  readonly layerStateStart: Int32Array;
  readonly layerStart: Int32Array;
  readonly layerAny: Int32Array;
  /** Per layer: the largest number of clips one of its states plays. */
  readonly layerMaxLeaves: Int32Array;

  readonly stateNames: string[] = [];
  readonly stateLayer: number[] = [];
  readonly stateSpeed: number[] = [];
  readonly stateLoop: number[] = [];
  readonly stateSync: number[] = [];
  /** Root node of the state's tree (a leaf node for a clip state), −1 for control states. */
  readonly stateRoot: number[] = [];
  /** Its leaves are [stateLeafStart, stateLeafStart + stateLeafCount). */
  readonly stateLeafStart: number[] = [];
  readonly stateLeafCount: number[] = [];
  /** Per state: candidate transitions, sorted by priority, [stateFromStart[s], stateFromStart[s+1]) of `fromList`. */
  readonly stateFromStart: number[] = [];
  readonly fromList: number[] = [];

  readonly nodeKind: number[] = [];
  readonly nodeLeaf: number[] = [];
  readonly nodeChildStart: number[] = [];
  readonly nodeChildCount: number[] = [];
  readonly nodeParamA: number[] = [];
  readonly nodeParamB: number[] = [];
  /** Child slots of trees: the child's node, its point, its DIRECT parameter. */
  readonly childNode: number[] = [];
  readonly childX: number[] = [];
  readonly childY: number[] = [];
  readonly childParam: number[] = [];

  readonly leafClips: RuntimeClip[] = [];
  readonly leafSpeed: number[] = [];
  readonly leafState: number[] = [];

  readonly transitionFrom: number[] = [];
  readonly transitionTo: number[] = [];
  readonly transitionTime: number[] = [];
  readonly transitionExit: number[] = [];
  readonly transitionOffset: number[] = [];
  readonly transitionPriority: number[] = [];
  readonly transitionInterruption: number[] = [];
  readonly conditionStart: number[] = [];
  readonly conditionCount: number[] = [];
  readonly conditionParam: number[] = [];
  readonly conditionOp: number[] = [];
  readonly conditionValue: number[] = [];

  /**
   * @param clips the clips states name, by `RuntimeClip.name`
   * @param jointNames the skeleton's joint names (layer masks name joints); needed only when a layer has a mask
   * @throws RangeError for a name the graph does not define (a clip, a parameter, a state) or a mask without joint names;
   *   `readAnimationGraph` with `clipNames` reports these first as a `LoadError` with its place
   */
  constructor(asset: AnimationGraphAsset, clips: readonly RuntimeClip[], jointNames: readonly string[] | null) {
    const params = new Map<string, number>();
    asset.parameters.forEach((p, i) => {
      this.parameterNames.push(p.name);
      params.set(p.name, i);
    });
    this.parameterTypes = Uint8Array.from(asset.parameters, (p) => PARAMETER_TYPES.indexOf(p.type));
    this.parameterDefaults = Float64Array.from(asset.parameters, (p) => (p.type === 'INTEGER' ? Math.round(p.value) : p.type === 'FLOAT' ? p.value : p.value ? 1 : 0));
    const L = asset.layers.length;
    this.layerAdditive = Uint8Array.from(asset.layers, (l) => (l.blendType === 'ADDITIVE' ? 1 : 0));
    this.layerWeights = Float64Array.from(asset.layers, (l) => l.weight);
    this.layerStateStart = new Int32Array(L + 1);
    this.layerStart = new Int32Array(L);
    this.layerAny = new Int32Array(L);
    this.layerMaxLeaves = new Int32Array(L);
    const param = (name: string, where: string): number => {
      const i = params.get(name);
      if (i === undefined) throw new RangeError(`AnimationGraph: ${where} reads parameter "${name}", which the graph does not define`);
      return i;
    };
    const clipOf = (name: string, where: string): RuntimeClip => {
      const clip = clips.find((c) => c.name === name);
      if (!clip) throw new RangeError(`AnimationGraph: ${where} plays clip "${name}", which is not among the clips given`);
      return clip;
    };
    const addLeaf = (state: number, clip: RuntimeClip, speed: number): number => {
      const node = this.pushNode(NODE_KIND.LEAF, this.leafClips.length);
      this.leafClips.push(clip);
      this.leafSpeed.push(speed);
      this.leafState.push(state);
      return node;
    };
    const addTree = (state: number, tree: GraphBlendTree, where: string): number => {
      const kind = { '1D': NODE_KIND.TREE_1D, '2D_CARTESIAN': NODE_KIND.CARTESIAN, '2D_DIRECTIONAL': NODE_KIND.DIRECTIONAL, DIRECT: NODE_KIND.DIRECT }[tree.type];
      const node = this.pushNode(kind, -1);
      this.nodeParamA[node] = tree.type === 'DIRECT' ? -1 : param(tree.parameters[0], where);
      this.nodeParamB[node] = tree.type === '2D_CARTESIAN' || tree.type === '2D_DIRECTIONAL' ? param(tree.parameters[1], where) : -1;
      // 1D children ascending by point (PlayCanvas sorts them too), ties in file order.
      const order = tree.children.map((_, i) => i);
      if (tree.type === '1D') order.sort((a, b) => tree.children[a].point[0] - tree.children[b].point[0] || a - b);
      const start = this.childNode.length;
      this.nodeChildStart[node] = start;
      this.nodeChildCount[node] = order.length;
      for (const i of order) {
        const child = tree.children[i];
        this.childNode.push(-1);
        this.childX.push(child.point[0] ?? 0);
        this.childY.push(child.point[1] ?? 0);
        this.childParam.push(tree.type === 'DIRECT' ? param(child.parameter ?? child.name, `${where} child "${child.name}"`) : -1);
      }
      order.forEach((i, k) => {
        const child = tree.children[i];
        this.childNode[start + k] = child.tree
          ? addTree(state, child.tree, `${where} child "${child.name}"`)
          : addLeaf(state, clipOf(child.clip ?? child.name, `${where} child "${child.name}"`), child.speed);
      });
      return node;
    };

    for (let l = 0; l < L; l++) {
      const layer = asset.layers[l];
      this.layerNames.push(layer.name);
      this.layerMasks.push(layer.mask ? maskOf(layer.mask, jointNames, layer.name) : null);
      const first = this.stateNames.length;
      this.layerStateStart[l] = first;
      const names = new Map<string, number>();
      const all = [...layer.states];
      for (const control of [START_STATE, END_STATE, ANY_STATE]) {
        if (!all.some((s) => s.name === control)) all.push({ name: control, speed: 1, loop: true, blendTree: null, clip: null });
      }
      for (const s of all) {
        const index = this.stateNames.length;
        names.set(s.name, index);
        this.stateNames.push(s.name);
        this.stateLayer.push(l);
        this.stateSpeed.push(s.speed);
        this.stateLoop.push(s.loop ? 1 : 0);
        this.stateSync.push(s.blendTree ? (s.blendTree.syncAnimations ? 1 : 0) : 1);
        this.stateLeafStart.push(this.leafClips.length);
        const control = s.name === START_STATE || s.name === END_STATE || s.name === ANY_STATE;
        const where = `layer "${layer.name}" state "${s.name}"`;
        this.stateRoot.push(control ? -1 : s.blendTree ? addTree(index, s.blendTree, where) : addLeaf(index, clipOf(s.clip ?? s.name, where), 1));
        this.stateLeafCount.push(this.leafClips.length - this.stateLeafStart[index]);
        this.layerMaxLeaves[l] = Math.max(this.layerMaxLeaves[l], this.stateLeafCount[index]);
      }
      this.layerStateStart[l + 1] = this.stateNames.length;
      this.layerStart[l] = names.get(START_STATE)!;
      this.layerAny[l] = names.get(ANY_STATE)!;
      const stateOf = (name: string, where: string): number => {
        const i = names.get(name);
        if (i === undefined) throw new RangeError(`AnimationGraph: ${where} names state "${name}", which layer "${layer.name}" does not have`);
        return i;
      };
      const firstTransition = this.transitionFrom.length;
      layer.transitions.forEach((t, i) => {
        const where = `layer "${layer.name}" transition ${i}`;
        this.transitionFrom.push(stateOf(t.from, where));
        this.transitionTo.push(stateOf(t.to, where));
        this.transitionTime.push(Math.max(0, t.time));
        this.transitionExit.push(t.exitTime ?? 0);
        this.transitionOffset.push(t.transitionOffset !== null && t.transitionOffset > 0 && t.transitionOffset < 1 ? t.transitionOffset : 0);
        this.transitionPriority.push(t.priority);
        this.transitionInterruption.push(INTERRUPTIONS.indexOf(t.interruptionSource));
        this.conditionStart.push(this.conditionParam.length);
        this.conditionCount.push(t.conditions.length);
        for (const c of t.conditions) {
          this.conditionParam.push(param(c.parameterName, where));
          this.conditionOp.push(PREDICATES.indexOf(c.predicate));
          this.conditionValue.push(c.value);
        }
      });
      // END goes where START's first transition goes (PlayCanvas).
      const end = names.get(END_STATE)!;
      const fromStart = this.sortedFrom(this.layerStart[l], firstTransition);
      for (let t = firstTransition; t < this.transitionTo.length; t++) {
        if (this.transitionTo[t] === end) this.transitionTo[t] = fromStart.length > 0 ? this.transitionTo[fromStart[0]] : this.layerStart[l];
      }
      for (let s = first; s < this.stateNames.length; s++) {
        this.stateFromStart.push(this.fromList.length);
        this.fromList.push(...this.sortedFrom(s, firstTransition));
      }
    }
    this.stateFromStart.push(this.fromList.length);
  }

  /** Transitions from state `s` (of the layer whose transitions start at `first`), ascending priority, ties in file order. */
  private sortedFrom(s: number, first: number): number[] {
    const list: number[] = [];
    for (let t = first; t < this.transitionFrom.length; t++) if (this.transitionFrom[t] === s) list.push(t);
    return list.sort((a, b) => this.transitionPriority[a] - this.transitionPriority[b] || a - b);
  }

  private pushNode(kind: number, leaf: number): number {
    const node = this.nodeKind.length;
    this.nodeKind.push(kind);
    this.nodeLeaf.push(leaf);
    this.nodeChildStart.push(0);
    this.nodeChildCount.push(0);
    this.nodeParamA.push(-1);
    this.nodeParamB.push(-1);
    return node;
  }
}

function maskOf(mask: Readonly<Record<string, number>>, jointNames: readonly string[] | null, layer: string): Float32Array {
  if (!jointNames) throw new RangeError(`AnimationGraph: layer "${layer}" has a mask, and no joint names were given to resolve it`);
  const out = new Float32Array(jointNames.length);
  for (const [name, weight] of Object.entries(mask)) {
    const j = jointNames.indexOf(name);
    if (j < 0) throw new RangeError(`AnimationGraph: layer "${layer}" masks joint "${name}", which the skeleton does not have`);
    out[j] = weight;
  }
  return out;
}
