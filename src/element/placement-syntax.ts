/**
 * `<model-viewer>`'s `orientation` and `scale` attributes (its scene-graph feature, `ModelScene.applyTransform`),
 * as `<sinew-viewer>` reads them, and the matrix they make: the model turned and stretched about its own origin,
 * after its up axis is turned upright, before the camera frames it.
 */
import { mat4 } from 'gl-matrix';
import { angle, terms } from './camera-syntax.ts';

/** A parsed attribute: its value, or `error` saying what was expected (the value then is the default). */
export interface PlacementReading<T> {
  readonly value: T;
  readonly error: string | null;
}

/** `orientation`: radians about the model's Z (roll), X (pitch) and Y (yaw) axes. */
export interface Orientation {
  readonly roll: number;
  readonly pitch: number;
  readonly yaw: number;
}

/** `scale`: factors along the model's X, Y and Z axes. */
export type Scale = readonly [number, number, number];

/** `orientation` when absent: `0deg 0deg 0deg`. */
export const DEFAULT_ORIENTATION: Orientation = Object.freeze({ roll: 0, pitch: 0, yaw: 0 });
/** `scale` when absent: `1 1 1`. */
export const DEFAULT_SCALE: Scale = Object.freeze([1, 1, 1] as const);

/**
 * Reads `orientation`: `"roll pitch yaw"`, three angles in `deg` or `rad` (no unit: radians, as model-viewer's
 * `normalizeUnit`), space- or comma-separated; absent or blank: {@link DEFAULT_ORIENTATION}.
 */
export function parseOrientation(raw: string | null): PlacementReading<Orientation> {
  const t = terms(raw);
  if (t.length === 0) return { value: DEFAULT_ORIENTATION, error: null };
  const radians = t.map(angle);
  if (t.length !== 3 || radians.some((a) => a === null || a === undefined || !Number.isFinite(a))) {
    return { value: DEFAULT_ORIENTATION, error: 'expected "roll pitch yaw": three angles in deg or rad (e.g. "0deg 90deg 0deg"); using 0deg 0deg 0deg' };
  }
  const [roll, pitch, yaw] = radians as number[];
  return { value: Object.freeze({ roll, pitch, yaw }), error: null };
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Reads `scale`: `"x y z"`, three unitless factors, each finite and non-zero (a zero would flatten the model and
 * leave nothing to pick or frame; a negative one mirrors it); absent or blank: {@link DEFAULT_SCALE}.
 */
export function parseScale(raw: string | null): PlacementReading<Scale> {
  const t = terms(raw);
  if (t.length === 0) return { value: DEFAULT_SCALE, error: null };
  const factors = t.map((term) => (NUMBER.test(term) ? Number(term) : Number.NaN));
  if (t.length !== 3 || factors.some((f) => !Number.isFinite(f) || f === 0)) {
    return { value: DEFAULT_SCALE, error: 'expected "x y z": three non-zero numbers (e.g. "2 2 2"); using 1 1 1' };
  }
  return { value: Object.freeze(factors as [number, number, number]), error: null };
}

/**
 * The placement matrix of `orientation` and `scale`: `Ry(yaw) · Rx(pitch) · Rz(roll) · S(scale)` — three.js's
 * Euler order `YXZ` with (x, y, z) = (pitch, yaw, roll), as model-viewer's `applyTransform` sets the model's
 * quaternion, then its scale — written into `out`.
 * @param out `Float32Array(16)`, column-major
 * @returns out
 */
export function placementMatrix(out: Float32Array, orientation: Orientation, scale: Scale): Float32Array {
  const m = out as unknown as mat4;
  mat4.fromYRotation(m, orientation.yaw);
  mat4.rotateX(m, m, orientation.pitch);
  mat4.rotateZ(m, m, orientation.roll);
  mat4.scale(m, m, scale as unknown as [number, number, number]);
  return out;
}
