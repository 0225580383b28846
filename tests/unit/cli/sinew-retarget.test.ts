import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { sharedAssets } from '../helpers/shared-assets.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { loadClipsFromPath } from '../../../src/node/load-clips-from-path.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { evaluateModel } from '../../../src/cli/evaluate-model.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();

describe.skipIf(!assets)('sinew --anim with clips from another file (retargeting)', () => {
  const cesium = () => join(assets!, 'gltf', 'CesiumMan.glb');

  it('eval MODEL --anim CLIPS.glb --clip NAME --time T prints the clip retargeted onto the model', async () => {
    const result = await sinew('eval', cesium(), '--anim', cesium(), '--clip', 'animation 0', '--time', '0.75');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('sinew: warning: CesiumMan.glb: scale or weights channels of 1 of 1 clips ignored by retargeting\n');
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({ clip: 'animation 0', time: 0.75, duration: 2 });
    const asset = await loadModelFromPath(cesium());
    const { clips } = retargetClipLibrary(await loadClipsFromPath(cesium()), asset);
    const expected = evaluateModel({ ...asset, clips }, 0, 0.75);
    let worst = 0;
    doc.primitives[0].positions.forEach((v: number, i: number) => (worst = Math.max(worst, Math.abs(v - expected.primitives[0].positions[i]))));
    expect(worst).toBeLessThan(1e-6);
    // Onto itself it follows the model's own clip, but for the bone lengths its clip changes slightly (the
    // default translation 'rest' keeps the model's).
    const own = evaluateModel(asset, 0, 0.75).primitives[0].positions;
    let differs = 0;
    own.forEach((v, i) => (differs = Math.max(differs, Math.abs(v - doc.primitives[0].positions[i]))));
    expect(differs).toBeLessThan(0.05);
  });

  it('inspect MODEL --anim CLIPS.glb lists matched and unmatched joints (--json and text)', async () => {
    const json = await sinew('inspect', cesium(), '--anim', cesium(), '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.retarget.file).toBe('CesiumMan.glb');
    expect(report.retarget.matched).toHaveLength(22);
    expect(report.retarget.unmatched).toEqual([]);
    expect(report.retarget.clips).toEqual([{ name: 'animation 0', duration: 2, channelCount: 23, interpolations: ['LINEAR'] }]);
    expect(report.clips[0].channelCount).toBe(57); // the model's own clip, as before
    const text = await sinew('inspect', cesium(), '--anim', cesium());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^retargeted from CesiumMan\.glb: 22 joints matched\nZ_UP, Armature, /m);
    expect(text.stdout).toMatch(/^unmatched \(0, keep their rest pose\)$/m);
    // Without --anim there is no retarget field (the report's contract is unchanged).
    expect(JSON.parse((await sinew('inspect', cesium(), '--json')).stdout).retarget).toBeUndefined();
  });

  it('an .md5anim onto a glTF with no joint in common: exit 1, RETARGET_NO_MATCH naming both files', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--anim', join(assets!, 'md5', 'Bob.md5anim'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: Bob\.md5anim: no joint of Fox\.glb matches a joint of Bob\.md5anim by name/);
    const md5 = await sinew('inspect', join(assets!, 'md5', 'Bob.md5mesh'), '--anim', cesium());
    expect(md5.code).toBe(1);
    expect(md5.stderr).toMatch(/^sinew: CesiumMan\.glb: no joint of Bob\.md5mesh matches a joint of CesiumMan\.glb by name/);
  });
});
