/**
 * The data attributes of `<sinew-viewer>`'s hotspots (children slotted as `slot="hotspot-NAME"`), read into a
 * {@link ModelPointSpec}, with `<model-viewer>`'s syntax where it has one (its annotation docs): `data-position`
 * and `data-normal` in the form of its `camera-target` (three numbers, each optionally suffixed `m`, `cm` or
 * `mm`), `data-surface` as its `surfaceFromPoint` writes it. Sinew adds `data-joint` and `data-offset`.
 */
import type { ModelPointSpec, Vec3Tuple } from '../scene/model-point.ts';

/** The data attributes a hotspot reads (`HTMLElement.dataset` names); any may be absent. */
export interface HotspotAttributes {
  readonly position?: string | null;
  readonly normal?: string | null;
  readonly surface?: string | null;
  readonly joint?: string | null;
  readonly offset?: string | null;
}

/** Attribute names the element watches on its hotspot children (a change re-reads the hotspot). */
export const HOTSPOT_ATTRIBUTE_NAMES: readonly string[] = Object.freeze([
  'slot', 'data-position', 'data-normal', 'data-surface', 'data-joint', 'data-offset', 'data-visibility-attribute',
]);

/** `<model-viewer>`'s defaults: the position `0m 0m 0m` and the normal `0m 1m 0m` (model space +Y). */
const DEFAULT_POSITION: Vec3Tuple = Object.freeze([0, 0, 0]) as unknown as Vec3Tuple;
const DEFAULT_NORMAL: Vec3Tuple = Object.freeze([0, 1, 0]) as unknown as Vec3Tuple;

/** A decimal number (no NaN, no Infinity, no hex), then an optional length unit. */
const LENGTH = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(m|cm|mm)?$/i;
/** A decimal number without a unit. */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const METRES: Record<string, number> = { '': 1, m: 1, cm: 0.01, mm: 0.001 };

/** Whether `slot` names a hotspot: it begins with `hotspot`, as `<model-viewer>` reads it. */
export function isHotspotSlot(slot: string): boolean {
  return slot.startsWith('hotspot');
}

/**
 * One length token in metres (model-space units): `1`, `1m`, `-2.5cm`, `10mm`, `1e-3m`.
 * @returns the number, or null when it is not one
 */
export function parseLength(token: string): number | null {
  const match = LENGTH.exec(token);
  if (!match) return null;
  const value = Number(match[1]) * METRES[(match[2] ?? '').toLowerCase()];
  return Number.isFinite(value) ? value : null;
}

/**
 * Three lengths separated by spaces (or commas): `"0.1m 2cm 3"` → metres.
 * @throws Error naming `attribute` and what is wrong (not three numbers, NaN, an unknown unit)
 */
export function parseVector(text: string, attribute: string): Vec3Tuple {
  const tokens = text.trim().split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length !== 3) throw new Error(`${attribute}="${text}": expected three numbers (x y z, optionally in m, cm or mm), got ${tokens.length}`);
  const values = tokens.map(parseLength);
  const bad = values.indexOf(null);
  if (bad >= 0) throw new Error(`${attribute}="${text}": "${tokens[bad]}" is not a finite number (optionally suffixed m, cm or mm)`);
  return values as unknown as Vec3Tuple;
}

/**
 * `data-surface`: `"MESH PRIMITIVE A B C U V W"` — the glTF mesh index, the primitive's index in that mesh,
 * three vertex indices of the primitive and their barycentric weights (the point is `U·A + V·B + W·C`), as
 * `<model-viewer>`'s `surfaceFromPoint` writes it; with seven numbers W is `1 − U − V`.
 * @throws Error naming the attribute and the problem (count, a non-integer index, a non-finite weight)
 */
export function parseSurface(text: string): ModelPointSpec & { kind: 'surface' } {
  const tokens = text.trim().split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length !== 7 && tokens.length !== 8) {
    throw new Error(`data-surface="${text}": expected "MESH PRIMITIVE A B C U V W" (7 or 8 numbers), got ${tokens.length}`);
  }
  const indices = tokens.slice(0, 5).map((t) => (/^\d+$/.test(t) ? Number(t) : NaN));
  const badIndex = indices.findIndex((i) => !Number.isSafeInteger(i));
  if (badIndex >= 0) throw new Error(`data-surface="${text}": "${tokens[badIndex]}" is not a mesh, primitive or vertex index (an integer ≥ 0)`);
  const weights = tokens.slice(5).map((t) => (NUMBER.test(t) ? Number(t) : NaN));
  const badWeight = weights.findIndex((w) => !Number.isFinite(w));
  if (badWeight >= 0) throw new Error(`data-surface="${text}": "${tokens[5 + badWeight]}" is not a finite barycentric weight`);
  if (weights.length === 2) weights.push(1 - weights[0] - weights[1]);
  return {
    kind: 'surface', mesh: indices[0], primitive: indices[1],
    vertices: [indices[2], indices[3], indices[4]], weights: [weights[0], weights[1], weights[2]],
  };
}

/**
 * What a hotspot follows, from its data attributes: `data-surface` first, then `data-joint` (with
 * `data-offset`, default `0 0 0`, and `data-normal` in the joint's frame, default none: always facing), then
 * `data-position` (default `0m 0m 0m`) with `data-normal` (default `0m 1m 0m`), as `<model-viewer>` does.
 * Attributes of the kinds not chosen are ignored.
 * @throws Error naming the attribute and the problem when the one chosen (or its offset / normal) is malformed
 */
export function readHotspotSpec(attributes: HotspotAttributes): ModelPointSpec {
  const present = (v: string | null | undefined): v is string => v !== undefined && v !== null;
  if (present(attributes.surface)) return parseSurface(attributes.surface);
  const normal = present(attributes.normal) ? parseVector(attributes.normal, 'data-normal') : null;
  if (present(attributes.joint)) {
    const joint = attributes.joint.trim();
    if (joint === '') throw new Error('data-joint="": expected a joint name');
    const offset = present(attributes.offset) ? parseVector(attributes.offset, 'data-offset') : DEFAULT_POSITION;
    return { kind: 'joint', joint, offset, normal };
  }
  const position = present(attributes.position) ? parseVector(attributes.position, 'data-position') : DEFAULT_POSITION;
  return { kind: 'position', position, normal: normal ?? DEFAULT_NORMAL };
}
