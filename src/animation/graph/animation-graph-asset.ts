/**
 * The data of an animation state graph, as read from JSON (`readAnimationGraph`, src/loaders/animation-graph/):
 * the names and shapes of PlayCanvas's `AnimStateGraph` asset (its "layers as an array" form) wherever it has a
 * name for a thing, so a graph exported from PlayCanvas reads as it is. Sinew's additions and departures are
 * marked "Sinew:" on each field and listed in docs/guide/animation-graph.md ("Departures from PlayCanvas").
 *
 * Plain data (no behaviour): compiled once by `AnimationGraph` (animation-graph.ts) against a model's clips.
 */
export interface AnimationGraphAsset {
  /** The graph's parameters, by name. */
  readonly parameters: readonly GraphParameter[];
  /** Layers, bottom first: layer 0 drives the Animator's base layer, layer i its layer i. */
  readonly layers: readonly GraphLayer[];
}

/** PlayCanvas's `ANIM_PARAMETER_*` types. A `TRIGGER` is a boolean that the transition reading it resets. */
export type GraphParameterType = 'FLOAT' | 'INTEGER' | 'BOOLEAN' | 'TRIGGER';

/** A parameter: `{ "name", "type", "value" }` (PlayCanvas's record). */
export interface GraphParameter {
  readonly name: string;
  readonly type: GraphParameterType;
  /** Initial value; booleans and triggers as 1 (true) or 0 (false), integers rounded. */
  readonly value: number;
}

/** PlayCanvas's `ANIM_LAYER_*`: `OVERWRITE` (Sinew's `override` animator layer) or `ADDITIVE`. */
export type GraphBlendType = 'OVERWRITE' | 'ADDITIVE';

/** A layer: its states and the transitions between them. */
export interface GraphLayer {
  readonly name: string;
  /** Default `OVERWRITE`. */
  readonly blendType: GraphBlendType;
  /** Layer weight in [0, 1], default 1. */
  readonly weight: number;
  /**
   * Sinew: per-joint mask weights by joint name, `{ "Spine": 1, "Head": 0.5 }`; joints not named take 0. Absent:
   * every joint at 1. (PlayCanvas assigns masks from code, `AnimComponentLayer.assignMask`, not in the graph.)
   */
  readonly mask: Readonly<Record<string, number>> | null;
  /** Its states, the control states `START`, `END`, `ANY` among them (added when the file leaves them out). */
  readonly states: readonly GraphState[];
  readonly transitions: readonly GraphTransition[];
}

/** The control states' names (PlayCanvas's `ANIM_STATE_START`, `_END`, `_ANY`). */
export const START_STATE = 'START';
export const END_STATE = 'END';
export const ANY_STATE = 'ANY';

/** A state: a clip, or a blend tree of clips; the control states play nothing. */
export interface GraphState {
  readonly name: string;
  /** Playback rate, default 1. */
  readonly speed: number;
  /** Default true. A state that does not loop holds its end (its progress stops at 1). */
  readonly loop: boolean;
  /** Null: the state plays one clip ({@link clip}). */
  readonly blendTree: GraphBlendTree | null;
  /**
   * Sinew: the clip a clip state plays, by name; default the state's name (PlayCanvas assigns a track to a state
   * by the state's name from code, `assignAnimation`). Null for control states and blend-tree states.
   */
  readonly clip: string | null;
}

/** PlayCanvas's `ANIM_BLEND_*` tree types. */
export type GraphBlendTreeType = '1D' | '2D_CARTESIAN' | '2D_DIRECTIONAL' | 'DIRECT';

/** A blend tree node: children clips or trees, weighted from parameters. */
export interface GraphBlendTree {
  readonly name: string;
  readonly type: GraphBlendTreeType;
  /**
   * Parameters the weights read: 1D one (PlayCanvas's `parameter`), 2D two (`parameters`: x then y); DIRECT none
   * (each child names its own, {@link GraphBlendChild.parameter}).
   */
  readonly parameters: readonly string[];
  /**
   * Children at one normalised phase (default true, as PlayCanvas). Sinew: read on a state's root tree and
   * applied to all its clips, nested trees included (PlayCanvas synchronises each tree's children apart).
   */
  readonly syncAnimations: boolean;
  readonly children: readonly GraphBlendChild[];
}

/** A child of a blend tree: a clip, or a nested tree ({@link tree} non-null). */
export interface GraphBlendChild {
  readonly name: string;
  /** Its point: `[x]` in a 1D tree, `[x, y]` in 2D trees, `[]` in DIRECT. */
  readonly point: readonly number[];
  /** Playback rate multiplier of this clip, default 1. */
  readonly speed: number;
  /** Sinew: the clip it plays, default its name. Null for a nested tree. */
  readonly clip: string | null;
  /** DIRECT trees: the parameter giving its weight (Sinew's name for PlayCanvas's per-child `parameter`). */
  readonly parameter: string | null;
  /** A nested tree, or null for a clip. */
  readonly tree: GraphBlendTree | null;
}

/** PlayCanvas's `ANIM_*` predicates. */
export type GraphPredicate = 'GREATER_THAN' | 'LESS_THAN' | 'GREATER_THAN_EQUAL_TO' | 'LESS_THAN_EQUAL_TO' | 'EQUAL_TO' | 'NOT_EQUAL_TO';

/** A condition: `parameter predicate value` (PlayCanvas's `parameterName`, `predicate`, `value`). */
export interface GraphCondition {
  readonly parameterName: string;
  readonly predicate: GraphPredicate;
  /** Booleans as 1 or 0. */
  readonly value: number;
}

/** PlayCanvas's `ANIM_INTERRUPTION_*`: which states' transitions may interrupt this one while it runs. */
export type GraphInterruptionSource = 'NONE' | 'PREV_STATE' | 'NEXT_STATE' | 'PREV_STATE_NEXT_STATE' | 'NEXT_STATE_PREV_STATE';

/** A transition (PlayCanvas's `AnimTransition` options). */
export interface GraphTransition {
  /** Source state's name (`ANY`: from whatever state is active). */
  readonly from: string;
  /** Destination state's name (`END`: goes where `START`'s first transition goes, as PlayCanvas). */
  readonly to: string;
  /** Crossfade duration, seconds, default 0. */
  readonly time: number;
  /** Lower first: the candidates are sorted ascending, ties in file order. Default 0. */
  readonly priority: number;
  /** All must hold. */
  readonly conditions: readonly GraphCondition[];
  /**
   * Normalised source-state progress the transition may fire at (only in the update whose progress passes it;
   * below 1 on a looping state: every loop); null (or 0, as PlayCanvas's `hasExitTime`): any time.
   */
  readonly exitTime: number | null;
  /** Normalised time in (0, 1) the destination starts at; null: 0. */
  readonly transitionOffset: number | null;
  /** Default `NONE`. */
  readonly interruptionSource: GraphInterruptionSource;
}
