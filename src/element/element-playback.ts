/**
 * How `<sinew-viewer>`'s playback, camera and skinning attributes reach its {@link ModelView}: each attribute
 * read by its rule in {@link ELEMENT_ATTRIBUTES}; a malformed one is reported (when a reporter is given) and
 * leaves the view's setting as it was.
 */
import type { ModelView } from '../view/model-view.ts';
import { didYouMean } from '../math/did-you-mean.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import { DEFAULT_CROSSFADE_MS, readAttribute, type ELEMENT_ATTRIBUTES } from './element-attributes.ts';

/** Where a malformed attribute is reported (the element's `sinew-error`), or null to read it silently. */
export type AttributeReporter = ((message: string) => void) | null;

/** Camera pitch (degrees) when the `pitch` attribute is absent. */
const DEFAULT_PITCH = 10;

/** Whether `name` is absent or blank on `element` (its default then applies). */
function isBlank(element: Element, name: keyof typeof ELEMENT_ATTRIBUTES): boolean {
  return (element.getAttribute(name) ?? '').trim() === '';
}

/**
 * The clip the element asks for: `animation-name`, else its deprecated alias `clip`, with the attribute that
 * said it; null when neither is present.
 */
export function requestedClip(element: Element): { readonly attribute: 'animation-name' | 'clip'; readonly value: string } | null {
  const name = element.getAttribute('animation-name');
  if (name !== null) return { attribute: 'animation-name', value: name };
  const clip = element.getAttribute('clip');
  return clip === null ? null : { attribute: 'clip', value: clip };
}

/**
 * Seconds of crossfade of a clip change: `animation-crossfade-duration` (milliseconds), else the deprecated
 * `fade` (seconds), else {@link DEFAULT_CROSSFADE_MS}. A malformed one is reported (when `report`) and
 * counts as absent.
 */
export function crossfadeSeconds(element: Element, report: AttributeReporter): number {
  const ms = readAttribute(element, 'animation-crossfade-duration', report).value;
  if (ms !== null) return ms / 1000;
  if (element.hasAttribute('animation-crossfade-duration')) return DEFAULT_CROSSFADE_MS / 1000;
  const seconds = readAttribute(element, 'fade', report).value;
  return seconds ?? DEFAULT_CROSSFADE_MS / 1000;
}

/** model-viewer's rule: the element plays only with `autoplay` (or after `play()`); it stands still otherwise. */
export function startsPlaying(element: Element): boolean {
  return element.hasAttribute('autoplay');
}

/**
 * Plays `view`'s clip; at the rest pose (no clip chosen yet) the first clip starts, as model-viewer's `play()`
 * starts its first animation when `animation-name` is absent.
 */
export function playFromRest(view: ModelView): void {
  if (view.playback.clipIndex < 0 && (view.asset?.clips.length ?? 0) > 0) view.selectClip(0, 0);
  view.play();
}

/** What made the element apply its playback attributes: one of them changed, or a load settled (all of them). */
export type PlaybackChange = 'clip' | 'animation-name' | 'time' | 'autoplay' | 'all';

/**
 * Applies the playback attributes to the model `view` shows, by model-viewer's rules (features/animation.ts):
 * - the clip (`animation-name`, else `clip`) on a load or when it changes; with neither a clip, `time` nor
 *   `autoplay` the model stands in its rest pose, as model-viewer shows a model nobody asked to animate. A clip
 *   change keeps the play state (paused: the new clip's first frame).
 * - `autoplay` added plays (from the rest pose: the first clip); removed, nothing changes.
 * - `time` (Sinew-only) seeks there and pauses, unless `autoplay` plays on from there.
 * - after a load (`all`): plays with `autoplay`, else stands still.
 * An unknown clip and a malformed `time` are reported (a malformed `time` then changes nothing more).
 */
export function applyPlayback(element: Element, view: ModelView, changed: PlaybackChange, report: (message: string) => void): void {
  const asset = view.asset;
  if (!asset) return;
  if (changed === 'all' || changed === 'clip' || changed === 'animation-name') {
    const clip = requestedClip(element);
    const animate = element.hasAttribute('autoplay') || element.hasAttribute('time') || view.playback.playing;
    if (clip === null) view.selectClip(asset.clips.length > 0 && animate ? 0 : -1);
    else if (!view.selectClipByName(clip.value)) {
      const names = asset.clips.map((c) => c.name);
      report(`<sinew-viewer ${clip.attribute}="${clip.value}">: ${asset.name} has no such clip (${didYouMean(clip.value, names, ' ')}clips: ${names.join(', ') || 'none'})`);
    }
    if (changed !== 'all') return;
  }
  if (changed === 'autoplay') {
    if (startsPlaying(element)) playFromRest(view);
    return;
  }
  const time = readAttribute(element, 'time', report);
  if (time.error) return;
  if (time.value !== null) view.seek(time.value);
  if (startsPlaying(element)) playFromRest(view);
  else if (changed === 'all' || time.value !== null) view.pause();
}

/** Applies `yaw`, `pitch`, `distance` (absent: 0°, 10°, 1); a malformed one leaves that camera value alone. */
export function applyCamera(element: Element, view: ModelView, report: AttributeReporter): void {
  const value = (name: 'yaw' | 'pitch' | 'distance', fallback: number): number | undefined => {
    const reading = readAttribute(element, name, report);
    if (reading.value !== null) return reading.value;
    return isBlank(element, name) ? fallback : undefined;
  };
  view.setCamera({ yaw: value('yaw', 0), pitch: value('pitch', DEFAULT_PITCH), distance: value('distance', 1) });
}

/**
 * Applies `speed`, `loop`, the crossfade ({@link crossfadeSeconds}), `root-motion` (absent: 1, `loop`,
 * 300 ms, `off`); a malformed `speed`, `loop` or `root-motion` leaves that setting as it was, a malformed
 * crossfade gives the default. `loop` also ends the repetitions of a `play({repetitions})`.
 * @param only apply just this attribute (`fade` and `animation-crossfade-duration` both apply the crossfade)
 */
export function applyPlaybackSettings(
  element: Element, view: ModelView, report: AttributeReporter,
  only?: 'speed' | 'loop' | 'fade' | 'animation-crossfade-duration' | 'root-motion',
): void {
  if (!only || only === 'speed') {
    const speed = readAttribute(element, 'speed', report).value;
    if (speed !== null || isBlank(element, 'speed')) view.setSpeed(speed ?? 1);
  }
  if (!only || only === 'loop') {
    const loop = readAttribute(element, 'loop', report).value;
    if (loop !== null || isBlank(element, 'loop')) {
      view.playback.repetitions = Infinity;
      view.setLoop(loop ?? 'loop');
    }
  }
  if (!only || only === 'fade' || only === 'animation-crossfade-duration') view.setFade(crossfadeSeconds(element, report));
  if (!only || only === 'root-motion') {
    const mode = readAttribute(element, 'root-motion', report).value;
    if (mode !== null && mode !== view.playback.rootMotion) {
      view.playback.rootMotion = mode;
      view.requestRedraw();
    }
  }
}

/**
 * Reads `skinning` and `weights`; a malformed one reads as its default (`lbs`, `normalize`) and is reported
 * when it is `changed` (the attribute that just changed).
 */
export function readSkinningMethod(element: Element, report: AttributeReporter, changed: 'skinning' | 'weights' | null = null): SkinningMethod {
  const skinning = readAttribute(element, 'skinning', changed === 'skinning' ? report : null).value;
  const weights = readAttribute(element, 'weights', changed === 'weights' ? report : null).value;
  return { skinning, weights };
}
