import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mat4, quat } from 'gl-matrix';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf } from '../helpers/gltf-raw.ts';
import { referenceNodeMatrices } from '../helpers/gltf-node-reference.ts';
import { positionsDiagonal } from '../helpers/positions-diagonal.ts';
import { animModelJoints, meshModelJoints } from '../helpers/md5-algorithm1.ts';
import { editGlbJson } from '../../browser/helpers/edit-glb.ts';
import { FAR_OFFSET } from '../../browser/helpers/far-offset.ts';
import { parseMd5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';
import { parseMd5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();

interface Joint { node: number; name: string; matrix: number[] }

/**
 * Largest error of `got` against `expected` relative to the model's extent (the diagonal of the box around the
 * expected joint positions) for translations, and to 1 for the 3×3 part (rotation · scale).
 */
function worstRelative(got: Joint[], expected: Map<number, ArrayLike<number>>): number {
  const positions: number[] = [];
  for (const m of expected.values()) positions.push(m[12], m[13], m[14]);
  const extent = positionsDiagonal(positions);
  let worst = 0;
  for (const joint of got) {
    const e = expected.get(joint.node)!;
    for (let k = 0; k < 16; k++) {
      const scale = k >= 12 && k < 15 ? extent : 1;
      worst = Math.max(worst, Math.abs(joint.matrix[k] - e[k]) / scale);
    }
  }
  return worst;
}

/** Runs `sinew eval … --joints` and returns the parsed document. */
async function evalJoints(path: string, ...args: string[]): Promise<any> {
  const result = await sinew('eval', path, '--joints', ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** The independent expectation: every skin joint's node, in file order of the union, with its reference matrix. */
function expectedJoints(path: string, animation: number, time: number): { json: any; matrices: Map<number, Float64Array> } {
  const raw = readRawGltf(path);
  const all = referenceNodeMatrices(raw, animation, time);
  const matrices = new Map<number, Float64Array>();
  for (const skin of raw.json.skins) for (const node of skin.joints) matrices.set(node, all[node]);
  return { json: raw.json, matrices };
}

/** Checks the list: each skin joint once, names from the file, parents before children. */
function expectJointList(joints: Joint[], json: any, expected: Map<number, unknown>): void {
  expect(joints.map((j) => j.node).sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b));
  const parent = new Map<number, number>();
  json.nodes.forEach((node: any, i: number) => (node.children ?? []).forEach((c: number) => parent.set(c, i)));
  const seen = new Set<number>();
  for (const joint of joints) {
    expect(joint.name).toBe(json.nodes[joint.node].name ?? '');
    expect(joint.matrix).toHaveLength(16);
    for (let p = parent.get(joint.node); p !== undefined; p = parent.get(p)) {
      if (expected.has(p)) expect(seen.has(p), `node ${p}, parent of ${joint.node}, comes first`).toBe(true);
    }
    seen.add(joint.node);
  }
}

describe.skipIf(!assets)('sinew eval --joints', () => {
  const cases: [string, number, number][] = [
    ['Fox.glb', 1, 0.41],
    ['Fox.glb', 2, 0.3],
    ['CesiumMan.glb', 0, 1.37],
    ['RiggedFigure.glb', 0, 0.73],
    ['RiggedSimple.glb', 0, 1.1],
  ];
  for (const [file, clip, time] of cases) {
    it(`${file} clip ${clip} at ${time}s equals an independent evaluation of the joint matrices`, async () => {
      const path = join(assets!, 'gltf', file);
      const doc = await evalJoints(path, '--clip', String(clip), '--time', String(time));
      expect(Object.keys(doc)).toEqual(['clip', 'time', 'duration', 'joints', 'primitives']);
      const { json, matrices } = expectedJoints(path, clip, time);
      expectJointList(doc.joints, json, matrices);
      const worst = worstRelative(doc.joints, matrices);
      expect(worst).toBeLessThan(1e-5);
    });
  }

  it('the rest pose: the nodes as the file states them; the pose moves them', async () => {
    const path = join(assets!, 'gltf', 'CesiumMan.glb');
    const rest = await evalJoints(path, '--clip', 'rest');
    const { matrices } = expectedJoints(path, -1, 0);
    expect(worstRelative(rest.joints, matrices)).toBeLessThan(1e-5);
    const posed = await evalJoints(path, '--clip', '0', '--time', '1');
    expect(worstRelative(posed.joints, matrices)).toBeGreaterThan(1e-2);
  });

  it(`a model placed ${FAR_OFFSET.join(', ')} from the origin keeps its joints to 1e-5 of its extent (the origin added back in f64)`, async () => {
    const source = join(assets!, 'gltf', 'CesiumMan.glb');
    const path = join(mkdtempSync(join(tmpdir(), 'sinew-')), 'CesiumManFar.glb');
    // A new root node above the scene's roots, translated far: glTF's own way of placing a model there.
    writeFileSync(path, editGlbJson(source, (json) => {
      const scene = json.scenes[json.scene ?? 0];
      json.nodes.push({ name: 'far', translation: [...FAR_OFFSET], children: scene.nodes });
      scene.nodes = [json.nodes.length - 1];
    }));
    const doc = await evalJoints(path, '--time', '1.2');
    const { json, matrices } = expectedJoints(path, 0, 1.2);
    expectJointList(doc.joints, json, matrices);
    expect(Math.abs(doc.joints[0].matrix[12])).toBeGreaterThan(FAR_OFFSET[0] / 2);
    expect(worstRelative(doc.joints, matrices)).toBeLessThan(1e-5);
  });

  it('without --joints the document has no joints', async () => {
    const result = await sinew('eval', join(assets!, 'gltf', 'RiggedSimple.glb'));
    expect(Object.keys(JSON.parse(result.stdout))).toEqual(['clip', 'time', 'duration', 'primitives']);
  });

  it('MD5: node is the joint index; matrices equal the joints accumulated down the hierarchy (bind pose and a frame)', async () => {
    const meshPath = join(assets!, 'md5', 'Bob.md5mesh'), animPath = join(assets!, 'md5', 'Bob.md5anim');
    const mesh = parseMd5Mesh('Bob.md5mesh', readFileSync(meshPath, 'utf8'));
    const anim = parseMd5Anim('Bob.md5anim', readFileSync(animPath, 'utf8'));
    const frame = 57;
    const toMatrices = (joints: ReturnType<typeof meshModelJoints>) => new Map(joints.map((j, i) => [i, mat4.fromRotationTranslation(new Float64Array(16) as unknown as mat4, j.q as unknown as quat, j.p) as unknown as Float64Array]));
    for (const [args, expected] of [
      [['--clip', 'rest'], toMatrices(meshModelJoints(mesh))],
      [['--time', String(frame / anim.frameRate)], toMatrices(animModelJoints(anim, frame))],
    ] as const) {
      const doc = await evalJoints(meshPath, ...args);
      expect(doc.joints.map((j: Joint) => j.node)).toEqual(mesh.joints.map((_, i) => i));
      expect(doc.joints.map((j: Joint) => j.name)).toEqual(mesh.joints.map((j) => j.name));
      expect(worstRelative(doc.joints, expected)).toBeLessThan(1e-5);
    }
  });
});
