import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf, rawAccessor } from '../helpers/gltf-raw.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();

describe.skipIf(!assets)('sinew eval with morph targets', () => {
  // SimpleMorph: one triangle, 2 POSITION targets, a LINEAR weights channel with keys at 0…4 s.
  for (const time of [0, 1, 1.5, 2.25, 4]) {
    it(`SimpleMorph.gltf at ${time} s prints p₀ + Σ wₜ·Δpₜ with the weights read from the file`, async () => {
      const path = join(assets!, 'gltf', 'SimpleMorph.gltf');
      const result = await sinew('eval', path, '--time', String(time));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const doc = JSON.parse(result.stdout);
      const raw = readRawGltf(path);
      const primitive = raw.json.meshes[0].primitives[0];
      const base = rawAccessor(raw, primitive.attributes.POSITION);
      const deltas = primitive.targets.map((target: { POSITION: number }) => rawAccessor(raw, target.POSITION));
      const sampler = raw.json.animations[0].samplers[0];
      const times = rawAccessor(raw, sampler.input), values = rawAccessor(raw, sampler.output);
      let k = 0;
      while (k + 2 < times.length && time >= times[k + 1]) k++;
      const s = Math.min(1, Math.max(0, (time - times[k]) / (times[k + 1] - times[k])));
      const weights = [0, 1].map((j) => values[2 * k + j] + s * (values[2 * (k + 1) + j] - values[2 * k + j]));
      const expected = base.map((x, i) => x + weights[0] * deltas[0][i] + weights[1] * deltas[1][i]);
      expect(doc.primitives).toHaveLength(1);
      expect(doc.primitives[0].positions).toHaveLength(expected.length);
      doc.primitives[0].positions.forEach((x: number, i: number) => expect(x).toBeCloseTo(expected[i], 6));
      if (time === 1) expect(doc.primitives[0].positions).not.toEqual(base); // the morph shows
    });
  }
});
