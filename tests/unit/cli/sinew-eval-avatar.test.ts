import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { loadClipsFromPath } from '../../../src/node/load-clips-from-path.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { readRawGltf, rawAccessor, type RawGltf } from '../helpers/gltf-raw.ts';
import { sinew } from './run-sinew.ts';

// `sinew eval AVATAR [--anim CLIP.vrma --time T] [--expression NAME=W …] [--look-at X,Y,Z]` on the generated
// VRM 1.0 avatar: expressions reach the CPU reference as morph weights, look-at turns the eyes, the .vrma's pose is
// the retargeted one. Expected values come from the file's own bytes (readRawGltf), not from the loader.

interface Primitive { node: number; mesh: number; primitive: number; positions: number[] }
interface Doc { clip: string | null; time: number; primitives: Primitive[] }

let folder = '', avatar = '', clip = '', raw: RawGltf;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sinew-eval-avatar-'));
  avatar = join(folder, 'avatar.vrm');
  clip = join(folder, 'walk.vrma');
  writeFileSync(avatar, await buildAvatarVrm1());
  writeFileSync(clip, await buildVrmaClip({ duration: 3 }));
  raw = readRawGltf(avatar);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function evaluate(...args: string[]): Promise<Doc> {
  const result = await sinew('eval', avatar, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Doc;
}

/** Per primitive of `node`'s mesh, the POSITION deltas of each morph bind (`weight` × the bind's own weight), from the file. */
function bindDeltas(expression: string, weight: number): Map<string, number[]> {
  const vrm = raw.json.extensions.VRMC_vrm;
  const binds: { node: number; index: number; weight: number }[] = vrm.expressions.preset[expression].morphTargetBinds;
  const out = new Map<string, number[]>();
  for (const bind of binds) {
    const mesh = raw.json.nodes[bind.node].mesh;
    raw.json.meshes[mesh].primitives.forEach((primitive: { targets?: { POSITION: number }[] }, p: number) => {
      const target = primitive.targets?.[bind.index];
      if (!target) return;
      const delta = rawAccessor(raw, target.POSITION).map((d) => d * bind.weight * weight);
      const key = `${bind.node}/${p}`;
      const sum = out.get(key);
      out.set(key, sum ? sum.map((s, i) => s + delta[i]) : delta);
    });
  }
  return out;
}

/** Indices of the vertices of (`mesh`, `primitive`) with weight on `joints` (file node indices): all of it, or none. */
function verticesOn(mesh: number, primitive: number, skinNode: number, eyeNodes: Set<number>): { all: number[]; none: number[] } {
  const source = raw.json.meshes[mesh].primitives[primitive];
  const skinJoints: number[] = raw.json.skins[raw.json.nodes[skinNode].skin].joints;
  const joints = rawAccessor(raw, source.attributes.JOINTS_0), weights = rawAccessor(raw, source.attributes.WEIGHTS_0);
  const all: number[] = [], none: number[] = [];
  for (let v = 0; v < joints.length / 4; v++) {
    let on = 0, total = 0;
    for (let k = 0; k < 4; k++) {
      const w = weights[4 * v + k];
      total += w;
      if (eyeNodes.has(skinJoints[joints[4 * v + k]])) on += w;
    }
    if (on === 0) none.push(v);
    else if (Math.abs(on - total) < 1e-6) all.push(v);
  }
  return { all, none };
}

describe('sinew eval AVATAR --expression', () => {
  it('blink=1 moves the vertices by exactly the blink morph deltas (rest pose: skinning is the identity)', async () => {
    const [plain, blinking] = await Promise.all([evaluate('--clip', 'rest'), evaluate('--clip', 'rest', '--expression', 'blink=1')]);
    const deltas = bindDeltas('blink', 1);
    expect(deltas.size).toBeGreaterThan(0);
    let moved = 0;
    plain.primitives.forEach((primitive, p) => {
      const delta = deltas.get(`${primitive.node}/${primitive.primitive}`);
      const after = blinking.primitives[p].positions;
      primitive.positions.forEach((x, i) => {
        const expected = x + (delta ? delta[i] : 0);
        expect(Math.abs(after[i] - expected)).toBeLessThan(1e-5);
        if (delta && Math.abs(delta[i]) > 1e-4) moved++;
      });
    });
    expect(moved).toBeGreaterThan(10); // the blink shows
  });

  it('a half weight moves them by half the deltas, and two expressions add', async () => {
    const [plain, mixed] = await Promise.all([evaluate('--clip', 'rest'), evaluate('--clip', 'rest', '--expression', 'aa=0.5', '--expression', 'relaxed=0.25')]);
    const aa = bindDeltas('aa', 0.5), relaxed = bindDeltas('relaxed', 0.25);
    plain.primitives.forEach((primitive, p) => {
      const key = `${primitive.node}/${primitive.primitive}`;
      const a = aa.get(key), r = relaxed.get(key);
      mixed.primitives[p].positions.forEach((x, i) => {
        expect(Math.abs(x - (primitive.positions[i] + (a ? a[i] : 0) + (r ? r[i] : 0)))).toBeLessThan(1e-5);
      });
    });
  });

  it('bad values are one-line errors: an unknown expression (exit 1), a weight outside [0, 1] or not NAME=W (exit 2)', async () => {
    const unknown = await sinew('eval', avatar, '--expression', 'blonk=1');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^sinew: avatar\.vrm: --expression: no expression "blonk" \(18 expressions: happy, .*\)\n$/);
    for (const value of ['blink=1.5', 'blink=-0.1', 'blink=', 'blink', '=1', 'blink=x']) {
      const bad = await sinew('eval', avatar, '--expression', value);
      expect(bad.code, value).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr.split('\n')[0]).toMatch(/^sinew: option '--expression <name=weight>' argument '.*' is invalid\. /);
    }
  });
});

describe('sinew eval AVATAR --look-at', () => {
  it('turns the eyes: vertices skinned to the eye joints move, the others stay', async () => {
    const [plain, looking] = await Promise.all([evaluate('--clip', 'rest'), evaluate('--clip', 'rest', '--look-at', '2,1.6,1')]);
    const humanBones = raw.json.extensions.VRMC_vrm.humanoid.humanBones;
    const eyes = new Set<number>([humanBones.leftEye.node, humanBones.rightEye.node]);
    let eyeMoved = 0, eyeVertices = 0;
    plain.primitives.forEach((primitive, p) => {
      const skinNode = primitive.node, after = looking.primitives[p].positions;
      const { all, none } = verticesOn(primitive.mesh, primitive.primitive, skinNode, eyes);
      const distance = (v: number) => Math.hypot(...[0, 1, 2].map((c) => after[3 * v + c] - primitive.positions[3 * v + c]));
      for (const v of none) expect(distance(v)).toBeLessThan(1e-6);
      eyeVertices += all.length;
      for (const v of all) if (distance(v) > 1e-4) eyeMoved++;
    });
    expect(eyeVertices).toBeGreaterThan(0);
    expect(eyeMoved).toBeGreaterThan(eyeVertices / 2); // all but those on the turning axis
  });

  it('a malformed point is a usage error (exit 2)', async () => {
    for (const value of ['1,2', '1,2,3,4', 'a,b,c', '1,,3']) {
      const bad = await sinew('eval', avatar, '--look-at', value);
      expect(bad.code, value).toBe(2);
      expect(bad.stderr.split('\n')[0]).toMatch(/^sinew: option '--look-at <x,y,z>' argument '.*' is invalid\. It must be three numbers/);
    }
  });
});

describe('sinew eval AVATAR --anim CLIP.vrma --time T', () => {
  it('gives the pose of the clip retargeted by humanoid bone (as the library evaluates it), not the rest pose', async () => {
    const time = 1.1;
    const doc = await evaluate('--anim', clip, '--clip', '0', '--time', String(time));
    const rest = await evaluate('--clip', 'rest');
    expect(doc.time).toBeCloseTo(time, 6);
    const asset = await loadModelFromPath(avatar);
    const library = await loadClipsFromPath(clip);
    const clips = retargetClipLibrary(library, asset).clips;
    const { AnimatedModel } = await import('../../../src/scene/animated-model.ts');
    const { skinVertices } = await import('../../../src/skinning/skin-vertices.ts');
    const { MorphedPrimitive } = await import('../../../src/skinning/morph-targets.ts');
    const animated = new AnimatedModel({ ...asset, clips });
    // Without --springs nothing is simulated: the spring joints as the clip poses them (docs/guide/cli.md).
    animated.secondaryMotion!.springs!.enabled = false;
    animated.evaluate(animated.clipSample(0).at(time));
    let compared = 0, movedFromRest = 0;
    doc.primitives.forEach((primitive, p) => {
      const instance = asset.meshInstances.find((i) => i.sourceNode === primitive.node)!;
      const source = asset.meshes[instance.mesh].primitives[primitive.primitive];
      const morphed = source.morphTargets ? new MorphedPrimitive(source).apply(animated.morphWeights, instance.morphWeightOffset ?? 0) : source;
      const out = new Float32Array(3 * source.vertexCount);
      skinVertices(out, null, morphed, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin], { skinning: 'lbs', weights: 'normalize' });
      out.forEach((x, i) => {
        expect(Math.abs(primitive.positions[i] - (x + animated.origin[i % 3]))).toBeLessThan(1e-5);
        compared++;
        if (Math.abs(primitive.positions[i] - rest.primitives[p].positions[i]) > 1e-3) movedFromRest++;
      });
    });
    expect(compared).toBeGreaterThan(1000);
    expect(movedFromRest).toBeGreaterThan(compared / 4);
  });

  it('--expression replaces the clip\'s track of that expression: blink=0 at a time the clip blinks', async () => {
    // The clip blinks (weight 1) while t mod 1.5 is in (1.2, 1.35) (buildVrmaClip).
    const args = ['--anim', clip, '--clip', '0', '--time', '1.25'];
    const [blinking, open] = await Promise.all([evaluate(...args), evaluate(...args, '--expression', 'blink=0')]);
    const deltas = bindDeltas('blink', 1);
    let differs = 0;
    blinking.primitives.forEach((primitive, p) => {
      const delta = deltas.get(`${primitive.node}/${primitive.primitive}`);
      primitive.positions.forEach((x, i) => {
        const d = Math.abs(x - open.primitives[p].positions[i]);
        if (!delta) expect(d).toBeLessThan(1e-6);
        else if (d > 1e-4) differs++;
      });
    });
    expect(differs).toBeGreaterThan(10);
  });
});
