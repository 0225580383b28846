import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLocomotionVrma } from '../../../src/procedural/avatar/locomotion-vrma.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { sinew } from './run-sinew.ts';

// `sinew bake` as a user runs it (the shipped dist/cli.js): `sinew eval OUT` equals `sinew eval MODEL --anim`, and each
// bad input is one clear error with the CLI's exit code, leaving no OUT and no temporary file behind.

const assets = sharedAssets();
const root = mkdtempSync(join(tmpdir(), 'sinew-bake-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh empty folder for one test's output, so "nothing left behind" is a listing of it. */
function emptyFolder(name: string): string {
  const folder = join(root, name);
  mkdirSync(folder);
  return folder;
}

describe.skipIf(!assets)('sinew bake', () => {
  const cesium = () => join(assets!, 'gltf', 'CesiumMan.glb');
  const figure = () => join(assets!, 'gltf', 'RiggedFigure.glb');

  it('sinew eval OUT.glb --clip X --time t prints what sinew eval MODEL --anim CLIPS --clip X --time t prints', async () => {
    const folder = emptyFolder('eval');
    const out = join(folder, 'out.glb');
    const bake = await sinew('bake', cesium(), '--anim', figure(), '-o', out, '--clip', 'animation 0');
    expect(bake.code, bake.stderr).toBe(0);
    expect(readdirSync(folder)).toEqual(['out.glb']);
    for (const time of ['0.8']) {
      const baked = JSON.parse((await sinew('eval', out, '--clip', 'animation 0 (RiggedFigure.glb)', '--time', time)).stdout);
      const direct = JSON.parse((await sinew('eval', cesium(), '--anim', figure(), '--clip', 'animation 0', '--time', time)).stdout);
      expect(baked.time).toBe(direct.time);
      let worst = 0;
      baked.primitives[0].positions.forEach((v: number, i: number) => (worst = Math.max(worst, Math.abs(v - direct.primitives[0].positions[i]))));
      expect(worst).toBeLessThan(1e-5 * 2); // CesiumMan is about 2 m across
    }
  });

  it('an unknown clip: exit 1, naming the clips there are; no OUT, no temporary file', async () => {
    const folder = emptyFolder('unknown-clip');
    const result = await sinew('bake', cesium(), '--anim', figure(), '-o', join(folder, 'out.glb'), '--clip', 'Dance');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: RiggedFigure\.glb: no clip "Dance" \(clips: "animation 0"\)$/m);
    expect(result.stderr).not.toMatch(/^sinew: wrote/m);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('.vrma for a model with no humanoid: exit 1, before reading the clips', async () => {
    const folder = emptyFolder('not-humanoid');
    const result = await sinew('bake', join(assets!, 'gltf', 'Fox.glb'), '--anim', figure(), '-o', join(folder, 'fox.vrma'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: Fox\.glb: not a humanoid model, so no \.vrma: no joint found for the required humanoid bones hips, /m);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('an output extension other than .glb, .gltf or .vrma: a usage error (exit 2)', async () => {
    const folder = emptyFolder('extension');
    const result = await sinew('bake', cesium(), '--anim', figure(), '-o', join(folder, 'out.fbx'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^sinew: option '-o, --out <file>' argument '.*out\.fbx' is invalid\. It must end in \.glb, \.gltf or \.vrma\.$/m);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('an unwritable output: a missing folder, then a read-only one: exit 1, nothing left', async () => {
    const missing = await sinew('bake', cesium(), '--anim', figure(), '-o', join(root, 'no-such-folder', 'out.glb'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`sinew: ${join(root, 'no-such-folder')}: no such folder\n`);
    const folder = emptyFolder('read-only');
    chmodSync(folder, 0o555);
    try {
      const result = await sinew('bake', cesium(), '--anim', figure(), '-o', join(folder, 'out.glb'));
      // root ignores file permissions: then the write succeeds, and the test checks only that one file was written.
      if (process.getuid?.() === 0) {
        expect(result.code).toBe(0);
        expect(readdirSync(folder)).toEqual(['out.glb']);
      } else {
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/permission denied/);
        expect(readdirSync(folder)).toEqual([]);
      }
    } finally {
      chmodSync(folder, 0o755);
    }
  });

  it('an OUT that cannot be replaced (a folder of that name): exit 1, the temporary file removed', async () => {
    const folder = emptyFolder('out-is-folder');
    mkdirSync(join(folder, 'out.glb'));
    const result = await sinew('bake', cesium(), '--anim', figure(), '-o', join(folder, 'out.glb'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: .*out\.glb: is a folder, not a file$/m);
    expect(readdirSync(folder)).toEqual(['out.glb']);
  });

  it('an existing OUT is replaced only when the bake succeeds', async () => {
    const folder = emptyFolder('replace');
    const out = join(folder, 'out.glb');
    writeFileSync(out, 'before');
    const failed = await sinew('bake', cesium(), '--anim', figure(), '-o', out, '--clip', 'nope');
    expect(failed.code).toBe(1);
    expect(readdirSync(folder)).toEqual(['out.glb']);
    const walk = join(folder, 'Walk.vrma');
    writeFileSync(walk, await buildLocomotionVrma('Walk'));
    // A humanoid VRMA onto CesiumMan (no humanoid names): RETARGET_NO_MATCH, exit 1, OUT as it was.
    const noMatch = await sinew('bake', cesium(), '--anim', walk, '-o', out);
    expect(noMatch.code).toBe(1);
    expect(noMatch.stderr).toMatch(/^sinew: Walk\.vrma: no joint of CesiumMan\.glb matches/m);
    expect(readdirSync(folder).sort()).toEqual(['Walk.vrma', 'out.glb']);
    expect(existsSync(out) && (await import('node:fs')).readFileSync(out, 'utf8')).toBe('before');
  });
});
