/**
 * The syntax of `<sinew-viewer>`'s spring-bone attributes: `spring-bones` (`on` / `off`) and the vectors `gravity`
 * and `wind` (`"X Y Z"`, model-viewer's vector syntax as `camera-target` reads it: terms split at spaces or
 * commas). Each parser returns the value, or `error` saying what was expected and the fallback used.
 */
import { terms } from './camera-syntax.ts';

/** A parsed spring attribute: its value, or `error` (the value then is the fallback). */
export interface SpringReading<T> {
  readonly value: T;
  readonly error: string | null;
}

/** Reads `spring-bones`: `on` (absent or empty) or `off`, case-insensitive; malformed: `on`. */
export function parseSpringBones(raw: string | null): SpringReading<'on' | 'off'> {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'on') return { value: 'on', error: null };
  if (value === 'off') return { value, error: null };
  return { value: 'on', error: 'expected on or off; using on' };
}

/** A world vector of the spring attributes, m/s² (see {@link parseSpringVector}). */
export type SpringVector = readonly [number, number, number];

/** The vector of an absent, empty or malformed `gravity` or `wind`: nothing added. */
export const ZERO_SPRING_VECTOR: SpringVector = Object.freeze([0, 0, 0] as const);

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Reads `gravity` or `wind`: `"X Y Z"`, three finite numbers (spaces or commas between; no unit: m/s²), a world
 * vector added to every spring joint's gravity (`gravityDir · gravityPower`, VRMC_springBone 1.0); absent or
 * empty: `0 0 0`. Malformed (not three finite numbers): `0 0 0` with the error.
 */
export function parseSpringVector(raw: string | null): SpringReading<SpringVector> {
  const t = terms(raw);
  if (t.length === 0) return { value: ZERO_SPRING_VECTOR, error: null };
  if (t.length === 3 && t.every((term) => NUMBER.test(term))) {
    return { value: Object.freeze(t.map(Number) as unknown as [number, number, number]), error: null };
  }
  return { value: ZERO_SPRING_VECTOR, error: 'expected "X Y Z", three numbers in m/s² (world space, e.g. "4 0 0"); using 0 0 0' };
}
