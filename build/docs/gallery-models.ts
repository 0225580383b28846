/**
 * Models the gallery's build makes in code (build/docs/build-examples.ts writes them into `site/examples/models/`),
 * so that the pages that need a file work without any third-party model.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { GltfBuilder } from '../../tests/unit/helpers/gltf-builder.ts';
import { createGenerated60 } from '../../tests/fixtures/generated60.ts';
import { optimizeFile } from '../../src/cli/optimize-command.ts';
import { buildAvatarVrm1 } from '../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../src/procedural/avatar/vrma-clip.ts';
import { LOCOMOTION_CLIPS } from '../../src/procedural/avatar/avatar-locomotion.ts';
import { buildLocomotionVrma } from '../../src/procedural/avatar/locomotion-vrma.ts';
import { driveGraphJson } from '../../src/procedural/avatar/drive-graph.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { loadClips } from '../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../src/loaders/clip-library.ts';
import { bakeIntoGltf, gltfFilePartsOf } from '../../src/export/bake-into-gltf.ts';

/**
 * The VRM pages' files, made by the gallery's build as the viewer's sample makes them (nothing binary is committed):
 * the generated avatar (VRM 1.0, CC0 1.0; `buildAvatarVrm1`) as `avatar.vrm` with bone look-at and as
 * `avatar-look-expression.vrm` with expression look-at, in MToon as `avatar-toon.vrm`, and its VRMA walk (`buildVrmaClip`, default length) as
 * `walk.vrma`.
 */
export async function galleryAvatarFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  return [
    { name: 'avatar.vrm', bytes: await buildAvatarVrm1() },
    { name: 'avatar-look-expression.vrm', bytes: await buildAvatarVrm1({ lookAt: 'expression' }) },
    { name: 'avatar-toon.vrm', bytes: await buildAvatarVrm1({ mtoon: true }) },
    { name: 'walk.vrma', bytes: await buildVrmaClip() },
  ];
}

/** The baked-clips page's file: `avatar-baked.glb` ({@link bakedAvatarGlb}). */
export async function galleryBakedFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  return [{ name: 'avatar-baked.glb', bytes: await bakedAvatarGlb() }];
}

/**
 * The baked-clips page's file (docs/examples/baked-clips.html), made as `sinew bake avatar.vrm --anim Idle.vrma
 * --anim Walk.vrma --anim Run.vrma --anim Jump.vrma -o avatar-baked.glb` makes it: the generated avatar (VRM 1.0)
 * with its locomotion clips (`buildLocomotionVrma`) retargeted onto it and baked in as glTF animations, so the page
 * plays them with no `animations` attribute.
 */
export async function bakedAvatarGlb(): Promise<Uint8Array> {
  const avatar = await buildAvatarVrm1();
  const asset = await loadModel({ name: 'avatar.vrm', bytes: avatar }, async () => null);
  const clips = [];
  for (const clip of LOCOMOTION_CLIPS) {
    const library = await loadClips({ name: `${clip}.vrma`, bytes: await buildLocomotionVrma(clip) }, async () => null);
    clips.push(...retargetClipLibrary(library, asset).clips);
  }
  return (await bakeIntoGltf(gltfFilePartsOf('avatar.vrm', avatar), asset, clips, { container: 'glb' })).bytes;
}

/**
 * The Drive page's files (docs/examples/drive.html), made as the viewer's Drive panel makes them: the generated
 * avatar's locomotion clips (`buildLocomotionVrma`) as `idle.vrma`, `locomotion-walk.vrma` (not `walk.vrma`:
 * that is `buildVrmaClip`'s walk in place, with expression and look-at tracks; this one travels and has foot
 * markers), `run.vrma` and `jump.vrma`, and the animation graph that plays them (`DRIVE_GRAPH`) as `drive.json`.
 */
export async function galleryDriveFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const clip of LOCOMOTION_CLIPS) {
    files.push({ name: clip === 'Walk' ? 'locomotion-walk.vrma' : `${clip.toLowerCase()}.vrma`, bytes: await buildLocomotionVrma(clip) });
  }
  files.push({ name: 'drive.json', bytes: new TextEncoder().encode(driveGraphJson()) });
  return files;
}

/**
 * The twist cylinder of src/procedural/twist-cylinder.ts as a GLB, for `<sinew-viewer src>`: radius 0.25 m,
 * height 2 m along +Y, 25 rings of 24 sides, skinned to `root` (origin) and `upper` (y = 1) with weights blending
 * linearly between y = 0.5 and 1.5; vertex colours in stripes along the axis, so the twist shows; one clip,
 * `twist` (2 s, LINEAR), turning `upper` about +Y to 170° at 1 s and back. Linear blend skinning collapses its
 * waist (the "candy wrapper"), dual quaternion skinning keeps it round.
 */
export function twistCylinderGlb(): Uint8Array {
  const rings = 25, sides = 24, radius = 0.25;
  const count = rings * sides;
  const positions = new Float32Array(3 * count), normals = new Float32Array(3 * count), colors = new Float32Array(4 * count);
  const joints = new Uint8Array(4 * count), weights = new Float32Array(4 * count);
  for (let r = 0; r < rings; r++) {
    const y = (2 * r) / (rings - 1), upper = Math.min(1, Math.max(0, y - 0.5));
    for (let s = 0; s < sides; s++) {
      const v = r * sides + s, a = (2 * Math.PI * s) / sides;
      positions.set([radius * Math.cos(a), y, radius * Math.sin(a)], 3 * v);
      normals.set([Math.cos(a), 0, Math.sin(a)], 3 * v);
      colors.set(s % 4 < 2 ? [0.95, 0.75, 0.2, 1] : [0.2, 0.45, 0.9, 1], 4 * v);
      joints.set([0, 1, 0, 0], 4 * v);
      weights.set([1 - upper, upper, 0, 0], 4 * v);
    }
  }
  const indices = new Uint16Array(6 * (rings - 1) * sides);
  let i = 0;
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = r * sides + s, b = r * sides + ((s + 1) % sides);
      indices.set([a, a + sides, b, b, a + sides, b + sides], i);
      i += 6;
    }
  }
  const bound = (data: Float32Array) => {
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < data.length; k++) { min[k % 3] = Math.min(min[k % 3], data[k]); max[k % 3] = Math.max(max[k % 3], data[k]); }
    return { min, max };
  };
  const b = new GltfBuilder();
  const attributes = {
    POSITION: b.accessor(positions, 'VEC3', bound(positions)),
    NORMAL: b.accessor(normals, 'VEC3'),
    COLOR_0: b.accessor(colors, 'VEC4'),
    JOINTS_0: b.accessor(joints, 'VEC4'),
    WEIGHTS_0: b.accessor(weights, 'VEC4'),
  };
  const inverseBind = new Float32Array(32);
  for (const o of [0, 16]) for (let k = 0; k < 4; k++) inverseBind[o + 5 * k] = 1;
  inverseBind[16 + 13] = -1; // the inverse of translate(0, 1, 0)
  const keyTimes = new Float32Array([0, 0.5, 1, 1.5, 2]);
  const turn = (degrees: number) => [0, Math.sin((degrees * Math.PI) / 360), 0, Math.cos((degrees * Math.PI) / 360)];
  const rotations = new Float32Array([0, 85, 170, 85, 0].flatMap(turn));
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [0, 1] }],
    nodes: [{ name: 'cylinder', mesh: 0, skin: 0 }, { name: 'root', children: [2] }, { name: 'upper', translation: [0, 1, 0] }],
    meshes: [{ name: 'cylinder', primitives: [{ attributes, indices: b.accessor(indices, 'SCALAR'), material: 0 }] }],
    materials: [{ name: 'stripes', doubleSided: true, pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 0.6 } }],
    skins: [{ joints: [1, 2], skeleton: 1, inverseBindMatrices: b.accessor(inverseBind, 'MAT4') }],
    animations: [{
      name: 'twist',
      samplers: [{ input: b.accessor(keyTimes, 'SCALAR', { min: [0], max: [2] }), output: b.accessor(rotations, 'VEC4'), interpolation: 'LINEAR' }],
      channels: [{ sampler: 0, target: { node: 2, path: 'rotation' } }],
    }],
  });
  return b.glb();
}

/**
 * The optimized-clips page's files (docs/examples/optimized-clips.html): generated60 (tests/fixtures/generated60.ts,
 * its clip cut to 10 s) as `generated60.glb`, and the same file through `sinew optimize --max-error 0.1mm`
 * (`optimizeFile`) as `generated60-optimized.glb`, so the page shows both playing and both sizes.
 */
export async function galleryOptimizedFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  const folder = mkdtempSync(join(tmpdir(), 'sinew-gallery-optimize-'));
  try {
    const original = await new NodeIO().writeBinary(createGenerated60({ seconds: 10 }));
    const input = join(folder, 'generated60.glb'), output = join(folder, 'generated60-optimized.glb');
    writeFileSync(input, original);
    await optimizeFile(input, output, { maxError: 0.0001 });
    return [{ name: 'generated60.glb', bytes: original }, { name: 'generated60-optimized.glb', bytes: new Uint8Array(readFileSync(output)) }];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
