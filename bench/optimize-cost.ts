/**
 * `sinew optimize` figures for `npm run bench` (bench/run-bench.ts): on Fox, CesiumMan (../shared/assets/gltf/) and
 * generated60 (tests/fixtures/generated60.ts: 60 joints, one 30 s clip at 30 keys per second), each optimised with
 * `--max-error 0.1mm` (no quantisation, no meshopt):
 * - `optimize.ratio.<model>`: bytes of the whole input file / bytes of the whole output file (a .glb each);
 * - `optimize.max_error_mm.<model>`: the worst error the optimizer measured on its result over all clips
 *   (virtual vertices 3 cm from every joint and the corners of each joint's skinned vertices), millimetres;
 * - `optimize.ms.<model>`: the time optimizeFile took (read, reduce, write).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { optimizeFile } from '../src/cli/optimize-command.ts';
import { createGenerated60 } from '../tests/fixtures/generated60.ts';

/** The bench's rows (case, figure, …) and figures by key. */
export async function optimizeCost(sharedGltf: string): Promise<{ rows: string[][]; figures: Record<string, number> }> {
  const folder = mkdtempSync(join(tmpdir(), 'sinew-bench-optimize-'));
  const rows: string[][] = [], figures: Record<string, number> = {};
  try {
    const generated = join(folder, 'generated60.glb');
    writeFileSync(generated, await new NodeIO().writeBinary(createGenerated60()));
    const models: [string, string][] = [['generated60', generated]];
    for (const [key, file] of [['fox', 'Fox.glb'], ['cesium_man', 'CesiumMan.glb']]) {
      if (existsSync(join(sharedGltf, file))) models.push([key, join(sharedGltf, file)]);
    }
    for (const [key, path] of models) {
      const started = performance.now();
      const result = await optimizeFile(path, join(folder, `${key}-optimized.glb`), { maxError: 0.0001 });
      const ms = performance.now() - started;
      const ratio = result.fileBytesBefore / result.fileBytesAfter;
      const worstMm = Math.max(...result.clips.map((clip) => clip.maxError)) * 1000;
      rows.push([`optimize --max-error 0.1mm: ${key}, ${result.fileBytesBefore} -> ${result.fileBytesAfter} bytes`, `${ratio.toFixed(2)}:1`, `${worstMm.toFixed(4)} mm`, `${ms.toFixed(0)} ms`, '']);
      figures[`optimize.ratio.${key}`] = Math.round(ratio * 1000) / 1000;
      figures[`optimize.max_error_mm.${key}`] = Math.round(worstMm * 10000) / 10000;
      figures[`optimize.ms.${key}`] = Math.round(ms);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return { rows, figures };
}
