/**
 * `sinew` command costs for `npm run bench` (bench/run-bench.ts), each one run of the shipped command line
 * (bin/sinew.mjs → dist/cli.js; needs `npm run build`, skipped with a note otherwise) in a child process whose
 * peak resident memory (VmHWM, Linux) it reports at exit (tests/unit/cli/run-measured.ts); the inputs are
 * generated into the temporary folder and deleted.
 *
 * Keys: `eval.seconds.30M` and `eval.peak_rss_mib.30M`: `sinew eval` on a file of a few KB declaring
 * 30 000 000 vertices (tests/fixtures/large-models.ts `declaredVertexMesh`; 343 MiB of decoded positions,
 * 180 MB of JSON read from the pipe as it comes); `inspect.seconds.100k_nodes` and
 * `inspect.peak_rss_mib.100k_nodes`: `sinew inspect --json` on a glTF of 100 000 nodes (`manyNodes`, flat).
 * Wall time includes node's start-up and the model's load.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { declaredVertexMesh, manyNodes } from '../tests/fixtures/large-models.ts';
import { sinewMeasured } from '../tests/unit/cli/run-measured.ts';

/** The figures by key, and table rows; null when dist/cli.js or /proc is missing. */
export async function cliCost(log: (line: string) => void): Promise<{ figures: Record<string, number>; rows: string[][] } | null> {
  if (!existsSync(resolve(import.meta.dirname, '../dist/cli.js')) || !existsSync('/proc/self/status')) {
    log('cli bench: dist/cli.js (run `npm run build`) or /proc is missing; eval.* and inspect.* figures skipped');
    return null;
  }
  const folder = mkdtempSync(join(tmpdir(), 'sinew-cli-bench-'));
  try {
    const cases = [
      { key: 'eval', size: '30M', file: 'declared.gltf', text: () => declaredVertexMesh(30_000_000), args: ['eval'] },
      { key: 'inspect', size: '100k_nodes', file: 'nodes.gltf', text: () => manyNodes(100_000, 'flat'), args: ['inspect', '--json'] },
    ];
    const figures: Record<string, number> = {}, rows: string[][] = [];
    for (const c of cases) {
      const path = join(folder, c.file);
      writeFileSync(path, c.text());
      const start = performance.now();
      const run = await sinewMeasured([...c.args, path], 64);
      const seconds = (performance.now() - start) / 1000;
      const mib = run.peakBytes / 2 ** 20;
      figures[`${c.key}.seconds.${c.size}`] = Math.round(seconds * 100) / 100;
      figures[`${c.key}.peak_rss_mib.${c.size}`] = Math.round(mib);
      rows.push([`sinew ${c.args.join(' ')} ${c.size} (exit ${run.code}, ${(run.stdoutBytes / 1e6).toFixed(1)} MB out)`, `${seconds.toFixed(2)} s`, '', '', `peak ${mib.toFixed(0)} MiB`]);
    }
    return { figures, rows };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
