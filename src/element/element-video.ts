import { findClipIndex, unknownClipHint } from '../animation/find-clip.ts';
import type { ModelView } from '../view/model-view.ts';
import { createFrameEncoder } from '../video/create-frame-encoder.ts';
import type { FrameEncoder } from '../video/frame-encoder.ts';
import { isVideoMimeType, VIDEO_MIME_TYPES, type VideoMimeType } from '../video/video-formats.ts';

/**
 * `<sinew-viewer>`'s `toVideo(options)`: an animated preview of the model shown, as WebM, MP4, animated PNG or GIF.
 * Frames are posed by time, not by the clock: frame k shows the clip at k / fps seconds (wrapped into the clip: a
 * recording longer than the clip loops it) and the camera turned by `turntable · k / frameCount` degrees of yaw,
 * drawn at once and read from the element's visible canvas as `toBlob` reads it (the same pixels: an APNG's frame k
 * is `toBlob()` after `seek(k / fps)` and `renderOnce()`). The same element, model and options give the same frames,
 * however slow the page. Playback (clip, time, paused or playing) and the camera's yaw are put back afterwards;
 * a crossfade running when the call started is cut. The encoders are loaded on first use (src/video/).
 */

/** Options of {@link SinewViewerElement.toVideo}. */
export interface ToVideoOptions {
  /** The clip recorded, by name (or index, or `rest`, as `animation-name` takes it); default the clip shown. */
  readonly clip?: string;
  /** Frames per second, > 0 and at most {@link MAX_FPS} (GIF: at most {@link MAX_GIF_FPS}); default 30. */
  readonly fps?: number;
  /** Seconds recorded, > 0; default the clip's duration (then required for the rest pose or a one-key clip). */
  readonly duration?: number;
  /** `video/webm` (default), `video/mp4`, `image/apng` or `image/gif` (src/video/video-formats.ts). */
  readonly mimeType?: string;
  /** Degrees of camera yaw over the whole recording (360: one turn around the model); default 0. */
  readonly turntable?: number;
  /** Called after each frame is encoded with the frames done and the frame count. */
  readonly onProgress?: (framesDone: number, frameCount: number) => void;
}

/** The most frames one recording takes (two minutes at 30 fps). */
export const MAX_VIDEO_FRAMES = 3600;
/** The highest frame rate asked for, frames per second. */
export const MAX_FPS = 240;
/** GIF delays are whole centiseconds, and browsers slow delays under 2 cs down: at most 50 fps. */
export const MAX_GIF_FPS = 50;
/** APNG holds every frame's RGBA pixels until it compresses them: at most 2^28 pixels (1 GiB) over all frames. */
export const MAX_APNG_PIXELS = 2 ** 28;

/** A recording resolved from {@link ToVideoOptions}: every value checked, defaults filled in. */
export interface VideoPlan {
  /** The clip recorded: an index into the model's clips, −1 for the rest pose. */
  readonly clipIndex: number;
  /** Seconds: the clip's duration (0 for the rest pose or a one-key clip: every frame at time 0). */
  readonly clipDuration: number;
  readonly mimeType: VideoMimeType;
  readonly fps: number;
  /** round(duration · fps), in [1, {@link MAX_VIDEO_FRAMES}]. */
  readonly frameCount: number;
  /** Degrees of yaw over the recording. */
  readonly turntable: number;
}

/** What {@link planVideo} reads of the element: the model's name, its clips, the clip shown and the picture's size. */
export interface VideoSubject {
  readonly model: string;
  readonly clipNames: readonly string[];
  /** Seconds, per clip. */
  readonly clipDurations: readonly number[];
  /** The clip shown, −1 for the rest pose. */
  readonly clipIndex: number;
  /** Pixels: the canvas's drawing-buffer size. */
  readonly width: number;
  readonly height: number;
}

/**
 * Checks `options` against `subject` and fills in the defaults.
 * @throws TypeError for options that are not an object, a clip that is not a string, a mimeType that is not one of
 *   {@link VIDEO_MIME_TYPES} or an onProgress that is not a function
 * @throws RangeError for an fps outside (0, {@link MAX_FPS}] (GIF: (0, {@link MAX_GIF_FPS}]), a duration that is not
 *   a positive number (or missing for a clip without duration), a non-finite turntable, fewer than one or more than
 *   {@link MAX_VIDEO_FRAMES} frames, or an APNG over {@link MAX_APNG_PIXELS} pixels
 * @throws Error for a clip the model does not have (the message lists its clips)
 */
export function planVideo(options: ToVideoOptions | undefined, subject: VideoSubject): VideoPlan {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`toVideo: options must be an object, got ${String(options)}`);
  }
  const o: ToVideoOptions = options ?? {};
  const mimeType = o.mimeType ?? 'video/webm';
  if (typeof mimeType !== 'string' || !isVideoMimeType(mimeType)) {
    throw new TypeError(`toVideo: unsupported mimeType ${JSON.stringify(mimeType)}; use one of ${VIDEO_MIME_TYPES.join(', ')}`);
  }
  const fps = o.fps ?? 30;
  const maxFps = mimeType === 'image/gif' ? MAX_GIF_FPS : MAX_FPS;
  if (typeof fps !== 'number' || !(fps > 0) || !(fps <= maxFps)) {
    throw new RangeError(`toVideo: fps must be a number in (0, ${maxFps}]${mimeType === 'image/gif' ? ' for image/gif (delays are whole centiseconds)' : ''}, got ${String(fps)}`);
  }
  let clipIndex = subject.clipIndex;
  if (o.clip !== undefined) {
    if (typeof o.clip !== 'string') throw new TypeError(`toVideo: clip must be a clip's name, got ${String(o.clip)}`);
    const found = findClipIndex(o.clip, subject.clipNames);
    if (found === null) throw new Error(`toVideo: ${subject.model || 'the model'} has no clip "${o.clip}"; ${unknownClipHint(o.clip, subject.clipNames)}`);
    clipIndex = found;
  }
  const clipDuration = clipIndex >= 0 ? subject.clipDurations[clipIndex] ?? 0 : 0;
  let duration = o.duration;
  if (duration === undefined) {
    if (!(clipDuration > 0)) {
      const what = clipIndex >= 0 ? `clip "${subject.clipNames[clipIndex]}" lasts no time (one key)` : 'the rest pose has no duration';
      throw new RangeError(`toVideo: ${what}; give options.duration in seconds`);
    }
    duration = clipDuration;
  } else if (typeof duration !== 'number' || !(duration > 0) || !Number.isFinite(duration)) {
    throw new RangeError(`toVideo: duration must be a positive number of seconds, got ${String(duration)}`);
  }
  const frameCount = Math.round(duration * fps);
  if (frameCount < 1) throw new RangeError(`toVideo: ${duration} s at ${fps} fps is less than one frame`);
  if (frameCount > MAX_VIDEO_FRAMES) {
    throw new RangeError(`toVideo: ${duration} s at ${fps} fps is ${frameCount} frames; at most ${MAX_VIDEO_FRAMES} (lower the duration or fps)`);
  }
  if (mimeType === 'image/apng' && frameCount * subject.width * subject.height > MAX_APNG_PIXELS) {
    throw new RangeError(
      `toVideo: ${frameCount} frames of ${subject.width} × ${subject.height} pixels is over the ${MAX_APNG_PIXELS} pixels an image/apng holds while it is made; `
      + 'make the element smaller, or lower the duration or fps (or use video/webm)',
    );
  }
  const turntable = o.turntable ?? 0;
  if (typeof turntable !== 'number' || !Number.isFinite(turntable)) {
    throw new RangeError(`toVideo: turntable must be a finite number of degrees, got ${String(turntable)}`);
  }
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') throw new TypeError('toVideo: onProgress must be a function');
  return { clipIndex, clipDuration, mimeType, fps, frameCount, turntable };
}

/**
 * Seconds into the clip frame `k` of `plan` shows: k / fps, wrapped into [0, clip duration) (0 for a clip without
 * duration). k / fps is one division, so frame k's time is the same in every recording at that fps.
 */
export function frameTime(plan: VideoPlan, k: number): number {
  const t = k / plan.fps;
  const d = plan.clipDuration;
  return d > 0 ? t - Math.floor(t / d) * d : 0;
}

/** Milliseconds between yields to the page, so it repaints (the progress shown) during a long recording. */
const YIELD_EVERY_MS = 50;

/** Lets the page run a task (paint, input) in the middle of a recording. */
const yieldToPage = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** What an {@link ElementVideo} needs of its element. */
export interface ElementVideoHost {
  /** The element's view, or null while disconnected. */
  currentView(): ModelView | null;
  /** Whether an animation graph chooses the clips (then there is no one clip to record). */
  graphDrives(): boolean;
}

/**
 * One element's recordings: at most one at a time (a second call while one runs rejects: recordings would fight over
 * the element's playback), each with its state put back afterwards.
 */
export class ElementVideo {
  private readonly host: ElementVideoHost;
  private running = false;

  constructor(host: ElementVideoHost) {
    this.host = host;
  }

  /**
   * Records `options` (see {@link ToVideoOptions}, {@link planVideo}) into a Blob of its mimeType.
   * @throws Error (rejects) as {@link planVideo}; while disconnected or before a model is shown; while an animation
   *   graph drives the element; while another recording of the element runs; when the browser cannot encode the
   *   format (WebM / MP4 without WebCodecs or a codec); when the model, the element's canvas size or its connection
   *   changes during the recording. Playback is put back in every case.
   */
  async record(options?: ToVideoOptions): Promise<Blob> {
    if (this.running) throw new Error('toVideo: a recording of this element is already running; await it before starting another');
    const view = this.host.currentView();
    const asset = view?.asset;
    if (!view || !asset) throw new Error('toVideo: no model is shown yet (wait for the element\'s load event)');
    if (this.host.graphDrives()) throw new Error('toVideo: an animation graph chooses this element\'s clips; remove animation-graph to record a clip');
    const plan = planVideo(options, {
      model: asset.name,
      clipNames: asset.clips.map((clip) => clip.name),
      clipDurations: asset.clips.map((clip) => clip.duration),
      clipIndex: view.playback.clipIndex,
      width: view.canvas.width,
      height: view.canvas.height,
    });
    this.running = true;
    try {
      // The page shows the element's background behind its transparent canvas; formats without alpha paint it in.
      const background = getComputedStyle(view.canvas).backgroundColor;
      const encoder = await createFrameEncoder(plan.mimeType, { width: view.canvas.width, height: view.canvas.height, fps: plan.fps, frameCount: plan.frameCount, background });
      return await this.recordFrames(view, plan, encoder, options?.onProgress);
    } finally {
      this.running = false;
    }
  }

  /** Poses, draws and encodes every frame of `plan`, then puts playback and the camera back. */
  private async recordFrames(view: ModelView, plan: VideoPlan, encoder: FrameEncoder, onProgress: ToVideoOptions['onProgress']): Promise<Blob> {
    const asset = view.asset;
    const playback = view.playback;
    const camera = view.camera;
    const saved = { clip: playback.clipIndex, time: playback.time, playing: playback.playing, yaw: camera.yaw };
    const degrees = Math.PI / 180;
    try {
      this.checkSubject(view, asset);
      view.pause();
      if (playback.clipIndex !== plan.clipIndex) view.selectClip(plan.clipIndex, 0);
      let yielded = performance.now();
      for (let k = 0; k < plan.frameCount; k++) {
        playback.seek(frameTime(plan, k));
        camera.yaw = saved.yaw + ((plan.turntable * k) / plan.frameCount) * degrees;
        view.renderOnce();
        await encoder.addFrame(view.canvas, k);
        onProgress?.(k + 1, plan.frameCount);
        if (performance.now() - yielded > YIELD_EVERY_MS) {
          await yieldToPage();
          yielded = performance.now();
        }
        this.checkSubject(view, asset);
      }
      return await encoder.finish();
    } catch (e) {
      encoder.cancel();
      throw e;
    } finally {
      if (this.host.currentView() === view && view.asset === asset) {
        if (playback.clipIndex !== saved.clip) view.selectClip(saved.clip, 0);
        playback.seek(saved.time);
        camera.yaw = saved.yaw;
        if (saved.playing) view.play();
        else view.renderOnce();
      }
    }
  }

  /** @throws Error when the element left the document or shows another model than `asset` (a new `src`) */
  private checkSubject(view: ModelView, asset: unknown): void {
    if (this.host.currentView() !== view) throw new Error('toVideo: the element left the document during the recording');
    if (view.asset !== asset) throw new Error('toVideo: the element began showing another model during the recording');
  }
}
