/** Metres per unit of the lengths `sinew optimize` takes (`--max-error 0.1mm`, `--joint-distance 3cm`). */
const METRES_PER_UNIT: Readonly<Record<string, number>> = { mm: 0.001, cm: 0.01, m: 1 };

/**
 * A length as the command line gives it: a non-negative number with a unit `mm`, `cm` or `m`, or a bare number
 * in metres (glTF 2.0 §3.5.1: "the units for all linear distances are meters").
 * @param text e.g. `0.1mm`, `3cm`, `0.002`
 * @param option the option's name for the message, e.g. `--max-error`
 * @returns metres (≥ 0, finite)
 * @throws Error `--max-error: "x" is not a length (a number with mm, cm or m, e.g. 0.1mm)` for no number, a
 *   negative or non-finite number, or an unknown unit
 */
export function parseLength(text: string, option: string): number {
  const match = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const hint = 'a number with mm, cm or m, e.g. 0.1mm';
  if (!match) throw new Error(`${option}: ${JSON.stringify(text)} is not a length (${hint})`);
  const unit = match[2].toLowerCase();
  const scale = unit === '' ? 1 : METRES_PER_UNIT[unit];
  if (scale === undefined) throw new Error(`${option}: unknown unit ${JSON.stringify(match[2])} in ${JSON.stringify(text)} (${hint})`);
  const value = Number(match[1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${option}: ${JSON.stringify(text)} is negative or not finite (${hint})`);
  return value * scale;
}
