import { mat4, quat } from 'gl-matrix';

/** Metres per unit of the length suffixes an offset may carry (as model-viewer's hotspot positions do). */
const LENGTH_UNITS: Record<string, number> = { '': 1, m: 1, cm: 0.01, mm: 0.001 };
/** Degrees per unit of the angle suffixes. */
const ANGLE_UNITS: Record<string, number> = { '': 1, deg: 1, rad: 180 / Math.PI };

/** `raw`'s whitespace- or comma-separated numbers, each with an optional suffix from `units`, scaled by it. */
function readNumbers(raw: string, units: Record<string, number>, what: string): number[] {
  const words = raw.trim().split(/[\s,]+/).filter((w) => w !== '');
  return words.map((word) => {
    const match = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)([a-z]*)$/i.exec(word);
    const unit = match ? units[match[2].toLowerCase()] : undefined;
    if (!match || unit === undefined) throw new RangeError(`${what}: ${JSON.stringify(word)} is not a number${Object.keys(units).length > 1 ? ` (units: ${Object.keys(units).filter((u) => u).join(', ')})` : ''}`);
    return Number(match[1]) * unit;
  });
}

/**
 * An attachment's offset (`Float64Array(16)`, column-major: the prop's model space → the joint's frame) from
 * the `<sinew-attachment>` attributes (docs/guide/attachments.md):
 *
 * - `offset`: `"x y z"`, a translation in metres (each number may end in `m`, `cm` or `mm`), or 16 numbers, a
 *   whole column-major matrix (then the other two must be absent);
 * - `rotation`: `"x y z"` Euler angles in degrees (or with `deg` / `rad`), R = Rz · Ry · Rx: turned about the
 *   joint's x axis first, then y, then z;
 * - `scale`: one number (uniform) or three (x y z).
 *
 * The offset is T · R · S. Absent or empty values are the identity's parts.
 * @throws RangeError naming the attribute and the problem for a malformed value
 */
export function parseAttachmentOffset(offset: string | null, rotation: string | null = null, scale: string | null = null): Float64Array {
  const t = offset ? readNumbers(offset, LENGTH_UNITS, 'offset') : [];
  const r = rotation ? readNumbers(rotation, ANGLE_UNITS, 'offset-rotation') : [];
  const s = scale ? readNumbers(scale, { '': 1 }, 'offset-scale') : [];
  if (t.length === 16) {
    if (r.length > 0 || s.length > 0) throw new RangeError('offset: a 16-number matrix takes no offset-rotation or offset-scale');
    if (t[3] !== 0 || t[7] !== 0 || t[11] !== 0 || t[15] !== 1) throw new RangeError('offset: the matrix\'s last row must be (0, 0, 0, 1), an affine transform');
    return Float64Array.from(t);
  }
  if (t.length !== 0 && t.length !== 3) throw new RangeError(`offset: expected "x y z" in metres or 16 numbers, got ${t.length} numbers`);
  if (r.length !== 0 && r.length !== 3) throw new RangeError(`offset-rotation: expected "x y z" in degrees, got ${r.length} numbers`);
  if (s.length !== 0 && s.length !== 1 && s.length !== 3) throw new RangeError(`offset-scale: expected one number or "x y z", got ${s.length} numbers`);
  // f64 quaternions (gl-matrix's `create` makes float32 ones).
  const q = Float64Array.of(0, 0, 0, 1) as unknown as quat;
  if (r.length === 3) {
    const radians = Math.PI / 180, turn = new Float64Array(4) as unknown as quat;
    // q = qz · qy · qx: the x turn applies first.
    quat.setAxisAngle(q, [0, 0, 1], r[2] * radians);
    quat.multiply(q, q, quat.setAxisAngle(turn, [0, 1, 0], r[1] * radians));
    quat.multiply(q, q, quat.setAxisAngle(turn, [1, 0, 0], r[0] * radians));
  }
  const scales = s.length === 0 ? [1, 1, 1] : s.length === 1 ? [s[0], s[0], s[0]] : s;
  const m = mat4.fromRotationTranslationScale(new Float64Array(16) as unknown as mat4, q, (t.length === 3 ? t : [0, 0, 0]) as [number, number, number], scales as [number, number, number]);
  return m as unknown as Float64Array;
}

/**
 * An offset given as numbers (`element.attach(…, offset)`): 3 are a translation in metres, 16 a column-major
 * matrix; absent, the identity.
 * @throws RangeError for another count, or a non-finite number
 */
export function offsetFromNumbers(numbers: ArrayLike<number> | undefined): Float64Array {
  if (numbers === undefined) return parseAttachmentOffset(null);
  const list = Array.from(numbers);
  if (!list.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new RangeError('offset: expected finite numbers');
  if (list.length === 3) return parseAttachmentOffset(list.join(' '));
  if (list.length === 16) return Float64Array.from(list);
  throw new RangeError(`offset: expected 3 numbers (a translation in metres) or 16 (a column-major matrix), got ${list.length}`);
}
