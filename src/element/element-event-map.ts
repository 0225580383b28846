/**
 * The events of `<sinew-viewer>` as TypeScript sees them on the element: `el.addEventListener('load', (e) =>
 * e.detail.url)` type-checks on a `SinewViewerElement` (its `addEventListener` / `removeEventListener`
 * overloads, sinew-viewer-element.ts) and on nothing else — other elements' event types are left as the DOM
 * has them. Each event is a bubbling, composed `CustomEvent` (element-events.ts), its `detail` typed as
 * `SinewEventDetails` says (tests/unit/element/event-types.ts checks the two agree).
 */
import type {
  ModelViewerErrorDetail, ModelViewerLoadDetail, ModelViewerProgressDetail, ModelVisibilityDetail, SinewCameraChangeDetail,
  SinewClipsAddedDetail, SinewErrorDetail, SinewLoadDetail, SinewLoopDetail, SinewMarkerDetail,
  SinewProgressDetail, SinewTimeUpdateDetail, SinewGraphLoadDetail, SinewGraphStateDetail, SinewGraphTransitionDetail,
} from './element-events.ts';

/**
 * The element's event types: the DOM's for an HTML element, with `load`, `error` and `progress` replaced by
 * `<model-viewer>`'s `CustomEvent`s, and the element's own events added.
 */
export interface SinewViewerElementEventMap extends Omit<HTMLElementEventMap, 'load' | 'error' | 'progress'> {
  /** `<model-viewer>`'s: the model of `src` is shown and its first frame drawn. */
  load: CustomEvent<ModelViewerLoadDetail>;
  /** `<model-viewer>`'s: the model could not be loaded, or the WebGL context was lost. */
  error: CustomEvent<ModelViewerErrorDetail>;
  /** `<model-viewer>`'s: the load's progress in [0, 1]. */
  progress: CustomEvent<ModelViewerProgressDetail>;
  /** @deprecated `load`'s alias, kept for one release (its detail lists the model, its clips and warnings). */
  'sinew-load': CustomEvent<SinewLoadDetail>;
  /** A problem: a failed load, a malformed attribute, an unknown clip (the model shown plays on). */
  'sinew-error': CustomEvent<SinewErrorDetail>;
  /** @deprecated `progress`'s alias, kept for one release (bytes received and in all). */
  'sinew-progress': CustomEvent<SinewProgressDetail>;
  /** A clips file added its clips to the model shown. */
  'sinew-clipsadded': CustomEvent<SinewClipsAddedDetail>;
  /** The clip time, at most every 250 ms while playing. */
  'sinew-timeupdate': CustomEvent<SinewTimeUpdateDetail>;
  /** `<model-viewer>`'s: playback started (no detail). */
  play: CustomEvent<null>;
  /** `<model-viewer>`'s: playback paused (no detail). */
  pause: CustomEvent<null>;
  /** `<model-viewer>`'s: a playing clip wrapped or bounced. */
  loop: CustomEvent<SinewLoopDetail>;
  /** `<model-viewer>`'s: a clip made its last play. */
  finished: CustomEvent<SinewLoopDetail>;
  /** The playhead crossed a marker of the clip. */
  marker: CustomEvent<SinewMarkerDetail>;
  /** An animation graph drives the model shown (`animation-graph`, or an inline graph script): its parameters and layers. */
  'sinew-graphload': CustomEvent<SinewGraphLoadDetail>;
  /** A layer of the animation graph entered a state (a transition started to it). */
  'state-enter': CustomEvent<SinewGraphStateDetail>;
  /** A state of the animation graph stopped playing (its transition's crossfade ended). */
  'state-exit': CustomEvent<SinewGraphStateDetail>;
  /** A transition of the animation graph started. */
  'transition-start': CustomEvent<SinewGraphTransitionDetail>;
  /** A transition of the animation graph finished (after the `state-exit` of the state it left). */
  'transition-end': CustomEvent<SinewGraphTransitionDetail>;
  /** `<model-viewer>`'s: `appendAnimation` did something (no detail). */
  'append-animation': CustomEvent<null>;
  /** `<model-viewer>`'s: `detachAnimation` did something (no detail). */
  'detach-animation': CustomEvent<null>;
  /** `<model-viewer>`'s: the camera moved. */
  'camera-change': CustomEvent<SinewCameraChangeDetail>;
  /** `<model-viewer>`'s: `modelIsVisible` changed. */
  'model-visibility': CustomEvent<ModelVisibilityDetail>;
  /** `<model-viewer>`'s: the revealed model is shown (no detail). */
  'poster-dismissed': CustomEvent<null>;
}

