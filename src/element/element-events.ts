import type { AnimationEventList } from '../animation/animation-events.ts';

/**
 * The events `<sinew-viewer>` fires (docs/guide/events.md, events table): their `detail` types, how they are
 * dispatched, and how often `sinew-timeupdate` is.
 */

/** `detail` of the `sinew-load` event. */
export interface SinewLoadDetail {
  /** The model's name (its file name, e.g. `Fox.glb`; the built-in model's own name). */
  readonly model: string;
  /** Names of its clips, in file order. */
  readonly clips: readonly string[];
  /** Non-fatal problems (an unknown `clip`, loader warnings), each naming the file. */
  readonly warnings: readonly string[];
}

/** `detail` of the `sinew-error` event. */
export interface SinewErrorDetail {
  /** What went wrong, naming the file or attribute (e.g. `bad.glb: HTTP 404 Not Found for /m/bad.glb`). */
  readonly message: string;
}

/** `detail` of the `sinew-progress` event. */
export interface SinewProgressDetail {
  /** Bytes received so far, over the model's file and the companion files it fetched. */
  readonly loaded: number;
  /** Bytes in all: the sum of their sizes, or null while the size of any still downloading is unknown. */
  readonly total: number | null;
}

/** `detail` of the `sinew-clipsadded` event. */
export interface SinewClipsAddedDetail {
  /** The clips file's name (e.g. `walk.glb`). */
  readonly file: string;
  /** The clips it added, as named in `clips` (a taken name becomes `Walk (walk.glb)`). */
  readonly added: readonly string[];
  /** Every clip of the model now: its own, then those added. */
  readonly clips: readonly string[];
  /** The model's joints that matched a joint of the file by name, and those that did not (they keep their rest pose). */
  readonly matched: readonly string[];
  readonly unmatched: readonly string[];
  /** Non-fatal problems of the clips file and of retargeting, each naming the file. */
  readonly warnings: readonly string[];
}

/** `detail` of the `sinew-timeupdate` event. */
export interface SinewTimeUpdateDetail {
  /** Seconds into the clip. */
  readonly currentTime: number;
  /** Seconds: the clip's duration. */
  readonly duration: number;
  readonly paused: boolean;
}

/** `detail` of the `loop` and `finished` events (`<model-viewer>`'s names; `AnimationEvent`). */
export interface SinewLoopDetail {
  /** The clip's name (`<model-viewer>`'s `loop` detail calls it `name`). */
  readonly name: string;
  /** The clip's name again: Sinew's earlier field, kept for one release. */
  readonly clip: string;
  /**
   * Plays of the clip completed since it started or was sought: 1 at the first wrap (`loop`: each wrap, or
   * each bounce in `pingpong`); `finished`: the plays made (a `once` clip: 1; `play({repetitions: N})`: N).
   */
  readonly count: number;
}

/** `detail` of the `marker` event: the playhead crossed a named instant of a clip (`ClipMarker`). */
export interface SinewMarkerDetail {
  /** The clip's name. */
  readonly clip: string;
  /** The marker's name. */
  readonly name: string;
  /** Seconds: the marker's clip time. */
  readonly time: number;
}

/** `detail` of the `state-enter` and `state-exit` events: a layer of the animation graph entered or left a state. */
export interface SinewGraphStateDetail {
  /** The graph layer's name (`layers[i].name`). */
  readonly layer: string;
  /** The state entered, or the state that stopped playing (faded out). */
  readonly state: string;
}

/** `detail` of the `transition-start` and `transition-end` events of the animation graph. */
export interface SinewGraphTransitionDetail {
  /** The graph layer's name. */
  readonly layer: string;
  /** The state the transition leaves. */
  readonly from: string;
  /** The state it goes to (the active state from its start on). */
  readonly to: string;
}

/** `detail` of the `sinew-graphload` event: an animation graph drives the model shown. */
export interface SinewGraphLoadDetail {
  /** The graph's file name (`graph.json`), or `<script slot="animation-graph">` for an inline one. */
  readonly file: string;
  /** Its parameters' names, in file order. */
  readonly parameters: readonly string[];
  /** Its layers' names, bottom first. */
  readonly layers: readonly string[];
  /** Non-fatal problems (a layer no transition leaves `START` in; members of the animation API it ignores). */
  readonly warnings: readonly string[];
}

/** `detail` of the `load` event (`<model-viewer>`'s): the model of `src` is shown, its first frame drawn. */
export interface ModelViewerLoadDetail {
  /** The `src` it came from, as written (null for the built-in octopus). */
  readonly url: string | null;
  /**
   * Sinew's addition to `<model-viewer>`'s detail: what the loader noticed but could draw past (an unknown
   * extension, a clamped weight, …), one sentence each; the console gets each once per page too.
   */
  readonly warnings: readonly string[];
}

/** `detail` of the `error` event (`<model-viewer>`'s). */
export interface ModelViewerErrorDetail {
  /** `loadfailure`: the model could not be loaded; `webglcontextlost`: the browser lost the WebGL context. */
  readonly type: 'loadfailure' | 'webglcontextlost';
  /** The error (an `Error`; for a load, often a `LoadError` naming the file, place and problem). */
  readonly sourceError: unknown;
}

/** `detail` of the `progress` event (`<model-viewer>`'s). */
export interface ModelViewerProgressDetail {
  /** In [0, 1], never decreasing within a load: 0 when it starts, 1 once it settled (shown or failed). */
  readonly totalProgress: number;
  /** What progresses: always `model-load` (model-viewer also has `environment-update`, …). */
  readonly reason: 'model-load';
}

/** `detail` of the `model-visibility` event (`<model-viewer>`'s): the new `modelIsVisible`. */
export interface ModelVisibilityDetail {
  readonly visible: boolean;
}

/** `detail` of the `camera-change` event (`<model-viewer>`'s `CameraChangeDetails`). */
export interface SinewCameraChangeDetail {
  /** What moved the camera: `user-interaction` (orbit input), `none` (attributes, a new model, `jumpCameraToGoal`), `automatic`. */
  readonly source: 'user-interaction' | 'none' | 'automatic';
}

/** The `detail` type of each event the element fires. */
export interface SinewEventDetails {
  'sinew-load': SinewLoadDetail;
  'sinew-error': SinewErrorDetail;
  'sinew-timeupdate': SinewTimeUpdateDetail;
  'sinew-progress': SinewProgressDetail;
  'sinew-clipsadded': SinewClipsAddedDetail;
  loop: SinewLoopDetail;
  finished: SinewLoopDetail;
  marker: SinewMarkerDetail;
  /** `<model-viewer>`'s `play` and `pause`, `append-animation` and `detach-animation`: no detail. */
  play: null;
  pause: null;
  'append-animation': null;
  'detach-animation': null;
  load: ModelViewerLoadDetail;
  error: ModelViewerErrorDetail;
  progress: ModelViewerProgressDetail;
  'camera-change': SinewCameraChangeDetail;
  'state-enter': SinewGraphStateDetail;
  'state-exit': SinewGraphStateDetail;
  'transition-start': SinewGraphTransitionDetail;
  'transition-end': SinewGraphTransitionDetail;
  'sinew-graphload': SinewGraphLoadDetail;
}

/** Fires `type` on `target` with `detail`, bubbling and composed (it crosses the page's shadow roots). */
export function emitSinewEvent<K extends keyof SinewEventDetails>(target: EventTarget, type: K, detail: SinewEventDetails[K]): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

/**
 * Fires one DOM event per animation event of `events`, in order: `loop`, `finished`, `marker` of the clips, and
 * the animation graph's `state-enter`, `state-exit` (detail {@link SinewGraphStateDetail}), `transition-start`,
 * `transition-end` ({@link SinewGraphTransitionDetail}). Allocates an event per entry: they come at loop ends,
 * markers and state changes, not every frame.
 * @param layerNames the graph's layer names, by layer index (a graph event's layer); [] without a graph
 */
export function emitAnimationEvents(target: EventTarget, events: AnimationEventList, layerNames: readonly string[] = []): void {
  for (let i = 0; i < events.length; i++) {
    const e = events.events[i];
    const clip = e.clip ? e.clip.name : '';
    switch (e.type) {
      case 'marker':
        emitSinewEvent(target, 'marker', { clip, name: e.name, time: e.time });
        break;
      case 'loop':
      case 'finished':
        emitSinewEvent(target, e.type, { name: clip, clip, count: e.count });
        break;
      case 'state-enter':
      case 'state-exit':
        emitSinewEvent(target, e.type, { layer: layerNames[e.layer] ?? String(e.layer), state: e.name });
        break;
      case 'transition-start':
      case 'transition-end':
        emitSinewEvent(target, e.type, { layer: layerNames[e.layer] ?? String(e.layer), from: e.source, to: e.name });
        break;
    }
  }
}

/** Milliseconds of playback between two `sinew-timeupdate` events while playing. */
const TIME_UPDATE_INTERVAL_MS = 250;

/**
 * When a drawn frame fires `sinew-timeupdate`: at most every {@link TIME_UPDATE_INTERVAL_MS} while playing
 * (each event allocates); once per distinct time when paused, and once when playback stops (a pause, or a
 * `once` clip reaching its end) even at a time already reported.
 */
export class TimeUpdateThrottle {
  private lastMs = -Infinity;
  private lastTime = Number.NaN;
  private lastPaused = false;

  /**
   * Whether the frame drawn at `time` (seconds) fires the event; when it does, it counts as the last one.
   * @param nowMs the frame's clock, milliseconds (`performance.now()`)
   */
  due(time: number, playing: boolean, nowMs: number): boolean {
    const due = playing
      ? time !== this.lastTime && nowMs - this.lastMs >= TIME_UPDATE_INTERVAL_MS
      : time !== this.lastTime || !this.lastPaused;
    if (due) {
      this.lastMs = nowMs;
      this.lastTime = time;
      this.lastPaused = !playing;
    }
    return due;
  }
}
