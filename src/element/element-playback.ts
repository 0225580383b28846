/**
 * How `<sinew-viewer>`'s playback, camera and skinning attributes reach its {@link ModelView}: each attribute
 * read by its rule in {@link ELEMENT_ATTRIBUTES}; a malformed one is reported (when a reporter is given) and
 * leaves the view's setting as it was.
 */
import type { ModelView } from '../view/model-view.ts';
import { DEFAULT_FADE_SECONDS } from '../view/playback.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import { readAttribute, type ELEMENT_ATTRIBUTES } from './element-attributes.ts';

/** Where a malformed attribute is reported (the element's `sinew-error`), or null to read it silently. */
export type AttributeReporter = ((message: string) => void) | null;

/** Camera pitch (degrees) when the `pitch` attribute is absent. */
const DEFAULT_PITCH = 10;

/** Whether `name` is absent or blank on `element` (its default then applies). */
function isBlank(element: Element, name: keyof typeof ELEMENT_ATTRIBUTES): boolean {
  return (element.getAttribute(name) ?? '').trim() === '';
}

/** Playing by default; paused when `time` is set, unless `autoplay`. */
export function startsPlaying(element: Element): boolean {
  return element.hasAttribute('autoplay') || readAttribute(element, 'time', null).value === null;
}

/**
 * Applies `clip` (when `clipToo`), then `time` and `autoplay`, to the model `view` shows; an unknown clip and a
 * malformed `time` are reported (a malformed `time` then changes nothing more).
 */
export function applyPlayback(element: Element, view: ModelView, clipToo: boolean, report: (message: string) => void): void {
  const asset = view.asset;
  if (!asset) return;
  if (clipToo) {
    const clip = element.getAttribute('clip');
    if (clip === null) view.selectClip(asset.clips.length > 0 ? 0 : -1);
    else if (!view.selectClipByName(clip)) {
      const names = asset.clips.map((c) => c.name);
      report(`<sinew-viewer clip="${clip}">: ${asset.name} has no such clip (clips: ${names.join(', ') || 'none'})`);
    }
  }
  const time = readAttribute(element, 'time', report);
  if (time.error) return;
  if (time.value !== null) view.seek(time.value);
  if (startsPlaying(element)) view.play();
  else view.pause();
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
 * Applies `speed`, `loop`, `fade`, `root-motion` (absent: 1, `loop`, {@link DEFAULT_FADE_SECONDS}, `off`); a
 * malformed one leaves that setting as it was.
 * @param only apply just this attribute
 */
export function applyPlaybackSettings(element: Element, view: ModelView, report: AttributeReporter, only?: 'speed' | 'loop' | 'fade' | 'root-motion'): void {
  if (!only || only === 'speed') {
    const speed = readAttribute(element, 'speed', report).value;
    if (speed !== null || isBlank(element, 'speed')) view.setSpeed(speed ?? 1);
  }
  if (!only || only === 'loop') {
    const loop = readAttribute(element, 'loop', report).value;
    if (loop !== null || isBlank(element, 'loop')) view.setLoop(loop ?? 'loop');
  }
  if (!only || only === 'fade') {
    const fade = readAttribute(element, 'fade', report).value;
    if (fade !== null || isBlank(element, 'fade')) view.setFade(fade ?? DEFAULT_FADE_SECONDS);
  }
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
