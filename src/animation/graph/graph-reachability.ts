import { ANY_STATE, END_STATE, START_STATE, type AnimationGraphAsset, type GraphBlendTree, type GraphLayer } from './animation-graph-asset.ts';

/** One layer's reachability ({@link analyzeGraphReachability}). */
export interface LayerReachability {
  /** The layer's name. */
  readonly layer: string;
  /** States that play something (neither `START`, `END` nor `ANY`) some path of transitions reaches, in file order. */
  readonly reachable: readonly string[];
  /** States that play something and no path of transitions reaches, in file order. */
  readonly unreachable: readonly string[];
  /**
   * Whether a transition leaves `START` for a state that plays something: one from `START`, or one from `ANY`
   * (the runtime scans `ANY`'s transitions from `START` too). False: the layer stays in `START` and plays nothing.
   */
  readonly leavesStart: boolean;
}

/** What {@link analyzeGraphReachability} finds. */
export interface GraphReachability {
  /** Per layer, in the graph's order. */
  readonly layers: readonly LayerReachability[];
  /** Parameters no transition condition and no blend tree reads, in the graph's order. */
  readonly unusedParameters: readonly string[];
}

/**
 * The structure of a graph, the conditions aside: which states a path of transitions from `START` reaches, which
 * parameters nothing reads, and which layers never leave `START`. A pure function of the asset (no clips, no model),
 * so the command line (`sinew inspect --graph`), the element and the viewer can all say the same thing; it sits
 * beside the graph's types in the animation room, below the loaders, because it names no file (callers word the
 * warnings).
 *
 * Edges are the transitions as `AnimationGraph.update` takes them (docs/guide/animation-graph.md, "What one update
 * does"): a transition from a state is an edge from it; a transition from `ANY` is an edge from every state,
 * `START` included (the runtime scans `ANY`'s list whatever the active state); a transition to `END` goes where
 * `START`'s first transition goes (ascending `priority`, ties in file order — PlayCanvas's rule), or back to
 * `START` when none does. Conditions and exit times are not evaluated: a state is reachable when some path of
 * transitions leads to it, whether or not its parameters can ever satisfy them.
 *
 * Cost O(states + transitions) per layer, plus the trees' sizes; allocates (run once per graph, not per frame).
 */
export function analyzeGraphReachability(asset: AnimationGraphAsset): GraphReachability {
  const read = new Set<string>();
  for (const layer of asset.layers) {
    for (const transition of layer.transitions) for (const c of transition.conditions) read.add(c.parameterName);
    for (const state of layer.states) if (state.blendTree) treeParameters(state.blendTree, read);
  }
  return {
    layers: asset.layers.map(layerReachability),
    unusedParameters: asset.parameters.filter((p) => !read.has(p.name)).map((p) => p.name),
  };
}

function layerReachability(layer: GraphLayer): LayerReachability {
  const byPriority = (a: { priority: number }, b: { priority: number }) => a.priority - b.priority; // stable: ties keep file order
  const fromStart = layer.transitions.filter((t) => t.from === START_STATE).sort(byPriority);
  const endGoesTo = fromStart.length > 0 ? fromStart[0].to : START_STATE;
  const target = (to: string) => (to === END_STATE ? endGoesTo : to);
  const anyTargets = layer.transitions.filter((t) => t.from === ANY_STATE).map((t) => target(t.to));
  const control = (name: string) => name === START_STATE || name === END_STATE || name === ANY_STATE;

  const reached = new Set<string>([START_STATE]);
  const queue = [START_STATE, ...anyTargets];
  for (const name of anyTargets) reached.add(name);
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const t of layer.transitions) {
      if (t.from !== from) continue;
      const to = target(t.to);
      if (reached.has(to)) continue;
      reached.add(to);
      queue.push(to);
    }
  }
  const playing = layer.states.filter((s) => !control(s.name)).map((s) => s.name);
  const firstMoves = [...fromStart.map((t) => target(t.to)), ...anyTargets];
  return {
    layer: layer.name,
    reachable: playing.filter((name) => reached.has(name)),
    unreachable: playing.filter((name) => !reached.has(name)),
    leavesStart: firstMoves.some((name) => !control(name)),
  };
}

/** Adds every parameter `tree` and its nested trees read (their axes, DIRECT children's weights) to `out`. */
function treeParameters(tree: GraphBlendTree, out: Set<string>): void {
  for (const name of tree.parameters) out.add(name);
  for (const child of tree.children) {
    if (child.parameter !== null) out.add(child.parameter);
    if (child.tree) treeParameters(child.tree, out);
  }
}
