/**
 * What `sinew eval --graph` adds to its document (`Evaluation.graph`; docs/guide/cli.md, "Animation graphs"): the
 * run and what each layer plays at its end, so a script can see which states and clip times the vertices are of.
 */
export interface GraphRunReport {
  /** The graph's file name, without folders. */
  file: string;
  /** Updates per second of the run: 60. */
  hz: number;
  /** Updates run: ⌈T·hz⌉ (the last one shortened so the total is T), or 1 of dt 0 for T = 0. */
  steps: number;
  /**
   * Every parameter's value after the run, by name, in the graph's order: FLOAT and INTEGER as numbers, BOOLEAN and
   * TRIGGER as booleans (a trigger a transition consumed reads false).
   */
  parameters: Record<string, number | boolean>;
  layers: GraphLayerReport[];
}

/** One layer at the end of the run. */
export interface GraphLayerReport {
  name: string;
  /** The active state (the destination while a transition runs); `START` when nothing left it. */
  state: string;
  /** The transition running, or null: the state it left and its progress t in [0, 1) (the destination's weight). */
  transition: { from: string; progress: number } | null;
  /**
   * Each clip playing, the active state's first, then those of states fading out: its name, its weight in the layer
   * (state weight × its weight in the state's blend tree) and its time, seconds into the clip.
   */
  clips: { state: string; clip: string; weight: number; time: number }[];
}
