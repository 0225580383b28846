/**
 * Draco-compressed primitives that also carry morph targets (KHR_draco_mesh_compression keeps the targets'
 * accessors uncompressed, in the order of the decoded vertices). Compressed here with gltf-transform's `draco()`
 * (helpers/compress-model.ts), which re-orders the vertices, targets with them; the decoded model's morphed (and
 * skinned) positions, matched to the original's by position in the rest pose (helpers/vertex-matching.ts), stay
 * within the codec's quantisation at the rest pose and 5 times of every clip, at which the morph shows.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { compressModel } from '../helpers/compress-model.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { diagonal, worstMatchedError } from '../helpers/vertex-matching.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

const assets = sharedAssets();
/**
 * gltf-transform's default Draco quantisation: 14 bits for POSITION over the primitive's extent, so at most
 * half a step (2⁻¹⁵ × the largest extent) per coordinate, with margin for morph deltas added to a quantised
 * base and skinning's rotation of it.
 */
const TOLERANCE = 2e-4;

/** Whether some clip time moves some vertex of `asset` well past the tolerance from the rest pose (the morph shows). */
function morphShows(asset: ModelAsset): boolean {
  const rest = evaluateModel(asset, -1, 0);
  const scale = diagonal(rest);
  return asset.clips.some((clip, c) => [0.25, 0.5, 0.75].some((f) => evaluateModel(asset, c, f * clip.duration).primitives.some(
    (p, k) => p.positions.some((x, i) => Math.abs(x - rest.primitives[k].positions[i]) > 100 * TOLERANCE * scale))));
}

async function check(name: string, bytes: Uint8Array): Promise<number> {
  const original = await parseGltf(`${name}.glb`, bytes);
  const compressed = await compressModel(bytes, 'draco');
  const json = JSON.parse(new TextDecoder().decode(compressed.subarray(20, 20 + new DataView(compressed.buffer, compressed.byteOffset).getUint32(12, true))));
  // Every primitive is Draco-compressed and still has its morph targets.
  for (const mesh of json.meshes) {
    for (const primitive of mesh.primitives) {
      expect(primitive.extensions?.KHR_draco_mesh_compression).toBeDefined();
      expect(primitive.targets?.length).toBeGreaterThan(0);
    }
  }
  const decoded = await parseGltf(`${name}-draco.glb`, compressed);
  expect(decoded.warnings).toEqual([]);
  expect(morphShows(original)).toBe(true);
  const error = worstMatchedError(original, decoded);
  if (process.env.SINEW_REPORT_ERRORS) console.log(`${name} draco: ${error.toExponential(3)} × diagonal`);
  return error;
}

describe('Draco-compressed primitives with morph targets evaluate as the originals', () => {
  it(`the skinned morph tube (3 targets, POSITION/NORMAL/TANGENT deltas): within ${TOLERANCE} × diagonal`, async () => {
    expect(await check('morph-tube', skinnedMorphTube().glb())).toBeLessThan(TOLERANCE);
  }, 60_000);

  it(`the rigid morph tube on a moving node: within ${TOLERANCE} × diagonal`, async () => {
    expect(await check('morph-tube-rigid', skinnedMorphTube({ skinned: false }).glb())).toBeLessThan(TOLERANCE);
  }, 60_000);

  it.skipIf(!assets)(`SimpleMorph (shared): within ${TOLERANCE} × diagonal`, async () => {
    // A .gltf with an embedded buffer; gltf-transform reads it through a GLB of its own.
    const { NodeIO } = await import('@gltf-transform/core');
    const { unpartition } = await import('@gltf-transform/functions');
    const document = await new NodeIO().read(join(assets!, 'gltf', 'SimpleMorph.gltf'));
    await document.transform(unpartition());
    const glb = await new NodeIO().writeBinary(document);
    expect(await check('SimpleMorph', glb)).toBeLessThan(TOLERANCE);
  }, 60_000);
});
