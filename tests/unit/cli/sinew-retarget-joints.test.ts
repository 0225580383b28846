import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { readRawGltf } from '../helpers/gltf-raw.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { sinew } from './run-sinew.ts';

// `sinew inspect --anim` and the warning of `sinew eval --anim` count the same joints: the model's skin joints,
// never a non-joint node (an Armature, a mesh node) that a name happens to match.

const folder = mkdtempSync(join(tmpdir(), 'sinew-retarget-joints-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The skinned quad with its three nodes renamed: [node 0 (joint), node 1 (mesh node, not a joint), node 2 (root joint)]. */
function quad(file: string, names: [string, string, string]): string {
  const b = skinnedQuad();
  b.json.nodes.forEach((node: { name: string }, i: number) => (node.name = names[i]));
  const path = join(folder, file);
  writeFileSync(path, b.glb());
  return path;
}

describe('sinew inspect --anim and sinew eval --anim agree on the joints', () => {
  // Model: joints "hips" (root) and "head"; its mesh node "body". Clips: joints "hips" and "spine"; mesh node "body".
  // By hand: "hips" is driven, "head" is not, and "body" is matched by name but is no joint of the model.
  const model = quad('model.glb', ['head', 'body', 'hips']);
  const clips = quad('clips.glb', ['spine', 'body', 'hips']);

  it('lists the skin joints only, and the warning counts the unmatched ones inspect lists', async () => {
    const inspect = await sinew('inspect', model, '--anim', clips, '--json');
    expect(inspect.code).toBe(0);
    const report = JSON.parse(inspect.stdout);
    expect(report.retarget.matched).toEqual(['hips']);
    expect(report.retarget.unmatched).toEqual(['head']);
    const warning = 'model.glb: 1 joint matches no joint of clips.glb and keeps its rest pose: head';
    expect(report.warnings).toContain(warning);

    const evaluation = await sinew('eval', model, '--anim', clips);
    expect(evaluation.code).toBe(0);
    expect(evaluation.stderr).toBe(`sinew: warning: ${warning}\n`);

    const text = await sinew('inspect', model, '--anim', clips);
    expect(text.stdout).toMatch(/^retargeted from clips\.glb: 1 joint matched\nhips$/m);
    expect(text.stdout).toMatch(/^unmatched \(1, keep their rest pose\)\nhead$/m);
  });
});

const assets = sharedAssets();

describe.skipIf(!assets)('on a real pair', () => {
  it('CesiumMan.glb onto itself matches exactly the joints of its skin (not Z_UP, Armature or the mesh node)', async () => {
    const path = join(assets!, 'gltf', 'CesiumMan.glb');
    const json = readRawGltf(path).json;
    const skinJoints = json.skins[0].joints.map((n: number) => json.nodes[n].name as string);
    const report = JSON.parse((await sinew('inspect', path, '--anim', path, '--json')).stdout);
    expect(skinJoints).toHaveLength(19);
    expect([...report.retarget.matched].sort()).toEqual([...skinJoints].sort());
    expect(report.retarget.unmatched).toEqual([]);
  });

  it('CesiumMan.glb clips on RiggedFigure.glb: inspect lists the unmatched joints eval warns of, counted alike', async () => {
    const model = join(assets!, 'gltf', 'RiggedFigure.glb');
    const clipsFile = join(assets!, 'gltf', 'CesiumMan.glb');
    // By the matching rule (README "Clips from other files"): a skin joint of the model is driven when the clips'
    // file has a node of the same name, compared case-insensitively (these names carry no namespace).
    const figure = readRawGltf(model).json, cesium = readRawGltf(clipsFile).json;
    const theirs = new Set(cesium.nodes.map((node: { name?: string }) => (node.name ?? '').toLowerCase()));
    const joints: string[] = figure.skins[0].joints.map((n: number) => figure.nodes[n].name as string);
    const unmatched = joints.filter((name) => !theirs.has(name.toLowerCase()));
    expect(unmatched.length).toBeGreaterThan(0);
    expect(unmatched.length).toBeLessThan(joints.length);

    const report = JSON.parse((await sinew('inspect', model, '--anim', clipsFile, '--json')).stdout);
    expect([...report.retarget.unmatched].sort()).toEqual([...unmatched].sort());
    expect([...report.retarget.matched].sort()).toEqual(joints.filter((name) => !unmatched.includes(name)).sort());
    const evaluation = await sinew('eval', model, '--anim', clipsFile);
    expect(evaluation.code).toBe(0);
    const count = /RiggedFigure\.glb: (\d+) joints match no joint of CesiumMan\.glb/.exec(evaluation.stderr);
    expect(count && Number(count[1])).toBe(unmatched.length);
  });

  it('clips that match only non-joint nodes (Z_UP, Armature) match no joint: RETARGET_NO_MATCH, as for no name in common', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'RiggedSimple.glb'), '--anim', join(assets!, 'gltf', 'CesiumMan.glb'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: CesiumMan\.glb: no joint of RiggedSimple\.glb matches a joint of CesiumMan\.glb by name/);
  });
});
