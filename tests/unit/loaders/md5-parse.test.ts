import { describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';
import { parseMd5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';
import { md5QuaternionW } from '../../../src/loaders/md5/md5-quaternion.ts';
import { md5AssetsAvailable, readMd5Text } from '../helpers/md5-assets.ts';

/** Lines of `text` starting (after indentation) with `keyword` and a space or tab. */
function countLines(text: string, keyword: string): number {
  return text.split('\n').filter((l) => new RegExp(`^\\s*${keyword}[ \\t]`).test(l)).length;
}

/** The number after `keyword` in the header, read with a regex, independent of the parser. */
function headerNumber(text: string, keyword: string): number {
  const m = new RegExp(`^\\s*${keyword}\\s+(\\S+)`, 'm').exec(text);
  if (!m) throw new Error(`no ${keyword}`);
  return Number(m[1]);
}

describe('md5QuaternionW', () => {
  it('rebuilds w = −√(1 − x² − y² − z²) and clamps at 0', () => {
    expect(md5QuaternionW(0, 0, 0)).toBe(-1);
    expect(md5QuaternionW(0.6, 0, 0)).toBeCloseTo(-0.8, 15);
    expect(md5QuaternionW(0.5, 0.5, 0.5)).toBeCloseTo(-0.5, 15);
    expect(md5QuaternionW(0.8, 0.6, 0.0001)).toBe(0);
  });
});

describe.skipIf(!md5AssetsAvailable)('parseMd5Mesh on real files', () => {
  it('Bob.md5mesh: 33 joints, 6 meshes, 875 vertices, counts matching the text', () => {
    const text = readMd5Text('Bob.md5mesh');
    const mesh = parseMd5Mesh('Bob.md5mesh', text);
    expect(mesh.joints.length).toBe(33);
    expect(mesh.joints.length).toBe(headerNumber(text, 'numJoints'));
    expect(mesh.meshes.length).toBe(6);
    expect(mesh.meshes.length).toBe(countLines(text, 'shader'));
    const verts = mesh.meshes.reduce((s, m) => s + m.vertexCount, 0);
    const tris = mesh.meshes.reduce((s, m) => s + m.triangleCount, 0);
    const weights = mesh.meshes.reduce((s, m) => s + m.weightCount, 0);
    expect(verts).toBe(875);
    expect(verts).toBe(countLines(text, 'vert'));
    expect(tris).toBe(countLines(text, 'tri'));
    expect(weights).toBe(countLines(text, 'weight'));
    expect(mesh.meshes.map((m) => m.shader)).toEqual([
      'guard1_body.png', 'guard1_face.png', 'guard1_helmet.png', 'iron_grill.png', 'round_grill.png', 'guard1_body.png',
    ]);
    // Joint 4: "pelvis" 3 ( 0.014076 2.592741 30.241238 ) ( -0.535591 -0.462288 -0.534983 )
    const pelvis = mesh.joints[4];
    expect(pelvis.name).toBe('pelvis');
    expect(pelvis.parent).toBe(3);
    expect(pelvis.position).toEqual([0.014076, 2.592741, 30.241238]);
    const [x, y, z, w] = pelvis.orientation;
    expect([x, y, z]).toEqual([-0.535591, -0.462288, -0.534983]);
    expect(w).toBeCloseTo(-Math.sqrt(1 - x * x - y * y - z * z), 15);
    expect(pelvis.line).toBe(12);
    // First vert of mesh 0: vert 0 ( 0.394531 0.513672 ) 0 1
    const m0 = mesh.meshes[0];
    expect([m0.uvs[0], m0.uvs[1], m0.weightStarts[0], m0.weightCounts[0]]).toEqual([0.394531, 0.513672, 0, 1]);
  });

  it('SimpleCube.md5mesh: 3 joints, 1 mesh, 24 vertices, 12 triangles, 16 weights', () => {
    const mesh = parseMd5Mesh('SimpleCube.md5mesh', readMd5Text('SimpleCube.md5mesh'));
    expect(mesh.joints.map((j) => [j.name, j.parent])).toEqual([['origin', -1], ['root', 0], ['joint1', 1]]);
    expect(mesh.joints[0].orientation).toEqual([0, 0, 0, -1]);
    expect(mesh.meshes.length).toBe(1);
    expect([mesh.meshes[0].vertexCount, mesh.meshes[0].triangleCount, mesh.meshes[0].weightCount]).toEqual([24, 12, 16]);
    expect(Array.from(mesh.meshes[0].triangles.subarray(0, 3))).toEqual([2, 1, 0]);
    expect(mesh.meshes[0].weightJoints[1]).toBe(2);
    expect(mesh.meshes[0].weightBiases[1]).toBe(0.2613978386);
    expect(Array.from(mesh.meshes[0].weightOffsets.subarray(3, 6))).toEqual([31.9750270844, -63.9803352356, -32]);
  });
});

describe.skipIf(!md5AssetsAvailable)('parseMd5Anim on real files', () => {
  it('Bob.md5anim: 140 frames at 24 fps, 33 joints, 198 components, counts matching the text', () => {
    const text = readMd5Text('Bob.md5anim');
    const anim = parseMd5Anim('Bob.md5anim', text);
    expect(anim.frameCount).toBe(140);
    expect(anim.frameCount).toBe(countLines(text, 'frame'));
    expect(anim.frameRate).toBe(24);
    expect(anim.hierarchy.length).toBe(33);
    expect(anim.numAnimatedComponents).toBe(198);
    expect(anim.bounds.length).toBe(6 * 140);
    // bounds line 1: ( -16.340680 -13.251548 -0.285210 ) ( 16.321431 70.077741 66.474757 )
    expect(Array.from(anim.bounds.subarray(0, 6))).toEqual([-16.34068, -13.251548, -0.28521, 16.321431, 70.077741, 66.474757]);
    expect(anim.hierarchy[5]).toMatchObject({ name: 'spine', parent: 4, flags: 63, startIndex: 30 });
    // Independent count of the numbers in the last frame block.
    const last = /frame 139 \{([^}]*)\}/.exec(text)![1].trim().split(/\s+/).map(Number);
    expect(last.length).toBe(198);
    expect(Array.from(anim.frameComponents.subarray(139 * 198, 140 * 198))).toEqual(last);
  });
});

describe('parseMd5Anim on a hand-written file', () => {
  const text = `MD5Version 10
commandline ""
numFrames 2
numJoints 2
frameRate 10
numAnimatedComponents 3
hierarchy {
  "a" -1 0 0
  "b" 0 ${1 | 4 | 16} 0 // Tx, Tz, Qy
}
bounds {
  ( 0 0 0 ) ( 1 1 1 )
  ( 0 0 0 ) ( 1 1 1 )
}
baseframe {
  ( 1 2 3 ) ( 0 0 0 )
  ( 4 5 6 ) ( 0.6 0 0 )
}
frame 1 { 7 8 0.8 }
frame 0 {
  9 10 0
}
`;
  it('reads frames in any order and keeps the baseframe with rebuilt w', () => {
    const anim = parseMd5Anim('h.md5anim', text);
    expect(Array.from(anim.frameComponents)).toEqual([9, 10, 0, 7, 8, 0.8]);
    expect(Array.from(anim.basePositions)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(anim.baseOrientations[3]).toBe(-1);
    expect(anim.baseOrientations[7]).toBeCloseTo(-0.8, 15);
    expect(anim.hierarchy[1].flags).toBe(21);
  });
});
