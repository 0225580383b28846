import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { main } from '../../../src/cli/main.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { loadClipsFromPath } from '../../../src/node/load-clips-from-path.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { buildAvatarVrm0 } from '../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildLocomotionVrma } from '../../../src/procedural/avatar/locomotion-vrma.ts';
import { buildMixamoRig } from '../../../src/procedural/avatar/mixamo-rig.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { evaluateWithThree } from '../cli/three-oracle.ts';
import { compressModel } from '../helpers/compress-model.ts';

// sinew bake (docs/guide/bake.md): the baked file plays each clip as `sinew eval MODEL --anim CLIPS` plays it, three.js
// plays it alike, and the Khronos validator finds no error in it.

const assets = sharedAssets();
const folder = mkdtempSync(join(tmpdir(), 'sinew-bake-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `sinew …` in this process; returns the exit code and what it wrote to stderr. */
async function sinewInProcess(...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), stderr };
  } finally {
    spy.mockRestore();
  }
}

/** Largest distance between the positions of two evaluations, and the diagonal of the first's bounding box. */
function compare(a: ReturnType<typeof evaluateModel>, b: ReturnType<typeof evaluateModel>): { worst: number; diagonal: number } {
  expect(a.primitives.length).toBe(b.primitives.length);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let worst = 0;
  a.primitives.forEach((primitive, i) => {
    const other = b.primitives[i].positions;
    expect(other.length).toBe(primitive.positions.length);
    primitive.positions.forEach((v, k) => {
      lo[k % 3] = Math.min(lo[k % 3], v); hi[k % 3] = Math.max(hi[k % 3], v);
      worst = Math.max(worst, Math.abs(v - other[k]));
    });
  });
  return { worst, diagonal: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) };
}

/** The model with the clips of `anim` retargeted onto it: what `sinew eval MODEL --anim ANIM` plays. */
async function retargeted(model: string, anim: string): Promise<ModelAsset> {
  const asset = await loadModelFromPath(model);
  return { ...asset, clips: retargetClipLibrary(await loadClipsFromPath(anim), asset).clips };
}

/** `sinew eval OUT --clip NAME --time t` equals `sinew eval MODEL --anim ANIM --clip SOURCE --time t` at 5 times. */
async function expectSamePlayback(out: string, name: string, direct: ModelAsset, source: string, times?: number[]): Promise<void> {
  const baked = await loadModelFromPath(out);
  const index = baked.clips.findIndex((clip) => clip.name === name);
  const sourceIndex = direct.clips.findIndex((clip) => clip.name === source);
  expect(index, `${name} in ${baked.clips.map((c) => c.name).join(', ')}`).toBeGreaterThanOrEqual(0);
  const duration = direct.clips[sourceIndex].duration;
  expect(baked.clips[index].duration).toBeCloseTo(duration, 6);
  for (const time of times ?? [0, 0.13, 0.37, 0.61, 0.89].map((f) => f * duration)) {
    const { worst, diagonal } = compare(evaluateModel(baked, index, time), evaluateModel(direct, sourceIndex, time));
    expect(worst, `${name} at ${time}s`).toBeLessThan(1e-5 * diagonal);
  }
}

async function validate(path: string): Promise<void> {
  const validator = await import('gltf-validator');
  const report = await validator.validateBytes(new Uint8Array(readFileSync(path)));
  expect(report.issues.numErrors, JSON.stringify(report.issues.messages.filter((m) => m.severity === 0).slice(0, 5))).toBe(0);
}

describe.skipIf(!assets)('sinew bake onto shared models', () => {
  const cesium = () => join(assets!, 'gltf', 'CesiumMan.glb');
  const figure = () => join(assets!, 'gltf', 'RiggedFigure.glb');

  it('CesiumMan ← RiggedFigure (.glb): plays as eval --anim does, three.js plays it alike, the validator finds no error', async () => {
    const out = join(folder, 'cesium-figure.glb');
    const run = await sinewInProcess('bake', cesium(), '--anim', figure(), '-o', out);
    expect(run.code, run.stderr).toBe(0);
    // CesiumMan's own clip is unnamed ("animation 0"): the baked one is named apart.
    expect(run.stderr).toMatch(/^sinew: baked "animation 0 \(RiggedFigure\.glb\)": \d+ channels, \d+ keys$/m);
    expect(run.stderr).toMatch(/^sinew: wrote .*cesium-figure\.glb: 1 clip, \d+ bytes$/m);
    const direct = await retargeted(cesium(), figure());
    await expectSamePlayback(out, 'animation 0 (RiggedFigure.glb)', direct, 'animation 0');
    await validate(out);

    // The model's own clip and everything else are kept: its clip plays as before.
    const original = await loadModelFromPath(cesium());
    const baked = await loadModelFromPath(out);
    expect(baked.clips.map((c) => c.name)).toEqual(['animation 0', 'animation 0 (RiggedFigure.glb)']);
    expect(compare(evaluateModel(baked, 0, 1.1), evaluateModel(original, 0, 1.1)).worst).toBe(0);
    expect(baked.materials.length).toBe(original.materials.length);
    expect(baked.images.length).toBe(original.images.length);

    // three.js (GLTFLoader, AnimationMixer, its own skinning) plays the baked clip to the same vertices.
    for (const time of [0.2, 0.9]) {
      const three = await evaluateWithThree(out, 1, time);
      const sinew = evaluateModel(baked, 1, time);
      const { diagonal } = compare(sinew, sinew);
      expect(three.size).toBe(sinew.primitives.length);
      for (const entry of sinew.primitives) {
        const reference = three.get(`${entry.node}/${entry.primitive}`)!;
        let error = 0;
        for (let i = 0; i < reference.length; i++) error = Math.max(error, Math.abs(entry.positions[i] - reference[i]));
        expect(error, `three.js at ${time}s`).toBeLessThan(1e-4 * diagonal);
      }
    }
  });

  it('--fps resamples: keys at k/fps, equal to the retargeted clip there', async () => {
    const out = join(folder, 'cesium-fps.glb');
    const run = await sinewInProcess('bake', cesium(), '--anim', figure(), '-o', out, '--fps', '10');
    expect(run.code, run.stderr).toBe(0);
    const baked = await loadModelFromPath(out);
    const clip = baked.clips[1];
    const direct = await retargeted(cesium(), figure());
    const duration = direct.clips[0].duration;
    const expected = Math.floor(duration * 10 + 1e-9) + 1 + (duration * 10 % 1 > 1e-5 ? 1 : 0);
    expect(clip.channels[0].times.length).toBe(expected);
    expect(clip.channels[0].times[1]).toBeCloseTo(0.1, 6);
    await expectSamePlayback(out, clip.name, direct, 'animation 0', [0, 0.3, 0.5, 0.7, 1.0].map((t) => Math.min(t, duration)));
  });

  for (const codec of ['draco', 'meshopt'] as const) {
    it(`a ${codec}-compressed model bakes with its compressed data untouched`, async () => {
      const model = join(folder, `CesiumMan-${codec}.glb`);
      writeFileSync(model, await compressModel(cesium(), codec));
      const out = join(folder, `CesiumMan-${codec}-baked.glb`);
      const run = await sinewInProcess('bake', model, '--anim', figure(), '-o', out);
      expect(run.code, run.stderr).toBe(0);
      const json = (path: string) => {
        const bytes = readFileSync(path);
        return JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
      };
      const before = json(model), after = json(out);
      expect(after.extensionsUsed).toEqual(before.extensionsUsed);
      expect(after.meshes).toEqual(before.meshes);
      expect(after.bufferViews.slice(0, before.bufferViews.length)).toEqual(before.bufferViews);
      await expectSamePlayback(out, 'animation 0 (RiggedFigure.glb)', await retargeted(model, figure()), 'animation 0', [0.1, 0.7]);
      await validate(out);
    });
  }

  it('.gltf output: one JSON file, every buffer a data: URI', async () => {
    const out = join(folder, 'cesium-figure.gltf');
    const run = await sinewInProcess('bake', cesium(), '--anim', figure(), '-o', out);
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json.buffers.length).toBe(1);
    expect(json.buffers[0].uri).toMatch(/^data:application\/octet-stream;base64,/);
    await expectSamePlayback(out, 'animation 0 (RiggedFigure.glb)', await retargeted(cesium(), figure()), 'animation 0');
    await validate(out);
  });
});

/** The generated files, made once for the tests below: the avatars (VRM 1.0, 0.x) and locomotion clips, by path. */
const generated = new Map<string, Promise<string>>();
function generatedFile(name: string, build: () => Promise<Uint8Array>): Promise<string> {
  if (!generated.has(name)) {
    generated.set(name, build().then((bytes) => {
      const path = join(folder, name);
      writeFileSync(path, bytes);
      return path;
    }));
  }
  return generated.get(name)!;
}

describe('sinew bake onto the generated avatar', () => {
  it('VRM 1.0 and VRM 0.x ← generated Walk.vrma (.glb): plays as eval --anim does; the VRM extensions are kept', async () => {
    const walk = await generatedFile('Walk.vrma', () => buildLocomotionVrma('Walk'));
    for (const [name, build] of [['avatar1.vrm', buildAvatarVrm1], ['avatar0.vrm', buildAvatarVrm0]] as const) {
      const model = await generatedFile(name, () => build());
      const out = join(folder, `${name}.baked.glb`);
      const run = await sinewInProcess('bake', model, '--anim', walk, '-o', out);
      expect(run.code, run.stderr).toBe(0);
      const baked = await loadModelFromPath(out);
      expect(baked.avatar?.specVersion).toBe(name === 'avatar1.vrm' ? '1.0' : '0.x');
      expect(baked.secondaryMotion).toBeDefined();
      const direct = await retargeted(model, walk);
      await expectSamePlayback(out, 'Walk', direct, 'Walk', [0.1, 0.45, 0.8].map((f) => f * direct.clips[0].duration));
      await validate(out);
    }
  });

  it('.vrma of a non-VRM humanoid (a Mixamo-named rig whose rest rotations are not the identity) round-trips', async () => {
    const model = await generatedFile('mixamo.glb', () => buildMixamoRig());
    const out = join(folder, 'mixamo-own.vrma');
    // The rig's own walk, as VRM Animation: its humanoid found by joint names.
    const run = await sinewInProcess('bake', model, '--anim', model, '-o', out);
    expect(run.code, run.stderr).toBe(0);
    const direct = await retargeted(model, model);
    const roundTrip = await retargeted(model, out);
    const duration = direct.clips[0].duration;
    for (const time of [0.15, 0.5, 0.85].map((f) => f * duration)) {
      const { worst, diagonal } = compare(evaluateModel(roundTrip, 0, time), evaluateModel(direct, 0, time));
      expect(worst, `at ${time}s`).toBeLessThan(1e-5 * diagonal);
    }
  });

  it('.vrma round-trips: baked from the avatar, read back through --anim OUT.vrma, plays as the direct retarget', async () => {
    const run1 = await generatedFile('Run.vrma', () => buildLocomotionVrma('Run'));
    const model = await generatedFile('avatar1.vrm', () => buildAvatarVrm1());
    const out = join(folder, 'baked-run.vrma');
    const run = await sinewInProcess('bake', model, '--anim', run1, '-o', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^sinew: baked "Run": \d+ channels, \d+ keys$/m);
    await validate(out);
    const library = await loadClipsFromPath(out);
    expect(library.humanoid?.bones.hips).toBeDefined();
    expect(library.clips.map((c) => c.name)).toEqual(['Run']);
    // Markers travel with the clip.
    expect(library.clips[0].markers?.length).toBeGreaterThan(0);
    const direct = await retargeted(model, run1);
    const roundTrip = await retargeted(model, out);
    const duration = direct.clips[0].duration;
    for (const time of [0, 0.11, 0.29, 0.53, 0.97].map((f) => f * duration)) {
      const { worst, diagonal } = compare(evaluateModel(roundTrip, 0, time), evaluateModel(direct, 0, time));
      expect(worst, `at ${time}s`).toBeLessThan(1e-5 * diagonal);
    }
  });
});
