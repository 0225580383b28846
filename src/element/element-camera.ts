/**
 * `<sinew-viewer>`'s camera in `<model-viewer>`'s language (controls.ts and staging.ts of model-viewer): the
 * camera attributes read into a {@link CameraGoal}, orbit input by `camera-controls`, `disable-zoom`,
 * `disable-pan`, the `camera-change` event, `auto-rotate` as a turntable, the `interaction-prompt` hint, and the
 * methods `getCameraOrbit`, `getCameraTarget`, `getFieldOfView`, `jumpCameraToGoal`.
 *
 * model-viewer's rules apply by default: its framing, and orbit input only with `camera-controls`. For one
 * release an element that uses the old aliases `yaw`, `pitch` or `distance` and none of model-viewer's camera
 * attributes ({@link MODEL_VIEWER_CAMERA_ATTRIBUTES}) keeps Sinew's former framing (45° field of view) and always
 * orbits; each alias is noted once per element on the console.
 */
import { CameraGoal } from '../view/camera-goal.ts';
import type { ModelView } from '../view/model-view.ts';
import { readAttribute } from './element-attributes.ts';
import { applyCamera, type AttributeReporter } from './element-playback.ts';
import { emitSinewEvent } from './element-events.ts';
import { vector3D, type Vector3D } from './model-viewer-vectors.ts';
import { DEFAULT_AUTO_ROTATE_DELAY_MS } from './camera-syntax.ts';

/** The attributes whose presence switches the element to model-viewer's camera rules. */
export const MODEL_VIEWER_CAMERA_ATTRIBUTES = [
  'camera-controls', 'camera-orbit', 'camera-target', 'field-of-view', 'min-camera-orbit', 'max-camera-orbit',
  'min-field-of-view', 'max-field-of-view', 'auto-rotate', 'auto-rotate-delay', 'rotation-per-second',
  'interaction-prompt', 'disable-zoom', 'disable-pan',
] as const;

/** The camera attributes with a reading rule, reported when malformed. */
export const CAMERA_PARSED_ATTRIBUTES = [
  'camera-orbit', 'camera-target', 'field-of-view', 'min-camera-orbit', 'max-camera-orbit', 'min-field-of-view',
  'max-field-of-view', 'auto-rotate-delay', 'rotation-per-second', 'interaction-prompt',
] as const;

/** An attribute {@link ElementCamera} reads: model-viewer's and the old aliases. */
export type CameraAttribute = (typeof MODEL_VIEWER_CAMERA_ATTRIBUTES)[number] | 'yaw' | 'pitch' | 'distance';

/** Whether `name` is an attribute {@link ElementCamera} reads. */
export function isCameraAttribute(name: string): name is CameraAttribute {
  return name === 'yaw' || name === 'pitch' || name === 'distance' || (MODEL_VIEWER_CAMERA_ATTRIBUTES as readonly string[]).includes(name);
}

/** model-viewer's `ChangeSource`: what moved the camera. */
export type CameraChangeSource = 'user-interaction' | 'none' | 'automatic';

/** `<model-viewer>`'s `SphericalPosition`: theta, phi in radians, radius in metres; prints `"θrad φrad rm"`. */
export interface SphericalPosition {
  readonly theta: number;
  readonly phi: number;
  readonly radius: number;
  toString(): string;
}

/** model-viewer's `interactionPromptThreshold` default: milliseconds after load before the hint shows. */
const PROMPT_DELAY_MS = 3000;

/** What {@link ElementCamera} needs of its element. */
export interface ElementCameraHost {
  readonly element: HTMLElement;
  readonly currentView: () => ModelView | null;
  readonly report: (message: string) => void;
}

/** The camera half of `<sinew-viewer>` (see the file's comment). */
export class ElementCamera {
  /** The hint shown by `interaction-prompt="auto"` (part `interaction-prompt`), placed in the shadow root by the element. */
  readonly prompt: HTMLElement;
  private readonly host: ElementCameraHost;
  private readonly goal = new CameraGoal();
  private aliasNoted = false;
  private modelViewerRules = false;
  private userInteracted = false;
  private promptTimer = 0;
  /** `performance.now()` from which auto-rotate's delay counts (connect, attribute, user interaction). */
  private rotateFrom = 0;
  /** The clock of the last frame auto-rotate saw, or −1. */
  private lastRotateMs = -1;
  private rotateTimer = 0;
  private radiansPerSecond = 0;
  private delayMs = DEFAULT_AUTO_ROTATE_DELAY_MS;

  constructor(host: ElementCameraHost) {
    this.host = host;
    this.prompt = document.createElement('div');
    this.prompt.className = 'interaction-prompt';
    this.prompt.setAttribute('part', 'interaction-prompt');
    this.prompt.setAttribute('aria-hidden', 'true');
    this.prompt.hidden = true;
  }

  /** Whether model-viewer's rules apply: unless the element has only the old aliases (see the file comment). */
  get usesModelViewerRules(): boolean {
    return this.modelViewerRules;
  }

  /**
   * Reads every camera attribute into `view` and, with model-viewer's rules, re-aims the camera (firing
   * `camera-change` with source `none` once a model is shown). Malformed values are reported (when `report`)
   * and read as their defaults.
   * @param changed the attribute that changed (only it is reported), or null for all
   */
  apply(view: ModelView, reporter: AttributeReporter, changed: CameraAttribute | null = null): void {
    const e = this.host.element;
    const report = (name: CameraAttribute): AttributeReporter => (changed === null || changed === name ? reporter : null);
    this.noteAliases();
    const wasModelViewer = this.modelViewerRules;
    this.modelViewerRules = MODEL_VIEWER_CAMERA_ATTRIBUTES.some((name) => e.hasAttribute(name)) ||
      !(e.hasAttribute('yaw') || e.hasAttribute('pitch') || e.hasAttribute('distance'));
    if (!this.modelViewerRules) {
      view.framing.goal = null;
      view.input.enabled = view.input.zoom = view.input.pan = true;
      applyCamera(e, view, reporter);
      if (wasModelViewer) view.frameModel();
      view.camera.turntable = 0;
      this.updateTimers();
      return;
    }
    const g = this.goal;
    g.orbit = readAttribute(e, 'camera-orbit', report('camera-orbit')).value;
    g.target = readAttribute(e, 'camera-target', report('camera-target')).value;
    g.fieldOfView = readAttribute(e, 'field-of-view', report('field-of-view')).value;
    g.minOrbit = readAttribute(e, 'min-camera-orbit', report('min-camera-orbit')).value;
    g.maxOrbit = readAttribute(e, 'max-camera-orbit', report('max-camera-orbit')).value;
    g.minFieldOfView = readAttribute(e, 'min-field-of-view', report('min-field-of-view')).value;
    g.maxFieldOfView = readAttribute(e, 'max-field-of-view', report('max-field-of-view')).value;
    this.radiansPerSecond = readAttribute(e, 'rotation-per-second', report('rotation-per-second')).value;
    this.delayMs = readAttribute(e, 'auto-rotate-delay', report('auto-rotate-delay')).value ?? DEFAULT_AUTO_ROTATE_DELAY_MS;
    // model-viewer restarts the delay when auto-rotate is turned on.
    if (changed === 'auto-rotate' || changed === null) this.rotateFrom = performance.now();
    readAttribute(e, 'interaction-prompt', report('interaction-prompt'));
    view.input.enabled = e.hasAttribute('camera-controls');
    view.input.zoom = !e.hasAttribute('disable-zoom');
    view.input.pan = !e.hasAttribute('disable-pan');
    view.framing.goal = g;
    view.framing.aimAtGoal();
    view.frameModel();
    this.updateTimers();
    if (view.asset) this.emitChange('none');
  }

  /** A model was shown: model-viewer fires `camera-change` (source `none`) as it frames a new model. */
  shown(): void {
    this.rotateFrom = performance.now();
    this.updateTimers();
    this.emitChange('none');
  }

  /** Orbit input moved the camera: `camera-change` from the user; auto-rotate waits again; the hint goes for good. */
  userMoved(): void {
    this.userInteracted = true;
    this.rotateFrom = performance.now();
    this.updateTimers();
    this.emitChange('user-interaction');
  }

  /** A frame was drawn at `nowMs`: turns the turntable while auto-rotating (allocates nothing). */
  drawn(view: ModelView, nowMs: number): void {
    if (!this.modelViewerRules || !this.host.element.hasAttribute('auto-rotate')) {
      this.lastRotateMs = -1;
      return;
    }
    const since = nowMs - this.rotateFrom - this.delayMs;
    if (since <= 0) {
      this.lastRotateMs = -1;
      return;
    }
    // As model-viewer's staging tick: at most the frame's time, and none of the delay.
    const step = this.lastRotateMs < 0 ? 0 : Math.min(nowMs - this.lastRotateMs, since);
    this.lastRotateMs = nowMs;
    view.camera.turntable += (this.radiansPerSecond * step) / 1000;
    view.requestRedraw();
  }

  /** model-viewer's `getCameraOrbit()`: the orbit now (theta, phi radians; radius metres). */
  getCameraOrbit(): SphericalPosition {
    const camera = this.host.currentView()?.camera;
    const theta = camera ? camera.yaw : 0;
    const phi = camera ? Math.PI / 2 - camera.pitch : (75 * Math.PI) / 180;
    const radius = camera ? camera.distance : 1;
    return { theta, phi, radius, toString: () => `${theta}rad ${phi}rad ${radius}m` };
  }

  /** model-viewer's `getCameraTarget()`: the orbit centre now, metres (model space). */
  getCameraTarget(): Vector3D {
    const t = this.host.currentView()?.camera.target;
    return vector3D(t ? t[0] : 0, t ? t[1] : 0, t ? t[2] : 0);
  }

  /** model-viewer's `getFieldOfView()`: the vertical field of view drawn now, degrees. */
  getFieldOfView(): number {
    const camera = this.host.currentView()?.camera;
    return camera ? (camera.fovY * 180) / Math.PI : 30;
  }

  /**
   * model-viewer's `jumpCameraToGoal()`: Sinew's camera does not ease towards its goal, so this re-aims it at the
   * attributes now (undoing input), draws, and fires `camera-change` (source `none`).
   */
  jumpCameraToGoal(): void {
    const view = this.host.currentView();
    if (!view) return;
    if (this.modelViewerRules) {
      view.framing.aimAtGoal();
      view.frameModel();
    }
    view.renderOnce();
    this.emitChange('none');
  }

  /** Stops the hint's and auto-rotate's timers (the element left the page). */
  disconnect(): void {
    window.clearTimeout(this.promptTimer);
    window.clearTimeout(this.rotateTimer);
    this.promptTimer = this.rotateTimer = 0;
  }

  /** Schedules the hint and the end of auto-rotate's delay (a paused view draws only when asked). */
  private updateTimers(): void {
    const e = this.host.element;
    const view = this.host.currentView();
    window.clearTimeout(this.promptTimer);
    window.clearTimeout(this.rotateTimer);
    this.promptTimer = this.rotateTimer = 0;
    const prompting = this.modelViewerRules && e.hasAttribute('camera-controls') && !this.userInteracted && !!view?.asset
      && readAttribute(e, 'interaction-prompt', null).value === 'auto';
    if (!prompting) this.prompt.hidden = true;
    else if (this.prompt.hidden) this.promptTimer = window.setTimeout(() => (this.prompt.hidden = false), PROMPT_DELAY_MS);
    if (this.modelViewerRules && e.hasAttribute('auto-rotate') && view) {
      const wait = Math.max(0, this.rotateFrom + this.delayMs - performance.now());
      this.lastRotateMs = -1;
      this.rotateTimer = window.setTimeout(() => this.host.currentView()?.requestRedraw(), wait + 1);
    }
  }

  /** Notes once per element that `yaw` / `pitch` / `distance` are aliases, naming `camera-orbit`. */
  private noteAliases(): void {
    const e = this.host.element;
    if (this.aliasNoted || !(e.hasAttribute('yaw') || e.hasAttribute('pitch') || e.hasAttribute('distance'))) return;
    this.aliasNoted = true;
    console.warn(
      'sinew-viewer: yaw, pitch and distance are kept for one release; use camera-orbit="θ φ r" (model-viewer\'s: e.g. '
      + '"30deg 80deg 105%"). With any model-viewer camera attribute present they are ignored.',
    );
  }

  private emitChange(source: CameraChangeSource): void {
    emitSinewEvent(this.host.element, 'camera-change', { source });
  }
}
