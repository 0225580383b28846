import { SkinnedMeshBuilder, type SurfaceFunction } from '../skinned-mesh-builder.ts';
import { AVATAR_BONES, avatarBoneIndex } from './avatar-bones.ts';
import { CHEEKS, FACE_MORPH_TARGETS, MOUTH, faceMorphDelta, type FacePart } from './avatar-morphs.ts';
import { createEllipsoidSurface, createTubeSurface, type AvatarTube } from './avatar-tube.ts';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { avatarJointIndex, avatarJointPosition } from './avatar-extra-joints.ts';
import { AVATAR_SPRINGS } from './avatar-springs.ts';

/** The generated avatar's materials, by name; {@link AVATAR_MATERIALS} gives their colours. */
export type AvatarMaterialName = 'Skin' | 'Hair' | 'Eye' | 'Pupil' | 'Cheek' | 'Mouth';

/** One triangle list of the generated avatar, skinned, in the bind pose (model space, metres, facing +Z). */
export interface AvatarPrimitive {
  readonly material: AvatarMaterialName;
  /** `Float32Array(3n)`, metres. */
  readonly positions: Float32Array;
  /** `Float32Array(3n)`, unit. */
  readonly normals: Float32Array;
  /** `Float32Array(2n)`: u around the part, v along it, in [0, 1]. */
  readonly uvs: Float32Array;
  /** `Uint8Array(4n)`: skin joints (= indices into {@link AVATAR_BONES}). */
  readonly joints: Uint8Array;
  /** `Float32Array(4n)`, each vertex's four summing to 1. */
  readonly weights: Float32Array;
  readonly indices: Uint16Array | Uint32Array;
  /** Per morph target of the mesh, `Float32Array(3n)` position deltas in metres; empty for meshes without targets. */
  readonly targets: readonly Float32Array[];
}

/** One mesh of the generated avatar (one glTF mesh on its own node, all skinned by the one skin). */
export interface AvatarMesh {
  readonly name: 'Body' | 'Face' | 'Hair' | 'NeckCap';
  readonly primitives: readonly AvatarPrimitive[];
  /** Morph target names, in index order (glTF `mesh.extras.targetNames`); empty for meshes without targets. */
  readonly targetNames: readonly string[];
}

const bone = (name: HumanoidBoneName): number => avatarBoneIndex(name);
const at = (name: HumanoidBoneName): readonly [number, number, number] => AVATAR_BONES[bone(name)].position;
const tail = (name: HumanoidBoneName): readonly [number, number, number] => AVATAR_BONES[bone(name)].tail!;
const only = (joint: number) => (_p: Float64Array, joints: Uint16Array, weights: Float64Array): void => {
  joints[0] = joint; weights[0] = 1;
};

/** The head ellipsoid: centre and radii, metres. */
const HEAD_CENTRE = [0, 1.53, 0] as const;
const HEAD_RADII = [0.085, 0.1, 0.095] as const;
const EYE_RADIUS = 0.016;

/** The limbs and torso as tubes (see {@link createTubeSurface}). */
function bodyTubes(): { tube: AvatarTube; columns: number; rowsPerSegment: number }[] {
  const tubes: { tube: AvatarTube; columns: number; rowsPerSegment: number }[] = [{
    tube: {
      points: [[0, 0.84, 0], at('spine'), at('chest'), at('upperChest'), at('neck'), [0, 1.45, 0]],
      radii: [[0.14, 0.1], [0.13, 0.09], [0.14, 0.095], [0.16, 0.1], [0.055, 0.05], [0.045, 0.045]],
      joints: [bone('hips'), bone('spine'), bone('chest'), bone('upperChest'), bone('neck')],
      parentJoint: -1,
    },
    columns: 24, rowsPerSegment: 8,
  }];
  for (const side of ['left', 'right'] as const) {
    tubes.push({
      tube: {
        points: [at(`${side}Shoulder`), at(`${side}UpperArm`), at(`${side}LowerArm`), at(`${side}Hand`), tail(`${side}Hand`)],
        radii: [[0.05, 0.05], [0.05, 0.05], [0.04, 0.04], [0.025, 0.03], [0.014, 0.045]],
        joints: [bone(`${side}Shoulder`), bone(`${side}UpperArm`), bone(`${side}LowerArm`), bone(`${side}Hand`)],
        parentJoint: bone('upperChest'),
      },
      columns: 16, rowsPerSegment: 6,
    });
    for (const finger of ['Thumb', 'Index', 'Middle', 'Ring', 'Little'] as const) {
      const names: HumanoidBoneName[] = finger === 'Thumb'
        ? [`${side}ThumbMetacarpal`, `${side}ThumbProximal`, `${side}ThumbDistal`]
        : [`${side}${finger}Proximal`, `${side}${finger}Intermediate`, `${side}${finger}Distal`];
      const r = finger === 'Thumb' ? 0.012 : 0.009;
      tubes.push({
        tube: {
          points: [...names.map(at), tail(names[2])],
          radii: [[r, r], [r * 0.95, r * 0.95], [r * 0.88, r * 0.88], [r * 0.75, r * 0.75]],
          joints: names.map(bone),
          parentJoint: bone(`${side}Hand`),
        },
        columns: 8, rowsPerSegment: 3,
      });
    }
    tubes.push({
      tube: {
        points: [at(`${side}UpperLeg`), at(`${side}LowerLeg`), at(`${side}Foot`)],
        radii: [[0.075, 0.075], [0.05, 0.05], [0.035, 0.035]],
        joints: [bone(`${side}UpperLeg`), bone(`${side}LowerLeg`)],
        parentJoint: bone('hips'),
      },
      columns: 16, rowsPerSegment: 10,
    });
    const foot = at(`${side}Foot`);
    tubes.push({
      tube: {
        points: [[foot[0], 0.07, -0.04], at(`${side}Toes`), tail(`${side}Toes`)],
        radii: [[0.04, 0.035], [0.045, 0.02], [0.035, 0.015]],
        joints: [bone(`${side}Foot`), bone(`${side}Toes`)],
        parentJoint: bone(`${side}LowerLeg`),
      },
      columns: 12, rowsPerSegment: 5,
    });
  }
  return tubes;
}

type Part = { columns: number; rows: number; surface: SurfaceFunction };
type Radii = readonly [number, number];

/** A tube along a chain of joints: segment k on joint k, blending into `parent` at the start. */
function chainTube(names: readonly string[], parent: string, radii: (t: number) => Radii, columns: number, rowsPerSegment: number): Part {
  const points = names.map(avatarJointPosition);
  return {
    columns,
    ...createTubeSurface({
      points, radii: points.map((_, i) => radii(i / (points.length - 1))), joints: names.slice(0, -1).map(avatarJointIndex), parentJoint: avatarJointIndex(parent),
    }, rowsPerSegment),
  };
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

/** Hair strands (flat strips) and the two ears on their spring chains: the `Hair` mesh's second primitive. */
function hairStrandParts(): Part[] {
  return AVATAR_SPRINGS.filter((spring) => spring.name !== 'tail').map((spring) => spring.name.endsWith('Ear')
    ? chainTube(spring.joints, 'head', (t) => [lerp(0.03, 0.006, t), lerp(0.008, 0.004, t)], 10, 4)
    : chainTube(spring.joints, 'head', (t) => [lerp(0.018, 0.006, t), lerp(0.006, 0.003, t)], 8, 3));
}

/** The tail on its spring chain, thick at the hips. */
function tailPart(): Part {
  return chainTube(AVATAR_SPRINGS.find((spring) => spring.name === 'tail')!.joints, 'hips', (t) => [lerp(0.045, 0.012, t), lerp(0.045, 0.012, t)], 12, 3);
}

/**
 * The bracers on the constraint joints, per arm: a twist band (elliptical, so its roll shows), an elbow cuff and a
 * fin standing on the cuff along the arm, each rigid on its joint.
 */
function bracerParts(): Part[] {
  const parts: Part[] = [];
  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    const rigid = (name: string, points: [number, number, number][], radii: Radii[]): Part => ({
      columns: 16, ...createTubeSurface({ points, radii, joints: [avatarJointIndex(name)], parentJoint: -1 }, 4),
    });
    const y = AVATAR_BONES[bone(`${side}Hand`)].position[1];
    parts.push(
      rigid(`${side}ForearmTwist`, [[s * 0.5, y, 0], [s * 0.58, y, 0]], [[0.047, 0.036], [0.044, 0.033]]),
      rigid(`${side}ElbowCuff`, [[s * 0.44, y, 0], [s * 0.48, y, 0]], [[0.054, 0.05], [0.052, 0.048]]),
      rigid(`${side}CuffFin`, [[s * 0.465, y + 0.052, 0.01], [s * 0.56, y + 0.072, 0.01]], [[0.016, 0.003], [0.003, 0.002]]),
    );
  }
  return parts;
}

/** Options of {@link createAvatarMeshes}. */
export interface AvatarMeshOptions {
  /** Whether the parts on the secondary-motion joints (hair strands, ears, tail, bracers) are added. Default false. */
  readonly secondaryMotion?: boolean;
}

/** Head skin: the head joint, the chin and lower lip partly on the jaw so that opening the jaw moves them. */
function weighHead(p: Float64Array, joints: Uint16Array, weights: Float64Array): void {
  const jaw = 0.7 * Math.min(Math.max((1.49 - p[1]) / 0.03, 0), 1) * Math.min(Math.max(p[2] / 0.04, 0), 1);
  joints[0] = bone('head'); weights[0] = 1 - jaw;
  if (jaw > 0) { joints[1] = bone('jaw'); weights[1] = jaw; }
}

/** Builds one primitive from surfaces, with morph target deltas when `part` is given (the face mesh). */
function primitive(
  material: AvatarMaterialName,
  parts: readonly Part[],
  part: FacePart | null,
): AvatarPrimitive {
  const builder = new SkinnedMeshBuilder();
  for (const { columns, rows, surface } of parts) builder.addSurface(columns, rows, surface);
  const built = builder.build(0);
  const targets: Float32Array[] = [];
  if (part !== null) {
    const delta = new Float64Array(3);
    for (const target of FACE_MORPH_TARGETS) {
      const out = new Float32Array(built.positions.length);
      for (let v = 0; v < built.vertexCount; v++) {
        faceMorphDelta(delta, target, built.positions.subarray(3 * v, 3 * v + 3), part);
        out[3 * v] = delta[0]; out[3 * v + 1] = delta[1]; out[3 * v + 2] = delta[2];
      }
      targets.push(out);
    }
  }
  return {
    material,
    positions: built.positions,
    normals: built.normals,
    uvs: built.uvs!,
    joints: built.joints as Uint8Array,
    weights: built.weights!,
    indices: built.indices,
    targets,
  };
}

/**
 * The generated avatar's meshes in the bind pose (a T-pose facing +Z, metres; deterministic, no randomness):
 * - `Body`: torso, arms, hands with five three-joint fingers, legs and feet as tubes (material `Skin`), weights
 *   blending across every joint;
 * - `Face`: the head (`Skin`; chin partly on `jaw`), eyeballs (`Eye`) and pupils (`Pupil`) on the eye joints, and
 *   two cheek patches (`Cheek`) and a mouth patch (`Mouth`, partly on `jaw`), every primitive carrying the morph targets {@link FACE_MORPH_TARGETS};
 * - `Hair`: a cap over the head (`Hair`), shown in third person only;
 * - `NeckCap`: a disc closing the neck, shown in first person only.
 *
 * With `secondaryMotion`, on the extra joints (`AVATAR_EXTRA_JOINTS`): `Body` gets a second primitive, the
 * tail (`Hair`), and a third, the bracers (`Mouth`); `Hair` a second primitive, the hair strands and ears (`Hair`).
 */
export function createAvatarMeshes(options: AvatarMeshOptions = {}): AvatarMesh[] {
  const body = primitive('Skin', bodyTubes().map(({ tube, columns, rowsPerSegment }) => ({
    columns, ...createTubeSurface(tube, rowsPerSegment),
  })), null);
  const eyes = [bone('leftEye'), bone('rightEye')];
  const head = primitive('Skin', [{ columns: 32, rows: 24, surface: createEllipsoidSurface(24, HEAD_CENTRE, HEAD_RADII, weighHead) }], 'head');
  const eyeballs = primitive('Eye', eyes.map((joint) => ({
    columns: 16, rows: 12, surface: createEllipsoidSurface(12, AVATAR_BONES[joint].position, [EYE_RADIUS, EYE_RADIUS, EYE_RADIUS], only(joint)),
  })), 'eyeball');
  const pupils = primitive('Pupil', eyes.map((joint) => {
    const [x, y, z] = AVATAR_BONES[joint].position;
    return { columns: 8, rows: 6, surface: createEllipsoidSurface(6, [x, y, z + 0.0135], [0.0065, 0.0065, 0.003], only(joint)) };
  }), 'pupil');
  const cheeks = primitive('Cheek', CHEEKS.map((centre) => ({
    columns: 12, rows: 8, surface: createEllipsoidSurface(8, centre, [0.016, 0.01, 0.005], only(bone('head'))),
  })), 'cheek');
  const mouth = primitive('Mouth', [{
    columns: 16, rows: 8, surface: createEllipsoidSurface(8, [MOUTH[0], MOUTH[1], MOUTH[2] - 0.002], [0.02, 0.004, 0.006], weighHead),
  }], 'mouth');
  const hair = primitive('Hair', [{
    columns: 32, rows: 14,
    // Lower at the back than over the forehead: θ_max from 0.35π in front (+Z) to 0.65π behind.
    surface: createEllipsoidSurface(14, [0, 1.55, -0.008], [0.092, 0.09, 0.1], only(bone('head')), (u) => Math.PI * (0.5 + 0.15 * Math.sin(2 * Math.PI * u))),
  }], null);
  const neckCap = primitive('Skin', [{
    columns: 16, rows: 6, surface: createEllipsoidSurface(6, [0, 1.45, 0], [0.045, 0.004, 0.045], only(bone('neck'))),
  }], null);
  const secondary = options.secondaryMotion ?? false;
  const bodyPrimitives = secondary ? [body, primitive('Hair', [tailPart()], null), primitive('Mouth', bracerParts(), null)] : [body];
  const hairPrimitives = secondary ? [hair, primitive('Hair', hairStrandParts(), null)] : [hair];
  return [
    { name: 'Body', primitives: bodyPrimitives, targetNames: [] },
    { name: 'Face', primitives: [head, eyeballs, pupils, cheeks, mouth], targetNames: [...FACE_MORPH_TARGETS] },
    { name: 'Hair', primitives: hairPrimitives, targetNames: [] },
    { name: 'NeckCap', primitives: [neckCap], targetNames: [] },
  ];
}
