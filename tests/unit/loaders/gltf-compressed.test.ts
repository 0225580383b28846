/**
 * Compressed and quantised copies of the shared skinned models — made here with gltf-transform and the codecs'
 * own encoders (helpers/compress-model.ts) — load, and their skinned vertices (CPU reference path, `sinew
 * eval`'s evaluateModel) stay within 5e-3 × the bounding-box diagonal of the original's at several times of
 * every clip: what the codecs' quantisation costs, nothing more.
 *
 * Draco re-orders and welds vertices and meshopt re-orders them, so vertices are compared by correspondence,
 * not index: in the bind (rest) pose each original vertex is matched with its nearest decoded vertex and each
 * decoded vertex with its nearest original, per primitive; at every clip time both matchings must hold within
 * the tolerance (so no decoded vertex strays and no original one is lost).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { CODECS, compressModel } from '../helpers/compress-model.ts';
import { worstMatchedError } from '../helpers/vertex-matching.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

const assets = sharedAssets();
const MODELS = ['CesiumMan', 'Fox', 'RiggedFigure'];
const TOLERANCE = 5e-3;

describe.skipIf(!assets)('compressed and quantised shared models evaluate as the originals', () => {
  for (const model of MODELS) {
    for (const codec of CODECS) {
      it(`${model} ${codec}: skinned vertices within ${TOLERANCE} × diagonal at 5 times of every clip`, async () => {
        const path = join(assets!, 'gltf', `${model}.glb`);
        const original = await parseGltf(`${model}.glb`, readFileSync(path));
        const bytes = await compressModel(path, codec);
        const decoded = await parseGltf(`${model}-${codec}.glb`, bytes);
        const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true))));
        expect(json.extensionsRequired).toContain({ draco: 'KHR_draco_mesh_compression', meshopt: 'EXT_meshopt_compression', quantize: 'KHR_mesh_quantization' }[codec]);
        expect(decoded.warnings).toEqual([]);
        const error = worstMatchedError(original, decoded);
        if (process.env.SINEW_REPORT_ERRORS) console.log(`${model} ${codec}: ${error.toExponential(3)} × diagonal`);
        expect(error).toBeLessThan(TOLERANCE);
      }, 60_000);
    }
  }
});
