import type { GLTF } from '@gltf-transform/core';
import type { MeshInstance } from '../../asset/model-asset.ts';
import { quoteValue } from '../load-error.ts';

/**
 * The glTF file an avatar is read from, as the VRM readers (humanoid, expressions, look-at, first person, meta)
 * share it: what the glTF loader already knows about the file when the avatar is read.
 */
export interface VrmReading {
  /** The file's name, first in every `LoadError` and warning. */
  readonly fileName: string;
  /** The validated glTF JSON, with its `extensions.VRMC_vrm` or `extensions.VRM`. */
  readonly json: GLTF.IGLTF;
  /** `Int32Array(nodeCount)`: skeleton joint of glTF node i (`GltfSkeleton.jointOfNode`). */
  readonly jointOfNode: Int32Array;
  /** The model's mesh instances: one per mesh node, `sourceNode` its glTF node, `morphWeightOffset` its morph weights. */
  readonly meshInstances: readonly MeshInstance[];
  /** Morph target count of glTF mesh m (0 when it has none). */
  readonly morphTargetCountOf: (mesh: number) => number;
  /** The load's warnings (`ModelAsset.warnings`), appended to. */
  readonly warnings: string[];
}

/** A JSON pointer reference token (RFC 6901 §3: `~` → `~0`, `/` → `~1`), for keys taken from the file. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for an integer in [0, count). */
export function isIndex(value: unknown, count: number): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < count;
}

/** True for an array of exactly `n` finite numbers. */
export function isFiniteTuple(value: unknown, n: number): value is number[] {
  return Array.isArray(value) && value.length === n && value.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/**
 * Thrown inside a reader for a malformed part the loader drops with a warning (an expression, the look-at):
 * `where` is the JSON pointer of the faulty value, `problem` the rest of the sentence.
 */
export class DroppedPart extends Error {
  constructor(readonly where: string, readonly problem: string) {
    super(`${where} ${problem}`);
  }
}

/** A {@link DroppedPart} for `value` at `where` that is not what `expected` says (`is 5, not a node index`). */
export function dropped(where: string, value: unknown, expected: string): DroppedPart {
  return new DroppedPart(where, `is ${quoteValue(value)}, not ${expected}`);
}
