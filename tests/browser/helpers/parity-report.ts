import { expect } from '@playwright/test';
import type { ModelParity } from '../pages/parity.ts';

/** GPU-vs-CPU tolerance on positions: max |Δp| ≤ this × the model's bounding-box diagonal. */
export const POSITION_TOLERANCE = 1e-5;
/** Tolerance on unit normals and tangents (w included): max |Δn|, max |Δt| ≤ this. */
export const NORMAL_TOLERANCE = 1e-4;

/** Asserts one model's parity result: something was compared, and every path that ran is within tolerance. */
export function expectParity(result: ModelParity): void {
  expect(result.skinnedPrimitives, `${result.model}: skinned primitives`).toBeGreaterThan(0);
  expect(result.diagonal, `${result.model}: diagonal`).toBeGreaterThan(0);
  for (const path of result.paths) {
    if (path.skipped) continue;
    const what = `${result.model} ${path.path} ${path.method}`;
    expect(path.verticesCompared, `${what}: vertices compared`).toBeGreaterThan(0);
    expect(path.maxPositionError, `${what}: max |Δp| (worst at ${path.worst})`)
      .toBeLessThanOrEqual(POSITION_TOLERANCE * result.diagonal);
    expect(path.maxNormalError, `${what}: max |Δn|`).toBeLessThanOrEqual(NORMAL_TOLERANCE);
    expect(path.maxTangentError, `${what}: max |Δt|`).toBeLessThanOrEqual(NORMAL_TOLERANCE);
  }
}

/** Prints the measured errors as a Markdown table, one row per model (label), skinning method and palette path. */
export function printParityTable(rows: readonly { label: string; result: ModelParity }[]): void {
  if (rows.length === 0) return;
  const cells = rows.flatMap(({ label, result: r }) => r.paths.map((p) => [
    label, String(r.jointCount), String(r.influences), p.method, p.path,
    p.skipped ? 'skipped' : String(p.samples), p.skipped ? '' : String(p.verticesCompared),
    r.diagonal.toPrecision(4),
    p.skipped ? '' : p.maxPositionError.toExponential(2),
    p.skipped ? '' : (p.maxPositionError / r.diagonal).toExponential(2),
    p.skipped ? p.skipped : p.maxNormalError.toExponential(2),
    p.skipped || p.tangentsCompared === 0 ? '' : p.maxTangentError.toExponential(2),
  ]));
  const header = ['model', 'joints', 'influences', 'method', 'path', 'samples', 'vertices', 'diagonal', 'max|Δp|', 'max|Δp|/diag', 'max|Δn|', 'max|Δt|'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(['', line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n'));
}
