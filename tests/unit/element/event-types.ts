/**
 * A type test, not run: `tsc --noEmit` (in `npm test`) checks it. `<sinew-viewer>`'s events are typed on the
 * element (`SinewViewerElementEventMap` and its `addEventListener` overloads), and nowhere else: a plain element
 * keeps the DOM's event types. Each `@ts-expect-error` line fails the check if it ever type-checks.
 */
import type { SinewViewerElement, SinewViewerElementEventMap } from '../../../src/element/index.ts';
import type { SinewEventDetails } from '../../../src/element/element-events.ts';

declare const viewer: SinewViewerElement;
declare const div: HTMLDivElement;

// On the element: `load`, `error`, `progress` carry model-viewer's details, and the element's own events theirs.
viewer.addEventListener('load', (e) => {
  const url: string | null = e.detail.url;
  void url;
});
viewer.addEventListener('error', (e) => {
  const type: 'loadfailure' | 'webglcontextlost' = e.detail.type;
  void type;
});
viewer.addEventListener('progress', (e) => {
  const fraction: number = e.detail.totalProgress;
  void fraction;
});
viewer.addEventListener('loop', (e) => {
  const count: number = e.detail.count;
  void count;
});
viewer.addEventListener('camera-change', function (e) {
  const source: 'user-interaction' | 'none' | 'automatic' = e.detail.source;
  // `this` is the element.
  const element: SinewViewerElement = this;
  void source;
  void element;
});
viewer.addEventListener('transition-start', (e) => {
  const route: string = `${e.detail.layer}: ${e.detail.from} → ${e.detail.to}`;
  void route;
});
viewer.addEventListener('state-enter', (e) => void e.detail.state);
// @ts-expect-error a state event names one state, not a transition's two
viewer.addEventListener('state-exit', (e) => void e.detail.from);
const onMarker = (e: SinewViewerElementEventMap['marker']): void => void e.detail.time;
viewer.addEventListener('marker', onMarker);
viewer.removeEventListener('marker', onMarker);
// The DOM's events keep their types, and any other name still takes a plain listener.
viewer.addEventListener('click', (e) => void e.clientX);
viewer.addEventListener('my-own-event', (e: Event) => void e.type);
// @ts-expect-error a detail field `load` does not have
viewer.addEventListener('load', (e) => void e.detail.clips);

// Not on other elements: no global augmentation adds the element's events to every HTML element.
div.addEventListener('loop', (e) => {
  // @ts-expect-error a div's `loop` is a plain Event: no detail
  void e.detail;
});
div.addEventListener('load', (e) => {
  // @ts-expect-error a div's `load` is a plain Event
  void e.detail.url;
});
div.addEventListener('marker', (e) => {
  // @ts-expect-error nor `marker`
  void e.detail;
});
// `document.createElement('sinew-viewer')` still gives the element (HTMLElementTagNameMap is kept).
document.createElement('sinew-viewer').addEventListener('finished', (e) => void e.detail.name);

// Every event with a detail type (element-events.ts) is in the map with that detail.
type DetailEvents = { [K in keyof SinewEventDetails]: CustomEvent<SinewEventDetails[K]> };
export const mapCoversDetails: DetailEvents = {} as Pick<SinewViewerElementEventMap, keyof SinewEventDetails>;
