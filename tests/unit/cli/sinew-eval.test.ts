import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf, rawAccessor } from '../helpers/gltf-raw.ts';
import { evaluateWithThree } from './three-oracle.ts';
import { sinew } from './run-sinew.ts';
import { algorithm1, animModelJoints, meshModelJoints } from '../helpers/md5-algorithm1.ts';
import { parseMd5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';
import { parseMd5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { positionsDiagonal as diagonal } from '../helpers/positions-diagonal.ts';

const assets = sharedAssets();

/** Key range of animation `a` over the channels Sinew plays (translation, rotation, scale, weights of a node), read from the file. */
function rawKeyRange(file: string, a: number): { first: number; last: number } {
  const raw = readRawGltf(join(assets!, 'gltf', file));
  const animation = raw.json.animations[a];
  let first = Infinity, last = -Infinity;
  for (const channel of animation.channels) {
    if (channel.target.node === undefined || !['translation', 'rotation', 'scale', 'weights'].includes(channel.target.path)) continue;
    const times = rawAccessor(raw, animation.samplers[channel.sampler].input);
    first = Math.min(first, times[0]);
    last = Math.max(last, times[times.length - 1]);
  }
  return { first, last };
}

describe.skipIf(!assets)('sinew eval', () => {
  // Models whose skinned mesh nodes three.js and the glTF rule treat alike once the bind matrix is identity.
  const cases: [string, string, number][] = [
    ['RiggedSimple.glb', '0', 2.1],
    ['RiggedFigure.glb', '0', 0.73],
    ['CesiumMan.glb', '0', 1.37],
    ['Fox.glb', 'Walk', 0.41],
    ['Fox.glb', '2', 0.3],
  ];
  for (const [file, clip, time] of cases) {
    it(`${file} clip ${clip} at ${time}s equals an independent three.js evaluation`, async () => {
      const path = join(assets!, 'gltf', file);
      const out = join(mkdtempSync(join(tmpdir(), 'sinew-')), 'eval.json');
      const result = await sinew('eval', path, '--clip', clip, '--time', String(time), '--out', out);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const doc = JSON.parse(readFileSync(out, 'utf8'));
      const { first, last } = rawKeyRange(file, /^\d+$/.test(clip) ? Number(clip) : ['Survey', 'Walk', 'Run'].indexOf(clip));
      expect(doc.time).toBe(Math.min(Math.max(time, first), last)); // RiggedSimple's 2.1 s is past its last key
      expect(doc.duration).toBe(last);
      const raw = JSON.parse(readFileSync(path).subarray(20, 20 + readFileSync(path).readUInt32LE(12)).toString('utf8'));
      const clipIndex = /^\d+$/.test(clip) ? Number(clip) : raw.animations.findIndex((a: any) => a.name === clip);
      expect(doc.clip).toBe(raw.animations[clipIndex].name ?? `animation ${clipIndex}`);
      const expected = await evaluateWithThree(path, clipIndex, time);
      expect(doc.primitives.length).toBe(expected.size);
      for (const entry of doc.primitives) {
        const reference = expected.get(`${entry.node}/${entry.primitive}`)!;
        expect(reference, `node ${entry.node} primitive ${entry.primitive}`).toBeDefined();
        expect(entry.mesh).toBe(raw.nodes[entry.node].mesh);
        expect(entry.skinned).toBe(raw.nodes[entry.node].skin !== undefined);
        expect(entry.vertexCount).toBe(reference.length / 3);
        let maxError = 0;
        for (let i = 0; i < reference.length; i++) maxError = Math.max(maxError, Math.abs(entry.positions[i] - reference[i]));
        expect(maxError).toBeLessThan(1e-5 * diagonal(reference));
      }
    });
  }

  it('reads a .gltf with data-URI buffers and names its unnamed clip by index', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'SimpleSkin.gltf'), '--time', '0');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.clip).toBe('animation 0');
    expect(doc.primitives[0].vertexCount).toBe(10);
  });

  it('--clip rest evaluates the rest pose: clip null, the same positions as a model without clips', async () => {
    const rest = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--clip', 'rest', '--time', '1');
    const minusOne = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--clip=-1'); // a bare -1 would read as an option
    const walk = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--clip', 'Walk', '--time', '1');
    expect([rest.code, minusOne.code, walk.code]).toEqual([0, 0, 0]);
    const [a, b, c] = [rest, minusOne, walk].map((r) => JSON.parse(r.stdout));
    expect(a.clip).toBeNull();
    expect(a.primitives[0].positions).toEqual(b.primitives[0].positions);
    expect(a.primitives[0].positions).not.toEqual(c.primitives[0].positions);
  });

  it('reports clip null and the bind pose for a model without animations', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'quad_skin.glb'), '--time', '3');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({ clip: null, time: 0, duration: null });
    // Every one of its up to 10 influences per vertex is skinned: no influence warning.
    expect(result.stderr).not.toMatch(/influence/);
  });

  it('reports the clip\'s duration and the time actually applied, clamped to the clip\'s keys', async () => {
    const fox = join(assets!, 'gltf', 'Fox.glb');
    const walk = rawKeyRange('Fox.glb', 1);
    const [late, early, inside, atEnd] = await Promise.all([
      sinew('eval', fox, '--clip', 'Walk', '--time', '99'),
      sinew('eval', fox, '--clip', 'Walk', '--time', '-1'), // a negative number is an option value, not an option
      sinew('eval', fox, '--clip', 'Walk', '--time', '0.5'),
      sinew('eval', fox, '--clip', 'Walk', `--time=${walk.last}`),
    ]);
    expect([late.code, early.code, inside.code, atEnd.code]).toEqual([0, 0, 0, 0]);
    const [lateDoc, earlyDoc, insideDoc, atEndDoc] = [late, early, inside, atEnd].map((r) => JSON.parse(r.stdout));
    for (const doc of [lateDoc, earlyDoc, insideDoc]) expect(doc.duration).toBe(walk.last);
    expect(lateDoc.time).toBe(walk.last);
    expect(earlyDoc.time).toBe(walk.first);
    expect(insideDoc.time).toBe(0.5);
    expect(Object.keys(insideDoc)).toEqual(['clip', 'time', 'duration', 'primitives']);
    // Clamping changes the reported time, not the pose: past the end is the last key's pose.
    expect(lateDoc.primitives[0].positions).toEqual(atEndDoc.primitives[0].positions);
    expect(lateDoc.primitives[0].positions).not.toEqual(insideDoc.primitives[0].positions);
  });

  it('a clip whose keys start after 0 reports its first key for --time 0', async () => {
    const { first, last } = rawKeyRange('CesiumMan.glb', 0);
    expect(first).toBeGreaterThan(0);
    const doc = JSON.parse((await sinew('eval', join(assets!, 'gltf', 'CesiumMan.glb'))).stdout);
    expect(doc).toMatchObject({ clip: 'animation 0', time: first, duration: last });
  });

  it('accepts --clip -1 with a space and gives the rest pose: time 0, duration null', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--clip', '-1', '--time', '-2');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ clip: null, time: 0, duration: null });
  });

  it('--skinning and --weights: the CPU reference with that method (defaults lbs, normalize); dqs moves CesiumMan differently', async () => {
    const file = join(assets!, 'gltf', 'CesiumMan.glb');
    const model = await loadModelFromPath(file);
    const run = async (...args: string[]) => {
      const result = await sinew('eval', file, '--time', '0.5', ...args);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout).primitives[0].positions as number[];
    };
    const plain = await run();
    expect(await run('--skinning', 'lbs', '--weights', 'normalize')).toEqual(plain);
    for (const [skinning, weights] of [['dqs', 'normalize'], ['lbs', 'as-stored'], ['dqs', 'rest-remainder']] as const) {
      const expected = Array.from(evaluateModel(model, 0, 0.5, { skinning, weights }).primitives[0].positions);
      const got = await run('--skinning', skinning, '--weights', weights);
      expect(got.length).toBe(expected.length);
      got.forEach((c, i) => expect(Math.abs(c - expected[i])).toBeLessThan(1e-6));
    }
    const dqs = await run('--skinning', 'dqs');
    const moved = Math.max(...dqs.map((c, i) => Math.abs(c - plain[i])));
    console.log(`CesiumMan @0.5 s: largest |DQS − LBS| coordinate ${moved}`);
    expect(moved).toBeGreaterThan(1e-5);
  });

  it('fails with a message naming the model and its clips for an unknown clip', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--clip', 'Dance');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('sinew: Fox.glb: no clip "Dance" (clips: "Survey", "Walk", "Run")\n');
    expect(result.stdout).toBe('');
  });

  it('suggests the clip a mistyped --clip was meant to be, whatever its letter case', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--clip', 'wlak');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('sinew: Fox.glb: no clip "wlak" (did you mean "Walk"? clips: "Survey", "Walk", "Run")\n');
    expect(result.stdout).toBe('');
  });
});

describe.skipIf(!assets)('sinew eval on MD5', () => {
  const mesh = () => parseMd5Mesh('Bob.md5mesh', readFileSync(join(assets!, 'md5', 'Bob.md5mesh'), 'utf8'));

  function expectMatches(doc: any, expected: Float64Array[]): void {
    expect(doc.primitives.length).toBe(expected.length);
    doc.primitives.forEach((entry: any, i: number) => {
      expect(entry).toMatchObject({ node: null, mesh: i, primitive: 0, skinned: true, vertexCount: expected[i].length / 3 });
      let maxError = 0;
      for (let k = 0; k < expected[i].length; k++) maxError = Math.max(maxError, Math.abs(entry.positions[k] - expected[i][k]));
      expect(maxError).toBeLessThan(1e-5 * diagonal(expected[i]));
    });
  }

  it('without --anim applies Bob.md5anim next to it; --clip rest gives the bind pose (docs/explanation/skinning-formulas.md S3 algorithm 1 with the bind joints), clip null', async () => {
    const byDefault = await sinew('eval', join(assets!, 'md5', 'Bob.md5mesh'));
    expect(byDefault.code).toBe(0);
    expect(JSON.parse(byDefault.stdout).clip).toBe('Bob');
    const result = await sinew('eval', join(assets!, 'md5', 'Bob.md5mesh'), '--clip', 'rest');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.clip).toBeNull();
    expectMatches(doc, algorithm1(mesh(), meshModelJoints(mesh())));
  });

  it('with --anim at a frame time gives that frame (algorithm 1 with the animated joints), in the file\'s Z-up axes', async () => {
    const frame = 57;
    const anim = parseMd5Anim('Bob.md5anim', readFileSync(join(assets!, 'md5', 'Bob.md5anim'), 'utf8'));
    const result = await sinew('eval', join(assets!, 'md5', 'Bob.md5mesh'), '--anim', join(assets!, 'md5', 'Bob.md5anim'), '--time', String(frame / anim.frameRate));
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({ clip: 'Bob', time: frame / anim.frameRate, duration: (anim.frameCount - 1) / anim.frameRate });
    expectMatches(doc, algorithm1(mesh(), animModelJoints(anim, frame)));
  });

  it('names the file and line of a malformed mesh, and refuses an --anim that is no clips file', async () => {
    const bad = await sinew('eval', join(assets!, 'md5', 'invalid', 'InvalidBoneIndex.md5mesh'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^sinew: InvalidBoneIndex\.md5mesh:\d+: /);
    // Issue 21 ("Clips from other files") changed this contract: an .md5anim on a glTF is retargeted now, so
    // only a file that holds no clips Sinew reads is refused.
    const gltf = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--anim', 'x.txt');
    expect(gltf.code).toBe(1);
    expect(gltf.stderr).toBe('sinew: x.txt: --anim takes an .md5anim, .glb, .gltf or .vrma file\n');
    const missing = await sinew('eval', join(assets!, 'gltf', 'Fox.glb'), '--anim', 'x.md5anim');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('sinew: x.md5anim: no such file\n');
  });
});

describe('sinew eval errors', () => {
  it('exits 1 naming a missing file', async () => {
    const result = await sinew('eval', 'no/such/model.glb');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('sinew: no/such/model.glb: no such file\n');
  });

  it('exits 1 naming the missing folder of --out, before reading the model', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sinew-')), 'missing', 'dir', 'x.json');
    const result = await sinew('eval', 'no/such/model.glb', '--out', out);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`sinew: ${join(out, '..')}: no such folder\n`);
  });

  it('exits 2 with a short message and a --help hint for a bad --time', async () => {
    const result = await sinew('eval', 'x.glb', '--time', 'soon');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("sinew: option '--time <seconds>' argument 'soon' is invalid. It must be a number of seconds.\nrun 'sinew eval --help' for usage\n");
  });
});
