import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { GltfBuilder } from '../helpers/gltf-builder.ts';
import { quatMultiplyAt, quatRotateAt } from '../../../src/math/quaternion.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { loadClipsFromPath } from '../../../src/node/load-clips-from-path.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
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
    expect(report.retarget.matched).toHaveLength(19); // the skin's joints: not Z_UP, Armature or the mesh node
    expect(report.retarget.unmatched).toEqual([]);
    expect(report.retarget.clips).toEqual([{ name: 'animation 0', duration: 2, channelCount: 20, interpolations: ['LINEAR'] }]); // 22 joints' rotations + the hips' translation, less 3 held at rest
    expect(report.clips[0].channelCount).toBe(57); // the model's own clip, as before
    const text = await sinew('inspect', cesium(), '--anim', cesium());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^retargeted from CesiumMan\.glb: 19 joints matched\nSkeleton_torso_joint_1, Skeleton_torso_joint_2, /m);
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

describe.skipIf(!assets)('sinew eval BOB.md5mesh --anim CLIPS.glb: a glTF clip onto an MD5 mesh', () => {
  it('plays Bob.md5anim rewritten as a Y-up animation-only GLB as the .md5anim itself retargets (the up turn undone)', async () => {
    const anim = join(assets!, 'md5', 'Bob.md5anim');
    const library = await loadClipsFromPath(anim);
    const { skeleton, restPose } = library;
    const h = Math.SQRT1_2, up = [-h, 0, 0, h]; // Z-up → Y-up, on the roots only
    const turn = (values: Float32Array, path: 'translation' | 'rotation', joint: number) => {
      if (skeleton.parents[joint] >= 0) return values;
      const out = new Float32Array(values.length), d = new Float64Array(4), c = path === 'rotation' ? 4 : 3;
      for (let k = 0; k < values.length / c; k++) {
        if (path === 'rotation') quatMultiplyAt(d, 0, up, 0, values, 4 * k);
        else quatRotateAt(d, 0, up, 0, values, 3 * k);
        out.set(d.subarray(0, c), c * k);
      }
      return out;
    };
    const b = new GltfBuilder();
    const children: number[][] = skeleton.names.map(() => []);
    skeleton.parents.forEach((p, j) => p >= 0 && children[p].push(j));
    b.json.nodes = skeleton.names.map((name, j) => ({
      name,
      translation: [...turn(restPose.translations.slice(3 * j, 3 * j + 3), 'translation', j)],
      rotation: [...turn(restPose.rotations.slice(4 * j, 4 * j + 4), 'rotation', j)],
      ...(children[j].length ? { children: children[j] } : {}),
    }));
    b.json.scenes = [{ nodes: skeleton.names.map((_, j) => j).filter((j) => skeleton.parents[j] < 0) }];
    const clip = library.clips[0];
    const samplers: object[] = [], channels: object[] = [];
    for (const channel of clip.channels) {
      const input = b.accessor(channel.times, 'SCALAR', { min: [channel.times[0]], max: [channel.times[channel.times.length - 1]] });
      const output = b.accessor(turn(channel.values, channel.path as 'translation' | 'rotation', channel.joint), channel.path === 'rotation' ? 'VEC4' : 'VEC3');
      samplers.push({ input, output });
      channels.push({ sampler: samplers.length - 1, target: { node: channel.joint, path: channel.path } });
    }
    b.json.animations = [{ name: 'Bob', samplers, channels }];
    const folder = mkdtempSync(join(tmpdir(), 'sinew-r1-'));
    const glb = join(folder, 'BobClips.glb');
    writeFileSync(glb, b.glb());
    const mesh = join(assets!, 'md5', 'Bob.md5mesh');
    const result = await sinew('eval', mesh, '--anim', glb, '--clip', 'Bob', '--time', '1.3');
    rmSync(folder, { recursive: true });
    expect(result.code).toBe(0);
    const bob = await loadModelFromPath(mesh);
    const expected = evaluateModel({ ...bob, clips: retargetClipLibrary(library, bob).clips }, 0, 1.3).primitives.flatMap((p) => p.positions);
    const got = JSON.parse(result.stdout).primitives.flatMap((p: { positions: number[] }) => p.positions);
    let worst = 0, size = 0;
    expected.forEach((v, i) => {
      worst = Math.max(worst, Math.abs(v - got[i]));
      size = Math.max(size, Math.abs(v));
    });
    console.log(`glTF clip onto Bob.md5mesh: worst vertex difference ${worst.toExponential(2)} (size ${size.toFixed(1)})`);
    expect(worst).toBeLessThan(1e-5 * size);
  });
});
