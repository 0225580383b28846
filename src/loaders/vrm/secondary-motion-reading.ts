import type { GLTF } from '@gltf-transform/core';
import { quoteValue } from '../load-error.ts';
import { DroppedPart } from './vrm-reading.ts';

/**
 * The glTF file spring bones and node constraints are read from, as the readers (read-spring-bone.ts,
 * read-spring-bone-vrm0.ts, read-node-constraints.ts) share it: what the glTF loader knows when they run.
 */
export interface SecondaryMotionReading {
  /** The file's name, first in every warning. */
  readonly fileName: string;
  /** The validated glTF JSON (node indices and `children` already checked). */
  readonly json: GLTF.IGLTF;
  /** `Int32Array(nodeCount)`: skeleton joint of glTF node i (`GltfSkeleton.jointOfNode`). */
  readonly jointOfNode: Int32Array;
  /** `Int32Array(jointCount)`: the skeleton's parents (`Skeleton.parents`), −1 for a root. */
  readonly parents: Int32Array;
  /**
   * `Float32Array(3·jointCount)`: the rest pose's translations as the file gives them (before a VRM 0.x model is
   * turned to face +Z), metres, in each joint's parent space.
   */
  readonly restTranslations: Float32Array;
  /** The load's warnings (`ModelAsset.warnings`), appended to. */
  readonly warnings: string[];
}

/** The number of glTF nodes of the file. */
export function nodeCountOf(reading: SecondaryMotionReading): number {
  return reading.jointOfNode.length;
}

/** True when joint `descendant` lies below joint `ancestor` (a child, a grandchild, …) in the skeleton. */
export function isDescendant(parents: Int32Array, descendant: number, ancestor: number): boolean {
  for (let joint = parents[descendant]; joint >= 0; joint = parents[joint]) {
    if (joint === ancestor) return true;
  }
  return false;
}

/** A value as a warning quotes it: NaN and the infinities by name (JSON would show them as null). */
export function quoteParameter(value: unknown): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : quoteValue(value);
}

/** A {@link DroppedPart} for `value` at `where` that is not what `expected` says (`is -1, not a number ≥ 0`). */
export function droppedParameter(where: string, value: unknown, expected: string): DroppedPart {
  return new DroppedPart(where, `is ${quoteParameter(value)}, not ${expected}`);
}

/**
 * Runs `read`; a {@link DroppedPart} it throws becomes one warning `file: where problem; <consequence>` and null.
 * @param consequence what the loader does about it, e.g. `the spring is dropped`
 */
export function droppingPart<T>(reading: SecondaryMotionReading, consequence: string, read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof DroppedPart)) throw error;
    reading.warnings.push(`${reading.fileName}: ${error.where} ${error.problem}; ${consequence}`);
    return null;
  }
}

/** A number ≥ 0 at `where` (`value` itself, or `fallback` when absent). @throws DroppedPart otherwise */
export function nonNegative(value: unknown, fallback: number, where: string): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw droppedParameter(where, value, 'a number ≥ 0');
  return v;
}

/** A number in [0, 1] at `where` (`value` itself, or `fallback` when absent). @throws DroppedPart otherwise */
export function unitInterval(value: unknown, fallback: number, where: string): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw droppedParameter(where, value, 'a number in [0, 1]');
  return v;
}

/** Three finite numbers at `where` (`value` itself, or `fallback` when absent). @throws DroppedPart otherwise */
export function vector3(value: unknown, fallback: readonly [number, number, number], where: string): [number, number, number] {
  const v = value ?? fallback;
  if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw droppedParameter(where, value, 'three finite numbers');
  }
  return [v[0], v[1], v[2]];
}

/**
 * `v` scaled to unit length (the direction a gravityDir or a plane normal names).
 * @throws DroppedPart at `where` when `v` has length 0, which names no direction
 */
export function direction(v: readonly [number, number, number], where: string): [number, number, number] {
  const length = Math.hypot(v[0], v[1], v[2]);
  if (!(length > 0) || !Number.isFinite(length)) throw new DroppedPart(where, `is ${quoteValue(v)}, which has length 0 and names no direction`);
  return [v[0] / length, v[1] / length, v[2] / length];
}

/** `value` when it is an array, [] when absent; anything else is one warning (`…; ignored`) and []. */
export function arrayOrWarn(reading: SecondaryMotionReading, value: unknown, where: string): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  reading.warnings.push(`${reading.fileName}: ${where} is ${quoteValue(value)}, not an array; ignored`);
  return [];
}
