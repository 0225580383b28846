import type { MaterialAsset, ModelAsset } from '../asset/model-asset.ts';
import { computeInverseBindMatrices } from './bind-matrices.ts';
import { createEllipsoidSurface, createMantleSurface, EYE_DIRECTIONS, EYE_RADIUS, eyeCentre } from './octopus-head.ts';
import { createSwimClip } from './octopus-clips.ts';
import { createCurlClip } from './octopus-curl-clip.ts';
import { createWaveClip } from './octopus-wave-clip.ts';
import { createOctopusRig } from './octopus-rig.ts';
import { SkinnedMeshBuilder } from './skinned-mesh-builder.ts';
import { createTentacleTube } from './tentacle-tube.ts';

/** Skin (and skeleton) index of the head joint, the root. */
const HEAD_JOINT = 0;

/** Dielectrics (metallic 0): a moist skin (roughness 0.45), glossy eyes and pupils. */
const MATERIALS: readonly MaterialAsset[] = [
  // sRGB (0.85, 0.36, 0.25), a reddish orange, in linear.
  { name: 'octopus-skin', baseColorFactor: [0.694, 0.107, 0.051, 1], baseColorTexture: -1, doubleSided: false, metallicFactor: 0, roughnessFactor: 0.45 },
  // sRGB (0.96, 0.9, 0.68), a pale yellow eyeball.
  { name: 'octopus-eye', baseColorFactor: [0.913, 0.787, 0.42, 1], baseColorTexture: -1, doubleSided: false, metallicFactor: 0, roughnessFactor: 0.25 },
  { name: 'octopus-pupil', baseColorFactor: [0.012, 0.01, 0.015, 1], baseColorTexture: -1, doubleSided: false, metallicFactor: 0, roughnessFactor: 0.2 },
];

/**
 * The viewer's built-in default model, generated in code (deterministic, no I/O): an octopus about 1.4 m
 * tall and 1.4 m across (Y up, metres, head centre at (0, 0.3, 0), front toward +Z).
 *
 * - Skeleton: 49 joints — `head` (root) and 8 chains `tentacle{k}_{j}`, j = 0…5, each chain's base a child
 *   of the head.
 * - One mesh with one skin over every joint (skin joint i = skeleton joint i, bound in the rest pose: inverse
 *   bind = inverse rest-pose model-space matrix), three primitives: the body (mantle and 8 closed tentacle tubes that start inside the
 *   mantle; material 0), the eyeballs (material 1) and horizontal-slit pupils (material 2). Eyes and mantle
 *   ride the head joint; tentacle vertices blend linearly between the two chain joints around them and,
 *   near the base, with the head. 14 337 vertices and 26 752 triangles, Uint16 indices, outward normals, UVs.
 * - Clips, each a seamless loop whose last key equals the first, together exercising the samplers glTF
 *   cannot carry: `swim` (2 s, travelling waves down the tentacles, head bob; LINEAR keys at 30 per
 *   second), `curl` (3 s, the tentacles curl in under the body and relax; 7 CATMULLROM keys per channel)
 *   and `wave` (2.4 s, the tentacles reach up and wave one after another round the ring on HERMITE
 *   rotation keys, while the head bobs on a BEZIER translation channel).
 */
export function createOctopusAsset(): ModelAsset {
  const rig = createOctopusRig();

  const body = new SkinnedMeshBuilder();
  const mantleRows = 48;
  body.addSurface(64, mantleRows, createMantleSurface(mantleRows, HEAD_JOINT));
  for (const tentacle of rig.tentacles) {
    const tube = createTentacleTube(tentacle, { columns: 16, bodyRows: 64, capRows: 4 }, HEAD_JOINT);
    body.addSurface(16, tube.rows, tube.surface);
  }

  const eyes = new SkinnedMeshBuilder();
  const pupils = new SkinnedMeshBuilder();
  for (let e = 0; e < EYE_DIRECTIONS.length; e++) {
    const centre = eyeCentre(new Float64Array(3), e);
    const forward = EYE_DIRECTIONS[e];
    eyes.addSurface(24, 16, createEllipsoidSurface(16, centre, forward, [EYE_RADIUS, EYE_RADIUS, EYE_RADIUS], HEAD_JOINT));
    const pupilCentre = Float64Array.from(centre, (c, i) => c + 0.82 * EYE_RADIUS * forward[i]);
    pupils.addSurface(16, 10, createEllipsoidSurface(10, pupilCentre, forward, [0.03, 0.011, 0.022], HEAD_JOINT));
  }

  const jointCount = rig.skeleton.jointCount;
  const skinJoints = new Int32Array(jointCount);
  for (let i = 0; i < jointCount; i++) skinJoints[i] = i;

  return {
    name: 'octopus (built-in)',
    skeleton: rig.skeleton,
    restPose: rig.restPose,
    meshes: [{ name: 'octopus', primitives: [body.build(0), eyes.build(1), pupils.build(2)] }],
    skins: [{
      name: 'octopus-skin',
      joints: skinJoints,
      inverseBindMatrices: computeInverseBindMatrices(rig.skeleton, rig.restPose),
    }],
    meshInstances: [{ node: HEAD_JOINT, sourceNode: null, mesh: 0, skin: 0 }],
    materials: MATERIALS,
    images: [],
    clips: [createSwimClip(rig), createCurlClip(rig), createWaveClip(rig)],
    upAxis: 'y',
    warnings: [],
  };
}
