import { PixelRays } from '../view/pixel-ray.ts';
import { readFrame, type FrameStats } from './frame-readback.ts';
import type { ViewerApp, ViewerState } from './viewer-app.ts';
import { addTimings } from '../view/frame-inspector.ts';
import type { InspectionSettings, ParityReading } from './inspection.ts';
import type { PanelStats } from './viewer-panel.ts';
import { setSkinMatricesTamper } from './skin-matrices-tamper.ts';
import type { IkDemoState } from './ik-demo.ts';
import type { DriveDemoState } from './drive-demo.ts';

/**
 * Hooks the viewer page installs as `window.sinew` for Playwright tests and the console, in development only
 * (`import.meta.env.DEV`, the vite dev server the browser tests use): main.ts imports this module behind that
 * flag, so the production app build leaves it out, frame read-back included. Besides these, the
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
  /**
   * Resumes playback (`Playback.play`). A `once` clip reaching its end while playing stops playback
   * (`state().playing` false).
   */
  play(): void;
  /** Draws one frame now at the current time. */
  renderOnce(): void;
  /**
   * Loads a model from a URL (name: file name for data:/blob: URLs, e.g. `bad.glb`). Resolves once it is
   * shown or has failed (then `state().error` holds the message); never rejects. Resolves to success.
   */
  loadUrl(url: string, name?: string): Promise<boolean>;
  /**
   * Selects a clip by name or index (−1 / 'rest': rest pose), then draws. While playing it crossfades over
   * `state().fade` from the clip's start; while paused it cuts at the current time. With `fadeSeconds` it
   * crossfades over that long from the clip's start, playing or not (step time to see it blend). Returns
   * false when none matches.
   */
  selectClip(clip: string | number, fadeSeconds?: number): boolean;
  /**
   * Sets the playback rate (1 real time, −1 backwards) of every clip playing, fading ones included, and of
   * clips started later. Throws a RangeError when not finite.
   */
  setSpeed(speed: number): void;
  /** Sets the loop mode of the current clip (keeping its time) and later ones. */
  setLoop(mode: 'loop' | 'once' | 'pingpong'): void;
  /** Sets the crossfade duration of clip changes while playing, seconds ≥ 0. */
  setFade(seconds: number): void;
  /**
   * Pauses, moves the animation on by `dtSeconds` (≥ 0) as playing would — clip times at their speed and
   * loop mode, crossfades — and draws. Deterministic, unlike the throttled animation frames.
   */
  step(dtSeconds: number): void;
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
  /** Sets debug views (as the panel's View folder does), then draws. Returns the settings now in force. */
  setView(settings: Partial<InspectionSettings>): InspectionSettings;
  /** Selects a joint by name or skeleton index (−1: none), then draws; returns its index (−1 when none matches). */
  selectJoint(joint: string | number): number;
  /** The selected joint's skeleton index, −1 for none. */
  selectedJoint(): number;
  /** The props drawn on the model's joints (`view.attachments`): prop name and joint name each. */
  attachments(): { prop: string; joint: string }[];
  /** Where joint `joint` (skeleton index) was drawn in the last frame: page CSS pixels, or null. */
  jointOnScreen(joint: number): { x: number; y: number } | null;
  /**
   * Draws a frame and measures max |GPU − CPU| of every skinned vertex in it (transform feedback, read back
   * after a fence); resolves to null when none.
   */
  compareNow(): Promise<ParityReading | null>;
  /**
   * Adds `offset` (model units) to the translation of every skinning matrix the GPU side of the comparison gets:
   * deliberately wrong skin matrices, to see the readout react. 0 restores it.
   */
  injectPaletteError(offset: number): void;
  /** Layers clip `clip` (index) over the selected one with `weight` in [0, 1], then draws. */
  setLayerWeight(clip: number, weight: number): void;
  /** Draws the frame at `scale` × the canvas size and returns the PNG data URL (null when nothing is drawn). */
  screenshot(scale?: number): string | null;
  /** Frame statistics as the Stats folder shows them, from `frames` frames drawn now back to back. */
  measureFrames(frames: number): PanelStats;
  /**
   * Detaches (false) or re-attaches (true) the inspection from the view, for measuring what the inspection costs
   * against the bare view (bench/viewer-frame-rate.ts).
   */
  attachInspection(on: boolean): void;
  /** Switches the IK folder's demos (as its controls do; `tilt` in degrees), draws, and returns their state. */
  ik(settings?: Partial<{ lookAt: boolean; feet: boolean; tilt: number }>): IkDemoState;
  /**
   * Joint `joint`'s world matrix (`AnimatedModel.jointMatrix`) for the last pose evaluated, column-major, and its
   * model-space matrix (no model origin subtracted, the space of the IK jobs' targets); null with no model.
   */
  jointMatrix(joint: number | string): { world: number[]; model: number[] } | null;
  /**
   * Where joint `joint` (index or name) stands in the last frame drawn: drawing-buffer pixels (top-left origin, y
   * down, the screenshot's), whether or not the skeleton is shown; null with no frame or behind the eye.
   */
  jointPixel(joint: number | string): { x: number; y: number } | null;
  /** Aims the camera at joint `joint` (index or name) from `distance` metres, keeping yaw and pitch, and draws. */
  aimAt(joint: number | string, distance: number): void;
  /**
   * Sets the "Spring bones" folder's controls given (as the controls would; wind: strength and direction in
   * degrees, `windVector`) and returns the view's spring state after drawing a frame: whether the model has spring
   * bones, whether they run, the wind vector, whether colliders are shown and how many line vertices they drew.
   */
  springs(settings?: { springs?: boolean; strength?: number; direction?: number; colliders?: boolean; reset?: boolean }): {
    present: boolean; enabled: boolean; wind: number[]; showColliders: boolean; colliderVertices: number;
  };
  /** The shown avatar's input weight of expression `name` (`ViewAvatar.getExpression`); throws for no avatar or name. */
  expression(name: string): number;
  /**
   * Switches the Drive folder on (resolves once the Drive avatar is shown and driven) or off, as its checkbox does;
   * without settings, its state. The input is the page's own: key events (↑ ↓ ← →, J) and the Gamepad API.
   */
  drive(settings?: { on?: boolean }): Promise<DriveDemoState>;
  /**
   * Moves the drive on by `frames` steps of `dtSeconds` (default 1), each reading the input held then, and draws:
   * deterministic, unlike the throttled animation frames (the folder's own frames stop). Returns its state.
   */
  driveStep(dtSeconds: number, frames?: number): DriveDemoState;
}

declare global {
  interface Window {
    /** Test and console hooks of the Sinew viewer page. */
    sinew?: SinewTestHooks;
  }
}

/** Installs `window.sinew` for `app`. */
export function installTestHooks(app: ViewerApp): SinewTestHooks {
  const rays = new PixelRays(), at = new Float64Array(3), world = new Float64Array(16);
  const hooks: SinewTestHooks = {
    ready: app.ready,
    setTime: (s) => app.setTime(s),
    pause: () => app.pause(),
    play: () => app.play(),
    renderOnce: () => app.renderOnce(),
    loadUrl: (url, name) => app.loadUrl(url, name),
    selectClip: (clip, fadeSeconds) => {
      const ok = app.selectClipByName(clip, fadeSeconds);
      if (ok) app.renderOnce();
      return ok;
    },
    setSpeed: (speed) => app.setSpeed(speed),
    setLoop: (mode) => app.setLoop(mode),
    setFade: (seconds) => app.setFade(seconds),
    step: (dt) => app.step(dt),
    setCamera: (view) => {
      app.setCamera(view);
      app.renderOnce();
    },
    coverage: () => inspectFrame(app)?.coverage ?? 0,
    inspectFrame: (cols, rows) => inspectFrame(app, cols, rows),
    state: () => app.state(),
    setView: (settings) => {
      Object.assign(app.inspection.settings, settings);
      app.panel.refreshView();
      app.renderOnce();
      return { ...app.inspection.settings };
    },
    selectJoint: (joint) => {
      const names = app.view.asset?.skeleton.names ?? [];
      const index = typeof joint === 'number' ? (joint < names.length ? joint : -1) : names.indexOf(joint);
      app.selectJoint(index);
      app.renderOnce();
      return index;
    },
    selectedJoint: () => app.inspection.selectedJoint,
    attachments: () => app.view.attachments.list().map((a) => ({ prop: a.asset.name, joint: a.jointName })),
    jointOnScreen: (joint) => {
      const at = app.inspection.jointOnScreen(joint);
      if (!at) return null;
      const rect = app.canvas.getBoundingClientRect();
      return { x: rect.left + (at[0] * rect.width) / app.canvas.width, y: rect.top + (at[1] * rect.height) / app.canvas.height };
    },
    compareNow: async () => {
      app.renderOnce();
      // The inspection's onReading shows the reading in the panel.
      return (await app.view.inspect((frame) => app.inspection.compareNow(frame))) ?? null;
    },
    injectPaletteError: (offset) => {
      setSkinMatricesTamper(app.inspection, offset);
    },
    setLayerWeight: (clip, weight) => {
      app.view.layers.setWeight(clip, weight);
      app.renderOnce();
    },
    screenshot: (scale) => app.view.screenshot(scale),
    measureFrames: (frames) => {
      const sums = { poseMs: 0, uploadMs: 0, drawMs: 0, inspectMs: 0 };
      const start = performance.now();
      for (let i = 0; i < frames; i++) {
        app.step(1 / 60);
        addTimings(sums, app.view.timings);
      }
      // Reading a pixel waits for the GPU to finish the frames.
      app.view.gl?.readPixels(0, 0, 1, 1, 0x1908, 0x1401, new Uint8Array(4));
      const elapsed = performance.now() - start;
      return app.frameStats(frames, elapsed, sums);
    },
    attachInspection: (on) => {
      app.view.inspector = on ? app.inspection : null;
    },
    ik: (settings) => {
      const state = app.ik.set(settings ?? {});
      app.renderOnce();
      return settings ? app.ik.state() : state;
    },
    jointMatrix: (joint) => {
      const animated = app.view.animated;
      if (!animated) return null;
      const world = [...animated.jointMatrix(joint, new Float64Array(16))];
      const m = animated.modelMatrices, o = 16 * animated.jointIndex(joint), origin = animated.origin;
      const model = [...m.subarray(o, o + 16)];
      model[12] += origin[0]; model[13] += origin[1]; model[14] += origin[2];
      return { world, model };
    },
    jointPixel: (joint) => app.view.inspect((frame) => {
      frame.animated.jointMatrix(joint, world);
      rays.project(at, frame.camera, frame.width, frame.height, world.subarray(12, 15));
      return Number.isNaN(at[0]) ? null : { x: at[0], y: at[1] };
    }) ?? null,
    expression: (name) => app.view.avatar.getExpression(name),
    drive: async (settings) => (settings ? app.drive.set(settings) : app.drive.state()),
    driveStep: (dt, frames = 1) => {
      for (let i = 0; i < frames; i++) app.drive.step(dt);
      return app.drive.state();
    },
    aimAt: (joint, distance) => {
      const animated = app.view.animated;
      if (!animated) return;
      animated.jointMatrix(joint, world);
      app.view.camera.target.set(world.subarray(12, 15));
      app.view.camera.distance = distance;
      app.renderOnce();
    },
    springs: (settings) => {
      const { reset, ...controls } = settings ?? {};
      app.springs.set(controls);
      if (reset) app.view.springs.reset();
      app.renderOnce();
      const s = app.view.springs;
      return { present: s.present, enabled: s.enabled, wind: s.wind, showColliders: s.showColliders, colliderVertices: s.drawnColliderVertices };
    },
  };
  window.sinew = hooks;
  return hooks;
}

/** Draws a frame of `app` and measures it in the same task (see {@link readFrame}); null when nothing can be drawn. */
function inspectFrame(app: ViewerApp, cols = 16, rows = 12): FrameStats | null {
  return app.view.drawAndRead((gl, width, height, background) => readFrame(gl, width, height, background, cols, rows));
}
