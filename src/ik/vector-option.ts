/** Checking the IK jobs' 3-vector options at set-up. */

/** True when the first three entries are finite. */
export function finite3(v: ArrayLike<number>): boolean {
  return Number.isFinite(v[0]) && Number.isFinite(v[1]) && Number.isFinite(v[2]);
}

/**
 * Copies a 3-vector option into `out` after checking it: three finite numbers, and not zero when `nonZero`.
 * For set-up. @throws RangeError naming `where` otherwise
 */
export function setVector3(out: Float64Array, value: ArrayLike<number>, where: string, nonZero: boolean): void {
  if (!value || value.length < 3 || !finite3(value)) throw new RangeError(`${where} must be three finite numbers, got ${formatVector(value)}`);
  if (nonZero && value[0] === 0 && value[1] === 0 && value[2] === 0) throw new RangeError(`${where} must not be the zero vector`);
  out[0] = value[0]; out[1] = value[1]; out[2] = value[2];
}

function formatVector(value: ArrayLike<number> | undefined): string {
  if (!value || typeof value !== 'object' || typeof value.length !== 'number') return String(value);
  return `[${Array.from(value as ArrayLike<number>, (n) => String(n)).join(', ')}]`;
}
