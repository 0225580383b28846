import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { evaluateWithThree } from '../cli/three-oracle.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { positionsDiagonal as diagonal } from '../helpers/positions-diagonal.ts';

const assets = sharedAssets();

/** Largest |Sinew − three.js| over every mesh instance's positions, relative to the bounding-box diagonal. */
async function worstAgainstThree(path: string, asset: ModelAsset, clip: number, time: number): Promise<number> {
  const three = await evaluateWithThree(path, clip, time);
  const ours = evaluateModel(asset, clip, time);
  let worst = 0;
  for (const primitive of ours.primitives) {
    const expected = three.get(`${primitive.node}/${primitive.primitive}`)!;
    expect(expected, `three.js has node ${primitive.node}`).toBeDefined();
    const diag = diagonal(expected);
    for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(primitive.positions[i] - expected[i]) / diag);
  }
  return worst;
}

/** A `.gltf` whose buffers are base64 data URIs as GLB bytes (buffers joined, 4-byte aligned, into the BIN chunk). */
function embeddedGltfToGlb(gltf: Uint8Array): Uint8Array {
  const json = JSON.parse(new TextDecoder().decode(gltf));
  const parts: Buffer[] = [];
  const starts: number[] = [];
  let length = 0;
  for (const buffer of json.buffers) {
    const bytes = Buffer.from(buffer.uri.slice(buffer.uri.indexOf(',') + 1), 'base64');
    starts.push(length);
    const padded = Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
    parts.push(padded);
    length += padded.length;
  }
  for (const view of json.bufferViews) {
    view.byteOffset = (view.byteOffset ?? 0) + starts[view.buffer];
    view.buffer = 0;
  }
  const bin = Buffer.concat(parts);
  json.buffers = [{ byteLength: bin.length }];
  let text = Buffer.from(JSON.stringify(json), 'utf8');
  text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
  const total = 12 + 8 + text.length + 8 + bin.length;
  const out = Buffer.alloc(total);
  out.writeUInt32LE(0x46546c67, 0); out.writeUInt32LE(2, 4); out.writeUInt32LE(total, 8);
  out.writeUInt32LE(text.length, 12); out.writeUInt32LE(0x4e4f534a, 16); text.copy(out, 20);
  out.writeUInt32LE(bin.length, 20 + text.length); out.writeUInt32LE(0x004e4942, 24 + text.length); bin.copy(out, 28 + text.length);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

function writeTemp(name: string, bytes: Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sinew-morph-')), name);
  writeFileSync(path, bytes);
  return path;
}

describe.skipIf(!assets)('SimpleMorph (glTF 2.0 §3.7.2.2, shared asset)', () => {
  const path = join(assets ?? '', 'gltf', 'SimpleMorph.gltf');

  it('loads its two POSITION targets, the mesh weights and the weights channel, without a morph warning', async () => {
    const asset = await parseGltf('SimpleMorph.gltf', readFileSync(path));
    expect(asset.meshes[0].morphTargetCount).toBe(2);
    expect(Array.from(asset.meshes[0].defaultMorphWeights!)).toEqual([0.5, 0.5]);
    expect(asset.meshes[0].primitives[0].morphTargets!.positions!.length).toBe(2 * 3 * 3);
    expect(asset.meshInstances[0].morphWeightOffset).toBe(0);
    expect(Array.from(asset.restPose.morphWeights!)).toEqual([0.5, 0.5]);
    expect(asset.clips[0].channels).toHaveLength(1);
    expect(asset.clips[0].channels[0]).toMatchObject({ path: 'weights', morphWeightOffset: 0, morphTargetCount: 2 });
    expect(asset.warnings.join('\n')).not.toMatch(/morph/);
  });

  it('sinew eval positions equal three.js (morph, getVertexPosition) at several times within 1e-4 × diagonal', async () => {
    const asset = await parseGltf('SimpleMorph.gltf', readFileSync(path));
    // three.js's loader cannot fetch data URIs in node: hand it the same file as a GLB.
    const glbPath = writeTemp('SimpleMorph.glb', embeddedGltfToGlb(readFileSync(path)));
    let worst = 0;
    for (const t of [0, 0.5, 1, 1.7, 2.5, 3.25, 4]) worst = Math.max(worst, await worstAgainstThree(glbPath, asset, 0, t));
    worst = Math.max(worst, await worstAgainstThree(glbPath, asset, -1, 0));
    console.log(`SimpleMorph vs three.js: max |Δp| / diagonal = ${worst}`);
    expect(worst).toBeLessThanOrEqual(1e-4);
  });
});

describe('a skinned + morphed tube (POSITION, NORMAL, TANGENT targets, node weights, weights channels)', () => {
  for (const [label, options] of [
    ['skinned, LINEAR weights', { interpolation: 'LINEAR' }],
    ['skinned, STEP weights', { interpolation: 'STEP' }],
    ['skinned, CUBICSPLINE weights', { interpolation: 'CUBICSPLINE' }],
    ['rigid', { skinned: false }],
    ['skinned, 40 targets', { targets: 40 }],
  ] as const) {
    it(`${label}: equals three.js (morph then skin) at several times within 1e-4 × diagonal`, async () => {
      const bytes = skinnedMorphTube(options).glb();
      const path = writeTemp('tube.glb', bytes);
      const asset = await parseGltf('tube.glb', bytes);
      let worst = 0;
      for (const clip of [-1, 0, 1]) {
        // Within each clip's keys: three.js's mixer wraps at the end (LoopRepeat), Sinew's eval holds the last key.
        for (const t of clip < 0 ? [0] : clip === 0 ? [0, 0.4, 0.75, 1, 1.3, 1.9, 1.99] : [0, 0.4, 0.6, 0.75, 1, 1.3, 1.49]) worst = Math.max(worst, await worstAgainstThree(path, asset, clip, t));
      }
      console.log(`tube (${label}) vs three.js: max |Δp| / diagonal = ${worst}`);
      expect(worst).toBeLessThanOrEqual(1e-4);
    });
  }

  it('the rest pose takes the node weights over the mesh weights, and morphs move the vertices', async () => {
    const asset = await parseGltf('tube.glb', skinnedMorphTube().glb());
    expect(Array.from(asset.meshes[0].defaultMorphWeights!)).toEqual([Math.fround(0.2), 0, 0]);
    expect(Array.from(asset.restPose.morphWeights!)).toEqual([Math.fround(0.1), Math.fround(0.3), 0]);
    const targets = asset.meshes[0].primitives[0].morphTargets!;
    expect(targets.count).toBe(3);
    expect(targets.normals).not.toBeNull();
    expect(targets.tangents).not.toBeNull();
    const rest = evaluateModel(asset, -1, 0).primitives[0].positions;
    const unmorphed = asset.meshes[0].primitives[0].positions;
    expect(Math.max(...rest.map((x, i) => Math.abs(x - unmorphed[i])))).toBeGreaterThan(0.01);
  });

  it('a sparse target accessor (no bufferView: zeros, then the sparse entries) is read as its dense equivalent', async () => {
    const b = skinnedMorphTube();
    const target = b.json.meshes[0].primitives[0].targets[1];
    const accessor = b.json.accessors[target.POSITION];
    const view = b.json.bufferViews[accessor.bufferView];
    const values = new Float32Array(b.bin().slice(view.byteOffset, view.byteOffset + view.byteLength).buffer);
    // The vertices the target moves by more than 0.01; the others become zeros of the sparse accessor.
    const moved: number[] = [];
    for (let v = 0; v < accessor.count; v++) if (Math.hypot(values[3 * v], values[3 * v + 1], values[3 * v + 2]) > 0.01) moved.push(v);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(accessor.count);
    const expected = new Float32Array(values.length);
    for (const v of moved) expected.set(values.subarray(3 * v, 3 * v + 3), 3 * v);
    const indexView = b.bufferView(new Uint8Array(new Uint16Array(moved).buffer));
    const valueView = b.bufferView(new Uint8Array(Float32Array.from(moved.flatMap((v) => [values[3 * v], values[3 * v + 1], values[3 * v + 2]])).buffer));
    delete accessor.bufferView;
    accessor.sparse = { count: moved.length, indices: { bufferView: indexView, componentType: 5123 }, values: { bufferView: valueView } };
    const asset = await parseGltf('sparse.glb', b.glb());
    const n = accessor.count;
    expect(Array.from(asset.meshes[0].primitives[0].morphTargets!.positions!.subarray(3 * n, 6 * n))).toEqual(Array.from(expected));
  });

  it('a CUBICSPLINE weights channel (k·n values ×3) equals the glTF Appendix C Hermite computed here', async () => {
    const n = 5;
    const asset = await parseGltf('tube.glb', skinnedMorphTube({ targets: n }).glb());
    const model = new AnimatedModel(asset);
    const values = asset.clips[1].channels[0].values; // keys 0.5 s and 1.5 s: [a0, v0, b0, a1, v1, b1], n each
    expect(values.length).toBe(2 * 3 * n);
    for (const t of [0, 0.5, 0.6, 0.99, 1.25, 1.5, 2]) {
      model.evaluate(model.clipSample(1).at(t));
      for (let i = 0; i < n; i++) {
        const v0 = values[n + i], b0 = values[2 * n + i], a1 = values[3 * n + i], v1 = values[4 * n + i];
        let expected: number;
        if (t <= 0.5) expected = v0;
        else if (t >= 1.5) expected = v1;
        else {
          const dt = 1, s = (t - 0.5) / dt;
          expected = (2 * s ** 3 - 3 * s ** 2 + 1) * v0 + (s ** 3 - 2 * s ** 2 + s) * dt * b0 + (-2 * s ** 3 + 3 * s ** 2) * v1 + (s ** 3 - s ** 2) * dt * a1;
        }
        expect(model.morphWeights[i]).toBeCloseTo(expected, 6);
      }
    }
  });

  it('the Animator crossfades morph weights linearly and its rest pose holds the node weights', async () => {
    const asset = await parseGltf('tube.glb', skinnedMorphTube({ interpolation: 'STEP' }).glb());
    const model = new AnimatedModel(asset);
    model.evaluate(model.animator);
    expect(Array.from(model.morphWeights)).toEqual(Array.from(asset.restPose.morphWeights!));
    model.animator.play(model.clips[0], { fade: 1, startTime: 1.5 }); // STEP: key 1's weights from 1 s to 2 s
    model.animator.update(0.25);
    model.evaluate(model.animator);
    const key1 = asset.clips[0].channels[0].values.subarray(3, 6);
    for (let i = 0; i < 3; i++) expect(model.morphWeights[i]).toBeCloseTo(0.75 * asset.restPose.morphWeights![i] + 0.25 * key1[i], 6);
  });
});

describe('morph target validation (LoadError with a JSON pointer)', () => {
  it('primitives of one mesh with different target counts', async () => {
    const b = skinnedMorphTube();
    const primitive = b.json.meshes[0].primitives[0];
    b.json.meshes[0].primitives.push({ ...primitive, targets: primitive.targets.slice(0, 2) });
    const error = await loadErrorOf(parseGltf('tube.glb', b.glb()));
    expect(error.where).toBe('/meshes/0/primitives/1/targets');
    expect(error.code).toBe('MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT');
  });

  it('mesh weights of another length than the targets', async () => {
    const b = skinnedMorphTube();
    b.json.meshes[0].weights = [0, 0];
    const error = await loadErrorOf(parseGltf('tube.glb', b.glb()));
    expect(error.where).toBe('/meshes/0/weights');
    expect(error.code).toBe('MESH_INVALID_WEIGHTS_COUNT');
  });

  it('node weights of another length than its mesh targets, or on a node without a mesh', async () => {
    const b = skinnedMorphTube();
    b.json.nodes[0].weights = [1, 2, 3, 4];
    let error = await loadErrorOf(parseGltf('tube.glb', b.glb()));
    expect(error.where).toBe('/nodes/0/weights');
    expect(error.code).toBe('NODE_WEIGHTS_INVALID');
    const c = skinnedMorphTube();
    c.json.nodes[1].weights = [1];
    error = await loadErrorOf(parseGltf('tube.glb', c.glb()));
    expect(error.where).toBe('/nodes/1/weights');
  });

  it('a weights channel whose output count is not keys × targets', async () => {
    const b = skinnedMorphTube();
    b.json.accessors[b.json.animations[0].samplers[0].output].count -= 1;
    const error = await loadErrorOf(parseGltf('tube.glb', b.glb()));
    expect(error.where).toBe('/animations/0/samplers/0/output');
    expect(error.code).toBe('ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT');
    expect(error.problem).toMatch(/3 keys for 3 morph targets needs 9/);
  });

  it('a weights channel on a node without morph targets', async () => {
    const b = skinnedMorphTube();
    b.json.animations[0].channels[0].target.node = 1;
    const error = await loadErrorOf(parseGltf('tube.glb', b.glb()));
    expect(error.where).toBe('/animations/0/channels/0/target/node');
    expect(error.code).toBe('ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS');
  });

  it('a target attribute with another count than POSITION', async () => {
    const b = skinnedMorphTube();
    const target = b.json.meshes[0].primitives[0].targets[1];
    target.NORMAL = b.json.meshes[0].primitives[0].indices; // a SCALAR of another count
    const error = await loadErrorOf(parseGltf('tube.glb', b.glb()));
    expect(error.where).toBe('/meshes/0/primitives/0/targets/1/NORMAL');
    expect(error.code).toBe('MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT');
  });
});
