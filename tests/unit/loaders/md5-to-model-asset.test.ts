import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';
import { parseMd5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';
import { md5ToModelAsset, MD5_UNTEXTURED_COLOR } from '../../../src/loaders/md5/md5-to-model-asset.ts';
import { computeMd5FramePose } from '../../../src/loaders/md5/md5-frame-pose.ts';
import { md5ShaderImageCandidates, resolveMd5ShaderImage } from '../../../src/loaders/md5/md5-shader-images.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { copyLocalPose, createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import { validateSkeleton } from '../../../src/skeleton/skeleton.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import { computeSkinMatrices } from '../../../src/skinning/skin-matrices.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { MD5_DIR, md5AssetsAvailable, readMd5Text } from '../helpers/md5-assets.ts';

/** Column-major 4×4 product a·b at offsets. */
function mul4(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r] += a[ao + 4 * k + r] * b[bo + 4 * c + k];
  return out;
}

/** Skinned positions of every mesh of `asset` at `time` (null: rest pose), via the product path. */
function skinAll(asset: ModelAsset, time: number | null): Float32Array[] {
  const pose = copyLocalPose(createLocalPose(asset.skeleton.jointCount), asset.restPose);
  if (time !== null) sampleClipOnce(pose, asset.clips[0], time);
  const model = localToModel(new Float32Array(16 * asset.skeleton.jointCount), asset.skeleton, pose);
  const skinning = new SkinningContext(asset.skins[0]);
  const palette = computeSkinMatrices(new Float32Array(16 * asset.skins[0].joints.length), model, asset.skins[0], skinning);
  return asset.meshes.map((m) => {
    const out = new Float32Array(3 * m.primitives[0].vertexCount);
    skinVertices(out, null, m.primitives[0], palette, skinning);
    return out;
  });
}

describe.skipIf(!md5AssetsAvailable)('md5ToModelAsset on Bob', () => {
  const load = (): ModelAsset => {
    const images: Record<string, Uint8Array> = {};
    for (const name of ['guard1_body.png', 'guard1_face.png', 'guard1_helmet.png', 'iron_grill.png', 'round_grill.png']) {
      images[name] = new Uint8Array(readFileSync(join(MD5_DIR, name)));
    }
    return md5ToModelAsset(
      parseMd5Mesh('Bob.md5mesh', readMd5Text('Bob.md5mesh')),
      parseMd5Anim('Bob.md5anim', readMd5Text('Bob.md5anim')),
      'Bob.md5mesh', images,
    );
  };

  it('has the skeleton, one skin, one mesh and instance per MD5 mesh, z up, no warnings', () => {
    const asset = load();
    expect(asset.name).toBe('Bob.md5mesh');
    expect(asset.upAxis).toBe('z');
    expect(asset.warnings).toEqual([]);
    expect(asset.skeleton.jointCount).toBe(33);
    validateSkeleton(asset.skeleton, 'Bob');
    expect(Array.from(asset.skeleton.sourceIndices)).toEqual(Array.from({ length: 33 }, (_, i) => i));
    expect(asset.skeleton.names[7]).toBe('head');
    expect(asset.skeleton.parents[7]).toBe(6);
    expect(asset.skins.length).toBe(1);
    expect(Array.from(asset.skins[0].joints)).toEqual(Array.from({ length: 33 }, (_, i) => i));
    expect(asset.meshes.length).toBe(6);
    expect(asset.meshes.reduce((s, m) => s + m.primitives[0].vertexCount, 0)).toBe(875);
    expect(asset.meshInstances).toEqual(asset.meshes.map((_, i) => ({ node: 0, sourceNode: null, mesh: i, skin: 0 })));
    for (const m of asset.meshes) {
      const p = m.primitives[0];
      expect(p.joints).toBeInstanceOf(Uint8Array);
      expect(p.uvs!.length).toBe(2 * p.vertexCount);
      expect(p.indices).toBeInstanceOf(Uint16Array);
      for (let v = 0; v < p.vertexCount; v++) {
        const sum = p.weights![4 * v] + p.weights![4 * v + 1] + p.weights![4 * v + 2] + p.weights![4 * v + 3];
        expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
      }
    }
  });

  it('stores inverse bind matrices that undo the rest pose: world(rest) · inverseBind = identity', () => {
    const asset = load();
    const model = localToModel(new Float32Array(16 * 33), asset.skeleton, asset.restPose);
    const mesh = parseMd5Mesh('Bob.md5mesh', readMd5Text('Bob.md5mesh'));
    for (let j = 0; j < 33; j++) {
      // Translation of the rest-pose world matrix = the file's model-space bind position.
      for (let c = 0; c < 3; c++) expect(Math.abs(model[16 * j + 12 + c] - mesh.joints[j].position[c])).toBeLessThan(1e-4);
      const product = mul4(model, 16 * j, asset.skins[0].inverseBindMatrices, 16 * j);
      for (let k = 0; k < 16; k++) expect(Math.abs(product[k] - (k % 5 === 0 ? 1 : 0))).toBeLessThan(1e-4);
    }
  });

  it('resolves each shader to its image, sharing one image between meshes', () => {
    const asset = load();
    expect(asset.images.map((i) => [i.name, i.mimeType])).toEqual([
      ['guard1_body.png', 'image/png'], ['guard1_face.png', 'image/png'], ['guard1_helmet.png', 'image/png'],
      ['iron_grill.png', 'image/png'], ['round_grill.png', 'image/png'],
    ]);
    expect(asset.materials.map((m) => m.baseColorTexture)).toEqual([0, 1, 2, 3, 4, 0]);
    expect(asset.meshes.map((m) => m.primitives[0].material)).toEqual([0, 1, 2, 3, 4, 5]);
    const png = readFileSync(join(MD5_DIR, 'guard1_face.png'));
    expect(Buffer.from(asset.images[1].data).equals(png)).toBe(true);
  });

  it('makes one LINEAR clip named Bob: 140 keys at frame / 24 s, duration 139 / 24 s', () => {
    const clip = load().clips[0];
    expect(clip.name).toBe('Bob');
    expect(clip.duration).toBeCloseTo(139 / 24, 12);
    expect(clip.channels.length).toBe(66);
    for (const ch of clip.channels) {
      expect(ch.interpolation).toBe('LINEAR');
      expect(ch.times.length).toBe(140);
      expect(ch.times[139]).toBe(Math.fround(139 / 24));
      expect(ch.values.length).toBe(140 * (ch.path === 'rotation' ? 4 : 3));
    }
  });

  it('winds triangles so computed normals point away from the mesh centroid on average', () => {
    const asset = load();
    let sum = 0, count = 0;
    const c = [0, 0, 0];
    let n = 0;
    for (const m of asset.meshes) for (let i = 0; i < m.primitives[0].positions.length; i++) { c[i % 3] += m.primitives[0].positions[i]; if (i % 3 === 0) n++; }
    for (let k = 0; k < 3; k++) c[k] /= n;
    for (const m of asset.meshes) {
      const { positions, normals, vertexCount } = m.primitives[0];
      for (let v = 0; v < vertexCount; v++) {
        const d = [positions[3 * v] - c[0], positions[3 * v + 1] - c[1], positions[3 * v + 2] - c[2]];
        sum += (d[0] * normals[3 * v] + d[1] * normals[3 * v + 1] + d[2] * normals[3 * v + 2]) / Math.hypot(d[0], d[1], d[2]);
        count++;
      }
    }
    expect(sum / count).toBeGreaterThan(0.2);
  });

  it('loadModelFromPath reads the mesh, the anim and the sibling images', async () => {
    const asset = await loadModelFromPath(join(MD5_DIR, 'Bob.md5mesh'), { anims: [join(MD5_DIR, 'Bob.md5anim')] });
    expect(asset.images.map((i) => i.name).sort()).toEqual(
      ['guard1_body.png', 'guard1_face.png', 'guard1_helmet.png', 'iron_grill.png', 'round_grill.png'],
    );
    expect(asset.clips[0].name).toBe('Bob');
    expect(asset.materials[5].baseColorTexture).toBe(asset.materials[0].baseColorTexture);
  });
});

describe.skipIf(!md5AssetsAvailable)('md5ToModelAsset on SimpleCube', () => {
  it('has 3 joints, 24 vertices, grey material, and every triangle wound outward', () => {
    const asset = md5ToModelAsset(parseMd5Mesh('SimpleCube.md5mesh', readMd5Text('SimpleCube.md5mesh')), null, 'SimpleCube.md5mesh');
    expect(asset.skeleton.jointCount).toBe(3);
    expect(asset.clips).toEqual([]);
    expect(asset.warnings).toEqual([]); // shader "" is not a missing image
    expect(asset.materials).toEqual([{ name: 'mesh 0', baseColorFactor: MD5_UNTEXTURED_COLOR, baseColorTexture: -1, doubleSided: false }]);
    const { positions, indices, vertexCount } = asset.meshes[0].primitives[0];
    expect(vertexCount).toBe(24);
    const c = [0, 0, 0];
    for (let i = 0; i < positions.length; i++) c[i % 3] += positions[i] / vertexCount;
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, d] = [indices[t], indices[t + 1], indices[t + 2]].map((i) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]]);
      const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
      const normal = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const out = [(a[0] + b[0] + d[0]) / 3 - c[0], (a[1] + b[1] + d[1]) / 3 - c[1], (a[2] + b[2] + d[2]) / 3 - c[2]];
      expect(normal[0] * out[0] + normal[1] * out[1] + normal[2] * out[2], `triangle ${t / 3}`).toBeGreaterThan(0);
    }
  });
});

// A three-joint chain written children-first, and the same chain parents-first (joints and weights remapped
// by hand). Both must give the same skinned vertices, at rest and animated.
const UNORDERED_MESH = `MD5Version 10
commandline ""
numJoints 3
numMeshes 1
joints {
  "tip"  2 ( 0 0.5 3 ) ( 0.3 0 0.1 )
  "root" -1 ( 0 0 0 ) ( 0 0 0.2 )
  "mid"  1 ( 0 0 1 ) ( 0.5 0 0 )
}
mesh {
  shader "models/chain/chain_local"
  numverts 3
  vert 0 ( 0 0 ) 0 1
  vert 1 ( 1 0 ) 1 2
  vert 2 ( 0 1 ) 3 1
  numtris 1
  tri 0 0 1 2
  numweights 4
  weight 0 1 1 ( 1 0 0 )
  weight 1 2 0.25 ( 1 1 0 )
  weight 2 0 0.75 ( 0 1 1 )
  weight 3 0 1 ( 0 0 1 )
}
`;
const ORDERED_MESH = UNORDERED_MESH
  .replace(/"tip" {2}2 \( 0 0.5 3 \) \( 0.3 0 0.1 \)\n {2}"root" -1 \( 0 0 0 \) \( 0 0 0.2 \)\n {2}"mid" {2}1 \( 0 0 1 \) \( 0.5 0 0 \)/,
    '"root" -1 ( 0 0 0 ) ( 0 0 0.2 )\n  "mid" 0 ( 0 0 1 ) ( 0.5 0 0 )\n  "tip" 1 ( 0 0.5 3 ) ( 0.3 0 0.1 )')
  .replace('weight 0 1 1', 'weight 0 0 1').replace('weight 1 2 0.25', 'weight 1 1 0.25')
  .replace('weight 2 0 0.75', 'weight 2 2 0.75').replace('weight 3 0 1', 'weight 3 2 1');
const animText = (hierarchy: string, baseframe: string): string => `MD5Version 10
commandline ""
numFrames 2
numJoints 3
frameRate 4
numAnimatedComponents 3
hierarchy {
${hierarchy}
}
bounds {
  ( 0 0 0 ) ( 1 1 1 )
  ( 0 0 0 ) ( 1 1 1 )
}
baseframe {
${baseframe}
}
frame 0 { 0.1 0.2 0.3 }
frame 1 { 0.4 -0.3 0.6 }
`;
// root: Tz animated (component 0); mid: Qx, Qy (components 1, 2); tip: constant.
const UNORDERED_ANIM = animText(
  '  "tip" 2 0 0\n  "root" -1 4 0\n  "mid" 1 24 1',
  '  ( 0 0.5 2 ) ( 0.3 0 0.1 )\n  ( 0 0 0 ) ( 0 0 0.2 )\n  ( 0 0 1 ) ( 0.5 0 0 )',
);
const ORDERED_ANIM = animText(
  '  "root" -1 4 0\n  "mid" 0 24 1\n  "tip" 1 0 0',
  '  ( 0 0 0 ) ( 0 0 0.2 )\n  ( 0 0 1 ) ( 0.5 0 0 )\n  ( 0 0.5 2 ) ( 0.3 0 0.1 )',
);

describe('md5ToModelAsset on a file whose joints are not parents-first', () => {
  it('reorders parents first and remaps parents, influences and channels', () => {
    const unordered = md5ToModelAsset(parseMd5Mesh('u.md5mesh', UNORDERED_MESH), parseMd5Anim('u.md5anim', UNORDERED_ANIM), 'u.md5mesh');
    const ordered = md5ToModelAsset(parseMd5Mesh('o.md5mesh', ORDERED_MESH), parseMd5Anim('o.md5anim', ORDERED_ANIM), 'o.md5mesh');
    expect(unordered.skeleton.names).toEqual(['root', 'mid', 'tip']);
    expect(Array.from(unordered.skeleton.parents)).toEqual([-1, 0, 1]);
    expect(Array.from(unordered.skeleton.sourceIndices)).toEqual([1, 2, 0]);
    expect(Array.from(unordered.meshes[0].primitives[0].joints!)).toEqual(Array.from(ordered.meshes[0].primitives[0].joints!));
    expect(Array.from(unordered.restPose.translations)).toEqual(Array.from(ordered.restPose.translations));
    expect(Array.from(unordered.skins[0].inverseBindMatrices)).toEqual(Array.from(ordered.skins[0].inverseBindMatrices));
    for (const time of [null, 0, 0.1, 0.25]) {
      const a = skinAll(unordered, time)[0], b = skinAll(ordered, time)[0];
      for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i], 6);
    }
    // The animation moves the vertices (so the comparison above is not vacuous).
    const rest = skinAll(ordered, null)[0], moved = skinAll(ordered, 0.25)[0];
    expect(Math.max(...rest.map((x, i) => Math.abs(x - moved[i])))).toBeGreaterThan(0.1);
  });

  it('resolves a Doom 3 material path with a map suffix to the stem\'s _d image', () => {
    const asset = md5ToModelAsset(parseMd5Mesh('u.md5mesh', UNORDERED_MESH), null, 'u.md5mesh', {
      'chain_d.tga': new Uint8Array([1, 2, 3]), 'other.png': new Uint8Array([4]),
    });
    expect(asset.images).toEqual([{ name: 'chain_d.tga', mimeType: 'image/x-tga', data: new Uint8Array([1, 2, 3]) }]);
    expect(asset.materials[0]).toMatchObject({ name: 'models/chain/chain_local', baseColorTexture: 0, baseColorFactor: [1, 1, 1, 1] });
  });

  it('warns and uses grey when the shader matches no image', () => {
    const asset = md5ToModelAsset(parseMd5Mesh('u.md5mesh', UNORDERED_MESH), null, 'u.md5mesh', { 'x.png': new Uint8Array(1) });
    expect(asset.images).toEqual([]);
    expect(asset.materials[0].baseColorFactor).toEqual(MD5_UNTEXTURED_COLOR);
    expect(asset.warnings).toEqual(['u.md5mesh: mesh 0 shader "models/chain/chain_local" matches no image; using grey']);
  });
});

describe('md5ToModelAsset with more than 4 weights on a vertex', () => {
  it('keeps every weight in file order (influenceCount 8, unused slots 0), without a warning', () => {
    const text = `MD5Version 10
numJoints 5
numMeshes 1
joints {
  "a" -1 ( 0 0 0 ) ( 0 0 0 )
  "b" 0 ( 1 0 0 ) ( 0 0 0 )
  "c" 0 ( 2 0 0 ) ( 0 0 0 )
  "d" 0 ( 3 0 0 ) ( 0 0 0 )
  "e" 0 ( 4 0 0 ) ( 0 0 0 )
}
mesh {
  shader ""
  numverts 2
  vert 0 ( 0 0 ) 0 5
  vert 1 ( 0 0 ) 5 1
  numtris 0
  numweights 6
  weight 0 0 0.1 ( 0 0 0 )
  weight 1 1 0.3 ( 0 0 0 )
  weight 2 2 0.05 ( 0 0 0 )
  weight 3 3 0.25 ( 0 0 0 )
  weight 4 4 0.3 ( 0 0 0 )
  weight 5 2 1 ( 0 0 0 )
}`;
    const asset = md5ToModelAsset(parseMd5Mesh('five.md5mesh', text), null, 'five.md5mesh');
    const p = asset.meshes[0].primitives[0];
    expect(p.influenceCount).toBe(8);
    expect(Array.from(p.joints!)).toEqual([0, 1, 2, 3, 4, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
    const expected = [0.1, 0.3, 0.05, 0.25, 0.3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 16; i++) expect(p.weights![i]).toBeCloseTo(expected[i], 6);
    expect(asset.warnings).toEqual([]);
    // Bind position by S3 algorithm 1: Σ bias · joint position (offsets are 0, rotations identity).
    expect(p.positions[0]).toBeCloseTo(0.1 * 0 + 0.3 * 1 + 0.05 * 2 + 0.25 * 3 + 0.3 * 4, 6);
  });
});

describe('computeMd5FramePose', () => {
  it('overrides the flagged components of the baseframe in Tx Ty Tz Qx Qy Qz order and rebuilds w', () => {
    const anim = parseMd5Anim('o.md5anim', ORDERED_ANIM);
    const p = new Float64Array(9), q = new Float64Array(12);
    computeMd5FramePose(p, q, anim, 1);
    expect(Array.from(p)).toEqual([0, 0, 0.4, 0, 0, 1, 0, 0.5, 2]); // root Tz = 0.4
    expect(Array.from(q.subarray(4, 7))).toEqual([-0.3, 0.6, 0]); // mid Qx, Qy
    expect(q[7]).toBeCloseTo(-Math.sqrt(1 - 0.09 - 0.36), 15);
    expect(q[3]).toBeCloseTo(-Math.sqrt(1 - 0.04), 15);
    expect(() => computeMd5FramePose(p, q, anim, 2)).toThrow(/o\.md5anim has no frame 2/);
  });
});

describe('md5ShaderImageCandidates / resolveMd5ShaderImage', () => {
  it('tries the base name, then _d, then the stem of a map suffix', () => {
    expect(md5ShaderImageCandidates('models/monsters/imp/imp_local.tga')).toEqual(['imp_local', 'imp_local_d', 'imp_d', 'imp']);
    expect(md5ShaderImageCandidates('guard1_body.png')).toEqual(['guard1_body', 'guard1_body_d']);
    expect(md5ShaderImageCandidates('')).toEqual([]);
    expect(resolveMd5ShaderImage('models\\x\\Guard1_Body', ['a.png', 'guard1_body.TGA', 'guard1_body.jpg'])).toBe('guard1_body.TGA');
    expect(resolveMd5ShaderImage('imp', ['imp_d.png', 'imp.jpg'])).toBe('imp.jpg');
    expect(resolveMd5ShaderImage('imp', ['imp_d.png'])).toBe('imp_d.png');
    expect(resolveMd5ShaderImage('imp', ['impish.png'])).toBeNull();
  });
});
