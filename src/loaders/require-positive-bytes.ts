/**
 * Checks a byte limit given as an option (`maxFileBytes`, `memoryBudgetBytes`): a NaN, zero or negative
 * limit would make every `size > limit` test false and so silently disable the limit.
 * @throws RangeError `<option> must be a positive number of bytes, got <value>` unless `value` > 0
 */
export function requirePositiveBytes(option: string, value: number): void {
  if (!(typeof value === 'number' && value > 0)) throw new RangeError(`${option} must be a positive number of bytes, got ${String(value)}`);
}
