import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIO } from '@gltf-transform/core';
import { optimizeFile, type OptimizeResult } from '../../../src/cli/optimize-command.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { createGenerated60 } from '../../fixtures/generated60.ts';
import { SkinnedModel, worstSkinnedError } from './skinned-vertices.ts';
import { matchResample } from './resample-comparison.ts';

const BOUND = 0.0001; // 0.1 mm
const assets = sharedAssets();
const folder = mkdtempSync(join(tmpdir(), 'sinew-optimize-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Float32 skinning of the same pose in two files differs by round-off of this order (relative to the model's size). */
const ROUND_OFF = 1e-6;

const models: { name: string; path: () => string }[] = [
  { name: 'generated60', path: () => join(folder, 'generated60.glb') },
  ...(assets ? [{ name: 'Fox', path: () => join(assets, 'gltf/Fox.glb') }, { name: 'CesiumMan', path: () => join(assets, 'gltf/CesiumMan.glb') }] : []),
];

beforeAll(async () => {
  writeFileSync(join(folder, 'generated60.glb'), await new NodeIO().writeBinary(createGenerated60()));
});

describe('sinew optimize holds the bound on the skinned vertices (Sinew loader + CPU skinning on the written file) and beats resample()', () => {
  for (const model of models) {
    for (const quantize of [false, true]) {
      it(`${model.name}${quantize ? ' --quantize' : ''}: every skinned vertex within 0.1 mm at 50 times per clip`, async () => {
        const out = join(folder, `${model.name}-optimized${quantize ? '-q' : ''}.glb`);
        let result: OptimizeResult;
        try {
          result = await optimizeFile(model.path(), out, { maxError: BOUND, quantize });
        } catch (error) {
          // A bound the rounding alone exceeds is refused, naming it, and nothing is written.
          expect(quantize).toBe(true);
          expect(String(error)).toMatch(/--quantize cannot hold --max-error 0\.1 mm: 16-bit rotations alone move .+ by [\d.]+ mm at [\d.]+ s/);
          expect(() => statSync(out)).toThrow();
          return;
        }
        const keysBefore = result.clips.reduce((s, c) => s + c.keysBefore, 0), keysAfter = result.clips.reduce((s, c) => s + c.keysAfter, 0);
        expect(keysAfter).toBeLessThanOrEqual(keysBefore);
        for (const clip of result.clips) expect(clip.maxError).toBeLessThanOrEqual(BOUND);
        const source = await SkinnedModel.load(model.path()), written = await SkinnedModel.load(out);
        const worst = worstSkinnedError(source, written);
        expect(worst.error).toBeLessThanOrEqual(BOUND + ROUND_OFF);
        if (quantize) return;
        // glTF-Transform's resample() tuned to the same measured worst error (no quantisation on either side) writes more.
        const resampled = await matchResample(() => new NodeIO().read(model.path()), source, worst.error, join(folder, `${model.name}-resampled.glb`));
        expect(resampled.error).toBeLessThanOrEqual(worst.error);
        expect(result.fileBytesAfter).toBeLessThan(resampled.fileBytes);
        console.log(`${model.name}: keys ${keysBefore} -> ${keysAfter}, file ${result.fileBytesBefore} -> ${result.fileBytesAfter} (resample at tolerance ${resampled.tolerance.toExponential(2)}: ${resampled.fileBytes}), skinned worst ${(worst.error * 1000).toFixed(4)} mm (resample ${(resampled.error * 1000).toFixed(4)} mm)`);
      }, 120_000);
    }
  }
});
