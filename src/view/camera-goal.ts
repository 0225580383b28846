import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { measureFramingSphere, type FramingSphere } from '../scene/framing-sphere.ts';
import type { Bounds, OrbitCamera } from '../scene/orbit-camera.ts';

/** A camera distance: metres, or a percentage of the attribute's basis (`%`, e.g. of the framed distance). */
export interface OrbitLength {
  readonly value: number;
  readonly unit: 'm' | '%';
}

/**
 * `<model-viewer>`'s spherical camera position (`camera-orbit`, `min-camera-orbit`, `max-camera-orbit`): theta
 * (radians about +Y from +Z, the model's front), phi (radians down from +Y), radius; null terms are `auto`.
 */
export interface OrbitTerms {
  readonly theta: number | null;
  readonly phi: number | null;
  readonly radius: OrbitLength | null;
}

/** `camera-target`: x, y, z in metres (display space), null terms `auto` (the centre of the model's box). */
export type TargetTerms = readonly [number | null, number | null, number | null];

/** The model a {@link CameraGoal} frames: its pose now, orientation and box (display space, metres). */
export interface FramedModel {
  readonly asset: ModelAsset;
  readonly animated: AnimatedModel;
  readonly displayMatrix: Float32Array;
  readonly bounds: Bounds;
}

const DEG = Math.PI / 180;
/** model-viewer's `DEFAULT_FOV_DEG`: the framed field of view of `field-of-view="auto"`. */
export const DEFAULT_FIELD_OF_VIEW = 30 * DEG;
/** model-viewer's `DEFAULT_MIN_FOV_DEG`. */
const DEFAULT_MIN_FIELD_OF_VIEW = 12 * DEG;
/** model-viewer's `DEFAULT_CAMERA_ORBIT`, `0deg 75deg 105%`. */
const DEFAULT_THETA = 0;
const DEFAULT_PHI = 75 * DEG;
const DEFAULT_RADIUS_PERCENT = 105;
/** model-viewer's `MINIMUM_RADIUS_RATIO`: `auto` minimum radius, as a multiple of the framing sphere's radius. */
const MINIMUM_RADIUS_RATIO = 2.2;
/** Keeps the eye off the poles, where the view's up vector is undefined. */
const POLE_MARGIN = 0.01;

const AUTO_ORBIT: OrbitTerms = { theta: null, phi: null, radius: null };
const AUTO_TARGET: TargetTerms = [null, null, null];

/**
 * The camera as `<model-viewer>`'s attributes set it (controls.ts, ModelScene.ts, SmoothControls.ts), applied
 * to an {@link OrbitCamera}:
 *
 * - the target is `camera-target`, each `auto` term the centre of the model's box;
 * - the framing sphere is centred on the target and holds every vertex ({@link measureFramingSphere}); the
 *   framed distance is `radius / sin(fov / 2)` for the framed field of view `fov` (`field-of-view`, `auto` 30°);
 * - the vertical field of view drawn is `fov` widened when the canvas is narrower than the sphere's ideal
 *   aspect, within [`min-field-of-view` (`auto` 12°), `max-field-of-view` (`auto` 30°, widened alike)];
 * - the orbit is `camera-orbit` (`auto`: 0°, 75°, 105% of the framed distance), its radius `%` of the framed
 *   distance, each term clamped to [`min-camera-orbit`, `max-camera-orbit`] (`auto`: −∞, 0, 2.2 × sphere
 *   radius; +∞, 180°, 105% of the framed distance), which also bound orbit input.
 *
 * The sphere is measured once per model (and again when the target or framed field of view changes), at the
 * pose shown when it is framed.
 */
export class CameraGoal {
  orbit: OrbitTerms = AUTO_ORBIT;
  target: TargetTerms = AUTO_TARGET;
  /** Radians, or null for `auto`. */
  fieldOfView: number | null = null;
  minOrbit: OrbitTerms = AUTO_ORBIT;
  maxOrbit: OrbitTerms = AUTO_ORBIT;
  /** Radians, or null for `auto`. */
  minFieldOfView: number | null = null;
  maxFieldOfView: number | null = null;
  /** The last measurement and what it was measured for. */
  private sphere: FramingSphere | null = null;
  private sphereBounds: Bounds | null = null;
  private readonly sphereCenter = new Float64Array(3);
  private sphereFov = 0;
  private readonly center = new Float64Array(3);

  /**
   * Aims `camera` at `model` by the attributes (see the class), for a viewport `aspect` (width / height).
   * @param orbitToo also set target, yaw, pitch and distance (false: keep the orbit where input left it, only
   *   re-clamp it, and set the field of view and limits — a resize)
   */
  apply(camera: OrbitCamera, model: FramedModel, aspect: number, orbitToo: boolean): void {
    const { min, max } = model.bounds;
    for (let a = 0; a < 3; a++) this.center[a] = this.target[a] ?? 0.5 * (min[a] + max[a]);
    const framedFov = this.fieldOfView ?? DEFAULT_FIELD_OF_VIEW;
    const sphere = this.measure(model, framedFov);
    const idealDistance = sphere.radius / Math.sin(framedFov / 2);
    const widen = (fov: number): number => 2 * Math.atan(Math.tan(fov / 2) * Math.max(1, sphere.idealAspect / Math.max(aspect, 1e-6)));
    const minFov = this.minFieldOfView ?? DEFAULT_MIN_FIELD_OF_VIEW;
    const maxFov = widen(this.maxFieldOfView ?? DEFAULT_FIELD_OF_VIEW);
    camera.fovY = Math.max(minFov, Math.min(maxFov, widen(framedFov)));

    const minRadiusBasis = MINIMUM_RADIUS_RATIO * sphere.radius;
    camera.minDistance = length(this.minOrbit.radius, minRadiusBasis);
    // The limit's basis is camera-orbit's `auto` radius (model-viewer's maxCameraOrbitIntrinsics).
    camera.maxDistance = length(this.maxOrbit.radius, (DEFAULT_RADIUS_PERCENT / 100) * idealDistance);
    camera.minYaw = this.minOrbit.theta ?? -Infinity;
    camera.maxYaw = this.maxOrbit.theta ?? Infinity;
    // Pitch is 90° − phi: the largest phi gives the lowest pitch.
    camera.minPitch = Math.max(-Math.PI / 2 + POLE_MARGIN, Math.PI / 2 - (this.maxOrbit.phi ?? Math.PI));
    camera.maxPitch = Math.min(Math.PI / 2 - POLE_MARGIN, Math.PI / 2 - (this.minOrbit.phi ?? 0));
    camera.sceneRadius = sphere.radius;
    camera.framedDistance = idealDistance;
    if (orbitToo) {
      camera.target[0] = this.center[0];
      camera.target[1] = this.center[1];
      camera.target[2] = this.center[2];
      camera.yaw = this.orbit.theta ?? DEFAULT_THETA;
      camera.pitch = Math.PI / 2 - (this.orbit.phi ?? DEFAULT_PHI);
      camera.distance = length(this.orbit.radius, idealDistance, DEFAULT_RADIUS_PERCENT);
    }
    camera.yaw = Math.max(camera.minYaw, Math.min(camera.maxYaw, camera.yaw));
    camera.pitch = Math.max(camera.minPitch, Math.min(camera.maxPitch, camera.pitch));
    // model-viewer clamps the maximum first (SmoothControls.setOrbit's clamp), so an inverted range ends at the minimum.
    camera.distance = Math.max(camera.minDistance, Math.min(camera.maxDistance, camera.distance));
  }

  /** The framing sphere of `model` around {@link center}, measured again only when something it depends on changed. */
  private measure(model: FramedModel, framedFov: number): FramingSphere {
    const c = this.center;
    const s = this.sphereCenter;
    if (!this.sphere || this.sphereBounds !== model.bounds || this.sphereFov !== framedFov || s[0] !== c[0] || s[1] !== c[1] || s[2] !== c[2]) {
      this.sphere = measureFramingSphere(model.asset, model.animated, model.displayMatrix, c, framedFov);
      this.sphereBounds = model.bounds;
      this.sphereFov = framedFov;
      s.set(c);
    }
    return this.sphere;
  }
}

/** `term` in metres: its metres, or its percentage of `basis`; absent (`auto`): `autoPercent` of `basis`. */
function length(term: OrbitLength | null, basis: number, autoPercent = 100): number {
  if (!term) return (autoPercent / 100) * basis;
  return term.unit === 'm' ? term.value : (term.value / 100) * basis;
}
