import type { AvatarMeta } from '../asset/avatar-asset.ts';
import type { AvatarController } from '../avatar/avatar-controller.ts';
import { didYouMean } from '../math/did-you-mean.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { createRay } from '../scene/pick-model.ts';
import type { ModelView } from '../view/model-view.ts';
import { cssToBuffer, PixelRays } from '../view/pixel-ray.ts';
import { readAttribute } from './element-attributes.ts';
import type { LookAtSetting } from './look-at-syntax.ts';

/** What {@link ElementAvatar} needs of its `<sinew-viewer>`. */
export interface ElementAvatarOwner {
  /** The element whose `look-at` and `auto-blink` are read, and whose pointer moves steer `look-at="cursor"`. */
  readonly element: HTMLElement;
  /** The view shown; null while disconnected. */
  currentView(): ModelView | null;
  /** Reports a bad argument or attribute: console warning and `sinew-error`. */
  report(message: string): void;
}

/** Seconds: the most the paused blink clock moves on between two frames (a background tab's gap). */
const MAX_BLINK_STEP = 0.1;

/**
 * `<sinew-viewer>`'s avatar surface, over `ModelView.avatar` (`ViewAvatar`): the expression methods and
 * `avatarMeta`, and the `look-at` and `auto-blink` attributes, re-applied to each model shown.
 *
 * - Expressions: names, weights and their rules are the avatar's (`AvatarController`, VRMC_vrm-1.0
 *   `expressions.md`); the names three-vrm's `VRMExpressionManager` uses are `setValue` / `getValue`, Sinew's are
 *   the issue's `setExpression` / `getExpression`. A bad argument (no model, not an avatar, an unknown name, a
 *   weight that is not a finite number) is reported as `appendAnimation`'s are — `sinew-error` and a console
 *   warning — and changes nothing; `getExpression` then gives null, as three-vrm's `getValue` does for an
 *   unknown name. Weights set belong to the model shown: a new `src` starts from 0, a reconnect keeps them.
 * - `look-at`: `camera` follows the element's camera (its eye after each frame drawn: a moved camera is followed
 *   on the next frame); `cursor` follows the pointer over the element, carried through the last frame's camera
 *   onto the plane through the look-at origin (the head joint at `offsetFromHeadBone`) facing the camera, and
 *   keeps the last point when the pointer leaves — before the first move it follows the camera; `X Y Z` is a
 *   fixed point in model space, carried with `orientation` and `scale`; `none` leaves the eyes to the clip
 *   (a VRMA's look-at track). The view takes each as a world point (`ViewAvatar.setLookAtTarget`), given again
 *   only when it, the model or its placement changes.
 * - `auto-blink`: the avatar's blink schedule (`autoBlinkWeight`), its clock moved on by the view's frames while
 *   playing and, while paused, by this object's own frames (it keeps asking for frames while paused with
 *   `auto-blink` on, so a model without clips blinks too).
 * Allocates nothing per frame.
 */
export class ElementAvatar {
  private lookAt: LookAtSetting = { kind: 'none' };
  private autoBlink = false;
  /** The world point last given to the view (valid while {@link appliedLooking}), and for which model. */
  private readonly applied = new Float64Array(3);
  private appliedLooking = false;
  private appliedModel: AnimatedModel | null = null;
  /** Scratch: the world point wanted now. */
  private readonly wanted: [number, number, number] = [0, 0, 0];
  /** The pointer's point on the head plane (world), once the pointer has moved over the element. */
  private readonly cursor = new Float64Array(3);
  private hasCursor = false;
  /** `performance.now()` of the last paused frame with auto-blink, or −1. */
  private lastBlinkMs = -1;
  private readonly rays = new PixelRays();
  private readonly ray = createRay();
  private readonly at = new Float64Array(2);
  private readonly head = new Float64Array(16);
  private readonly onPointerMove = (event: PointerEvent): void => this.pointerMoved(event);
  /** The avatar state of the model shown when the element was disconnected, taken over when it shows again. */
  private retained: AvatarController | null = null;

  constructor(private readonly owner: ElementAvatarOwner) {}

  /** The shown avatar's expression names (presets and custom, file order); [] without an avatar or a model. */
  get availableExpressions(): string[] {
    return this.owner.currentView()?.avatar.availableExpressions ?? [];
  }

  /** The shown avatar's meta (`AvatarAsset.meta`: licence and permissions first), or null without an avatar. */
  get avatarMeta(): AvatarMeta | null {
    return this.owner.currentView()?.asset?.avatar?.meta ?? null;
  }

  /** Sets expression `name` to `weight` (clamped to [0, 1]); a bad argument is reported (class comment). */
  setExpression(name: string, weight: number): void {
    const view = this.avatarView('setExpression', name);
    if (!view) return;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      this.owner.report(`setExpression("${name}", ${String(weight)}): expected a weight in [0, 1]; nothing changed`);
      return;
    }
    view.avatar.setExpression(String(name), weight);
  }

  /** Expression `name`'s weight in [0, 1], or null (reported) for a bad argument (class comment). */
  getExpression(name: string): number | null {
    const view = this.avatarView('getExpression', name);
    return view ? view.avatar.getExpression(String(name)) : null;
  }

  /** Listens for the pointer (`look-at="cursor"`) and reads the attributes. */
  connect(): void {
    this.owner.element.addEventListener('pointermove', this.onPointerMove);
    this.read(null);
  }

  /**
   * Stops listening, and keeps `view`'s avatar state (expression weights) for a reconnect, which shows the same
   * model again; the next model shown is set up again.
   */
  disconnect(view: ModelView): void {
    this.owner.element.removeEventListener('pointermove', this.onPointerMove);
    this.retained = view.animated?.avatar ?? null;
    this.appliedModel = null;
    this.appliedLooking = false;
    this.lastBlinkMs = -1;
  }

  /** A model is shown (a load, clips added, a reconnect): auto-blink and look-at apply to it now. */
  shown(): void {
    const view = this.owner.currentView();
    if (!view) return;
    const retained = this.retained, avatar = view.animated?.avatar;
    this.retained = null;
    if (retained && avatar && retained.avatar === avatar.avatar) avatar.copyFrom(retained);
    view.avatar.setAutoBlink(this.autoBlink);
    this.sync(view);
  }

  /** `look-at` or `auto-blink` changed: read (a malformed `look-at` reported), applied now. */
  changed(): void {
    this.read((message) => this.owner.report(message));
    const view = this.owner.currentView();
    if (!view) return;
    view.avatar.setAutoBlink(this.autoBlink);
    this.sync(view);
  }

  /** After each frame drawn: the camera may have moved, the placement changed; the paused blink clock moves on. */
  drawn(view: ModelView, nowMs: number): void {
    this.sync(view);
    if (this.autoBlink && view.avatar.present && !view.playback.playing) {
      const dt = this.lastBlinkMs < 0 ? 0 : Math.min((nowMs - this.lastBlinkMs) / 1000, MAX_BLINK_STEP);
      this.lastBlinkMs = nowMs;
      view.avatar.tick(dt);
      view.requestRedraw();
    } else {
      this.lastBlinkMs = -1;
    }
  }

  /** Reads `look-at` (reporting a malformed value through `report`) and `auto-blink`. */
  private read(report: ((message: string) => void) | null): void {
    this.lookAt = readAttribute(this.owner.element, 'look-at', report).value;
    this.autoBlink = this.owner.element.hasAttribute('auto-blink');
    if (this.lookAt.kind !== 'cursor') this.hasCursor = false;
  }

  /** Gives the view the look-at target wanted now when it differs from the one given (or the model changed). */
  private sync(view: ModelView): void {
    const model = view.animated;
    if (!model?.avatar?.lookAt) {
      this.appliedModel = model;
      this.appliedLooking = false;
      return;
    }
    const looking = this.wantedPoint(view, model);
    const w = this.wanted, a = this.applied;
    if (model === this.appliedModel && looking === this.appliedLooking && (!looking || (w[0] === a[0] && w[1] === a[1] && w[2] === a[2]))) return;
    // A model that never looked is left to its clip's look-at track.
    if (looking || this.appliedLooking) view.avatar.setLookAtTarget(looking ? w : null);
    a[0] = w[0]; a[1] = w[1]; a[2] = w[2];
    this.appliedModel = model;
    this.appliedLooking = looking;
  }

  /** Writes the world point wanted now into {@link wanted}; false for `none`. */
  private wantedPoint(view: ModelView, model: AnimatedModel): boolean {
    const w = this.wanted, setting = this.lookAt;
    if (setting.kind === 'none') return false;
    if (setting.kind === 'point') {
      const m = model.world, [x, y, z] = setting.point;
      w[0] = m[0] * x + m[4] * y + m[8] * z + m[12];
      w[1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      w[2] = m[2] * x + m[6] * y + m[10] * z + m[14];
      return true;
    }
    const from = setting.kind === 'cursor' && this.hasCursor ? this.cursor : view.camera.eye;
    w[0] = from[0]; w[1] = from[1]; w[2] = from[2];
    return true;
  }

  /**
   * `look-at="cursor"`: the target is the point halfway along the ray through the pointer (in the last frame drawn)
   * to the plane through the look-at origin facing the camera. Seen from the eyes it lies where the pointer lies
   * seen from the camera, so the gaze turns by the pointer's angle from the view's centre (the plane itself would put
   * every point beside the head at ±90°). A ray parallel to the plane or pointing away keeps the last point.
   */
  private pointerMoved(event: PointerEvent): void {
    if (this.lookAt.kind !== 'cursor') return;
    const view = this.owner.currentView(), model = view?.animated, lookAt = model?.avatar?.lookAt;
    if (!view || !model || !lookAt) return;
    const rect = view.canvas.getBoundingClientRect();
    const met = view.inspect((frame) => {
      cssToBuffer(this.at, event.clientX - rect.left, event.clientY - rect.top, Math.max(rect.width, 1), Math.max(rect.height, 1), frame.width, frame.height);
      this.rays.through(this.ray, frame.camera, frame.width, frame.height, this.at[0], this.at[1]);
      const h = model.jointMatrix(lookAt.head, this.head), o = lookAt.lookAt.offsetFromHeadBone, eye = view.camera.eye;
      const ox = h[0] * o[0] + h[4] * o[1] + h[8] * o[2] + h[12];
      const oy = h[1] * o[0] + h[5] * o[1] + h[9] * o[2] + h[13];
      const oz = h[2] * o[0] + h[6] * o[1] + h[10] * o[2] + h[14];
      const nx = eye[0] - ox, ny = eye[1] - oy, nz = eye[2] - oz;
      const { origin: r, direction: d } = this.ray;
      const denominator = nx * d[0] + ny * d[1] + nz * d[2];
      const t = (nx * (ox - r[0]) + ny * (oy - r[1]) + nz * (oz - r[2])) / denominator;
      if (!(Math.abs(denominator) > 1e-12) || !(t > 0) || !Number.isFinite(t)) return false;
      for (let k = 0; k < 3; k++) this.cursor[k] = r[k] + 0.5 * t * d[k];
      return true;
    });
    if (!met) return;
    this.hasCursor = true;
    this.sync(view);
  }

  /** The view when an avatar is shown, else null after reporting why `method(name)` did nothing. */
  private avatarView(method: string, name: string): ModelView | null {
    const view = this.owner.currentView();
    if (!view?.asset) {
      this.owner.report(`${method}("${name}"): no model is shown yet`);
      return null;
    }
    if (!view.avatar.present) {
      this.owner.report(`${method}("${name}"): ${view.asset.name} is not an avatar (no VRM expressions)`);
      return null;
    }
    const names = view.avatar.availableExpressions;
    if (!names.includes(String(name))) {
      this.owner.report(`${method}("${name}"): ${view.asset.name} has no such expression (${didYouMean(String(name), names, ' ')}expressions: ${names.join(', ') || 'none'})`);
      return null;
    }
    return view;
  }
}
