import type { CameraMatrices } from '../gpu/passes/renderer.ts';
import { OrbitCamera } from '../scene/orbit-camera.ts';
import type { CameraGoal, FramedModel } from './camera-goal.ts';

/** Camera pitch, degrees, before anything sets it. */
const INITIAL_PITCH_DEGREES = 10;

/**
 * A {@link ModelView}'s orbit camera and how it frames the model: on the model's bounds, at a distance set as
 * a multiple of the framed one, in the part of the canvas a side panel leaves free (the picture shifted to
 * centre it there, {@link OrbitCamera.viewOffsetX}).
 */
export class CameraFraming {
  /** The orbit camera (angles in radians, distance in model units). */
  readonly camera = new OrbitCamera();
  /** The camera's matrices as the renderer takes them: the camera's own arrays, rewritten by {@link update}. */
  readonly matrices: CameraMatrices;
  /** CSS pixels along the canvas's right edge covered by a panel (0: none). */
  coveredRight = 0;
  /**
   * `<model-viewer>`'s camera rules, when set ({@link CameraGoal}): framing follows them instead of the distance
   * multiple and yaw / pitch of {@link set}. Default null.
   */
  goal: CameraGoal | null = null;
  /** The goal's orbit is to be applied at the next {@link frame} (set by {@link aimAtGoal}, and for a new model). */
  private goalPending = true;
  private lastFramed: FramedModel | null = null;
  private readonly canvas: HTMLCanvasElement;
  /** Camera distance after framing, as a multiple of the framed distance. */
  private distanceScale: number;

  constructor(canvas: HTMLCanvasElement, distanceScale: number) {
    this.canvas = canvas;
    this.distanceScale = distanceScale;
    this.camera.pitch = (INITIAL_PITCH_DEGREES * Math.PI) / 180;
    this.matrices = { view: this.camera.view, projection: this.camera.projection, eye: this.camera.eye };
  }

  /**
   * Sets yaw and pitch in degrees, distance as a multiple of the framed distance (which also becomes the
   * distance later framings use); omitted values stay.
   */
  set(view: { yaw?: number; pitch?: number; distance?: number }): void {
    const deg = Math.PI / 180;
    if (view.yaw !== undefined) this.camera.yaw = view.yaw * deg;
    if (view.pitch !== undefined) this.camera.pitch = view.pitch * deg;
    if (view.distance !== undefined) {
      this.distanceScale = view.distance;
      this.camera.distance = view.distance * this.camera.framedDistance;
    }
  }

  /**
   * Aims at `model`'s bounds from the set distance multiple, for a drawing buffer of `width` × `height` pixels;
   * with a {@link goal}, by its rules instead (the orbit only for a new model or after {@link aimAtGoal}: a
   * resize keeps where input moved the camera).
   */
  frame(model: FramedModel, width: number, height: number): void {
    const aspect = this.aspect(width, height) * this.freeFraction();
    if (this.goal) {
      this.goal.apply(this.camera, model, aspect, this.goalPending || model !== this.lastFramed);
      this.goalPending = false;
      this.lastFramed = model;
      return;
    }
    this.camera.frame(model.bounds, aspect);
    this.camera.distance = this.camera.framedDistance * this.distanceScale;
  }

  /** Applies the {@link goal}'s orbit and target again at the next {@link frame} (its attributes changed). */
  aimAtGoal(): void {
    this.goalPending = true;
  }

  /** Rewrites {@link matrices} for a drawing buffer of `width` × `height` pixels (allocates nothing). */
  update(width: number, height: number): void {
    this.camera.update(this.aspect(width, height));
  }

  /** Yaw and pitch in degrees, distance as a multiple of the framed distance. */
  state(): { yaw: number; pitch: number; distance: number } {
    const deg = 180 / Math.PI;
    return { yaw: this.camera.yaw * deg, pitch: this.camera.pitch * deg, distance: this.camera.distance / this.camera.framedDistance };
  }

  private aspect(width: number, height: number): number {
    // Each frame, so the shift follows resizes and the panel.
    this.camera.viewOffsetX = this.freeFraction() - 1;
    return width / Math.max(height, 1);
  }

  /** The fraction of the canvas's width not covered by {@link coveredRight}, in (0, 1]. */
  private freeFraction(): number {
    const width = this.canvas.clientWidth;
    if (!(this.coveredRight > 0) || !(width > 0)) return 1;
    return Math.max(0.3, 1 - this.coveredRight / width);
  }
}
