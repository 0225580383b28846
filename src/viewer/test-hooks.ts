import type { FrameStats } from './frame-readback.ts';
import type { ViewerApp, ViewerState } from './viewer-app.ts';

/**
 * Hooks the viewer installs as `window.sinew` for Playwright tests and the console. Besides these, the
 * page sets `document.body.dataset.ready = 'true'` once the first model has been drawn.
 *
 * Headless Chromium throttles requestAnimationFrame, so tests pause (or `setTime`) and draw frames with
 * `renderOnce()` themselves. Context loss is driven with the canvas's own `WEBGL_lose_context` extension
 * (`#sinew-canvas`).
 */
export interface SinewTestHooks {
  /** Resolves once the first model has been drawn. */
  readonly ready: Promise<void>;
  /** Pauses and jumps to `seconds` (clamped to the clip), then draws. */
  setTime(seconds: number): void;
  /** Pauses playback. */
  pause(): void;
  /** Resumes playback. */
  play(): void;
  /** Draws one frame now at the current time. */
  renderOnce(): void;
  /**
   * Loads a model from a URL (name: file name for data:/blob: URLs, e.g. `bad.glb`). Resolves once it is
   * shown or has failed (then `state().error` holds the message); never rejects. Resolves to success.
   */
  loadUrl(url: string, name?: string): Promise<boolean>;
  /** Selects a clip by name or index (−1 / 'rest': rest pose). Returns false when none matches. */
  selectClip(clip: string | number): boolean;
  /** Sets the camera: degrees, and distance as a multiple of the framed distance. */
  setCamera(view: { yaw?: number; pitch?: number; distance?: number }): void;
  /** Draws a frame and returns the fraction of pixels that differ from the background (0 when none drawn). */
  coverage(): number;
  /**
   * Draws a frame and returns its fingerprint: coverage and a cols × rows grid of mean luminance (0–255),
   * to tell whether two frames differ. Null when nothing can be drawn.
   */
  inspectFrame(cols?: number, rows?: number): FrameStats | null;
  /** What the viewer shows now. */
  state(): ViewerState;
}

declare global {
  interface Window {
    /** Test and console hooks of the Sinew viewer page. */
    sinew?: SinewTestHooks;
  }
}

/** Installs `window.sinew` for `app`. */
export function installTestHooks(app: ViewerApp): SinewTestHooks {
  const hooks: SinewTestHooks = {
    ready: app.ready,
    setTime: (s) => app.setTime(s),
    pause: () => app.pause(),
    play: () => app.play(),
    renderOnce: () => app.renderOnce(),
    loadUrl: (url, name) => app.loadUrl(url, name),
    selectClip: (clip) => {
      const ok = app.selectClipByName(clip);
      if (ok) app.renderOnce();
      return ok;
    },
    setCamera: (view) => {
      app.setCamera(view);
      app.renderOnce();
    },
    coverage: () => app.inspectFrame()?.coverage ?? 0,
    inspectFrame: (cols, rows) => app.inspectFrame(cols, rows),
    state: () => app.state(),
  };
  window.sinew = hooks;
  return hooks;
}
