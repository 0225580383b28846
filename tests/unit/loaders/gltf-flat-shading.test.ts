import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf } from '../helpers/gltf-raw.ts';

const assets = sharedAssets();

describe.skipIf(!assets)('glTF primitives without NORMAL are flat-shaded (glTF 2.0 §3.7.2.1)', () => {
  const dir = assets ? join(assets, 'gltf') : '';
  const files = assets ? readdirSync(dir).filter((f) => /\.(glb|gltf)$/.test(f)) : [];
  for (const file of files) {
    it(file, async () => {
      const asset = await loadModelFromPath(join(dir, file));
      const raw = readRawGltf(join(dir, file));
      (raw.json.meshes ?? []).forEach((mesh: any, m: number) => {
        const triangles = mesh.primitives.filter((p: any) => (p.mode ?? 4) >= 4);
        triangles.forEach((p: any, i: number) => {
          expect(asset.meshes[m].primitives[i].flatShading, `mesh ${m} primitive ${i}`).toBe(p.attributes.NORMAL === undefined);
        });
      });
    });
  }
});
