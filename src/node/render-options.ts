import type { RenderFormat } from './render-format.ts';
import { isRenderFormat } from './render-format.ts';

/** What {@link renderModel} (and a render session's `render`) draws. */
export interface RenderModelOptions {
  /** Path of a `.glb`, `.gltf`, `.vrm` or `.md5mesh` file; files it names are read from its folder. */
  model: string;
  /**
   * Clips to play, as `sinew eval --anim` takes them: an `.md5anim` for an `.md5mesh` (its own skeleton; default:
   * `<name>.md5anim` next to the mesh, if present), or a `.glb` / `.gltf` (or an `.md5anim` for a glTF) whose
   * clips are retargeted onto the model by joint name (README "Clips from other files") and replace its own
   * for `clip`.
   */
  anim?: string;
  /**
   * Clip name or 0-based index; `rest` or `-1` for the rest pose; undefined: the first clip. With retargeted
   * `anim` clips, one of theirs, by the name `sinew eval --anim` gives it.
   */
  clip?: string;
  /**
   * What to return: `png` (default) a still at `time`; `apng`, `gif`, `webm` or `mp4` an animated preview of
   * `clip` from 0 s, frame k posed at k / `fps` seconds (not by the clock, so two runs give the same frames),
   * encoded in the page by `<sinew-viewer>`'s `toVideo`.
   */
  format?: RenderFormat;
  /** Seconds into the clip for a still, default 0 (clamped to the clip like the element's `seek`); png only. */
  time?: number;
  /** Animated formats: frames per second, default 30. */
  fps?: number;
  /** Animated formats: seconds of video, default the clip's duration. */
  duration?: number;
  /** Animated formats: degrees the camera turns about the vertical over the whole video, default 0. */
  turntable?: number;
  /** Animated formats: called as frames are encoded (`toVideo`'s `onProgress`), in order, the last at `frameCount`. */
  onProgress?: (framesDone: number, frameCount: number) => void;
  /** Picture size in pixels, default 640 × 480. */
  width?: number;
  height?: number;
  /** Camera yaw and pitch in degrees, and distance as a multiple of the framing distance. */
  yaw?: number;
  pitch?: number;
  distance?: number;
  /** CSS colour, or `transparent` for a PNG with alpha; default the viewer's background. */
  background?: string;
  /** Milliseconds to wait for the model to load, default 120 000. */
  timeoutMs?: number;
}

/** Thrown by {@link renderModel} when the model cannot be shown: `message` is the loader's, naming the file. */
export class RenderModelError extends Error {
  override name = 'RenderModelError';
}

/**
 * Checks the numbers and format of `options` before any browser starts.
 * @throws RangeError for a size outside [1, 8192] pixels, a non-finite time or camera value, a timeout, fps or
 *   duration that is not a positive number, an unknown format, or `time` with an animated format (a preview
 *   starts at 0 s)
 */
export function checkRenderOptions(options: RenderModelOptions): void {
  checkPixels('width', options.width ?? 640);
  checkPixels('height', options.height ?? 480);
  const format = options.format ?? 'png';
  if (!isRenderFormat(format)) throw new RangeError(`renderModel: format must be png, apng, gif, webm or mp4, got ${JSON.stringify(format)}`);
  for (const key of ['timeoutMs', 'fps', 'duration'] as const) {
    const value = options[key];
    if (value !== undefined && (!(value > 0) || !Number.isFinite(value))) throw new RangeError(`renderModel: ${key} must be a positive number, got ${value}`);
  }
  for (const key of ['time', 'yaw', 'pitch', 'distance', 'turntable'] as const) {
    const value = options[key];
    if (value !== undefined && !Number.isFinite(value)) throw new RangeError(`renderModel: ${key} must be a finite number, got ${value}`);
  }
  if (format !== 'png' && options.time !== undefined) throw new RangeError(`renderModel: time applies to a png still; a ${format} starts at 0 s`);
  if (format === 'png') {
    for (const key of ['fps', 'duration', 'turntable'] as const) {
      if (options[key] !== undefined) throw new RangeError(`renderModel: ${key} applies to an animated format (apng, gif, webm, mp4), not png`);
    }
  }
}

/** A picture dimension: a whole number of pixels in [1, 8192]. @throws RangeError otherwise */
function checkPixels(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > 8192) throw new RangeError(`renderModel: ${name} must be a whole number of pixels from 1 to 8192, got ${value}`);
}
