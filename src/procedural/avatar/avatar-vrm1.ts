import type { Expression, FirstPersonMeshAnnotation, HumanoidHumanBones, VRMCVRM } from '@pixiv/types-vrmc-vrm-1.0';
import { AVATAR_BONES } from './avatar-bones.ts';
import { createAvatarDocument } from './avatar-document.ts';
import { AVATAR_EXPRESSIONS } from './avatar-expressions.ts';
import { FACE_MORPH_TARGETS } from './avatar-morphs.ts';
import {
  AVATAR_CC0_URL, AVATAR_FIRST_PERSON, AVATAR_LICENSE_URL, AVATAR_LOOK_AT_OFFSET, AVATAR_TITLE, avatarLookAtRangeMaps, type AvatarVrmOptions,
} from './avatar-vrm-options.ts';
import { addVrm1SecondaryMotion } from './avatar-secondary-vrm1.ts';
import { addExtension, indexByName, writeGlbWithJson, type GltfJson } from './glb-with-extension.ts';
import { AVATAR_TOON_EXPRESSION_BINDS } from './avatar-mtoon.ts';
import { addVrm1ToonMaterials } from './avatar-mtoon-vrm1.ts';

/**
 * The generated avatar as a VRM 1.0 file (`VRMC_vrm` 1.0, VRMC_vrm-1.0 specification), GLB bytes; the same bytes
 * on every call with the same options.
 *
 * - Body: a humanoid about 1.62 m tall in a T-pose facing +Z, its left on +X, metres, Y up; every joint's rest
 *   rotation the identity. Meshes `Body`, `Face` (with the 18 morph targets of the expressions), `Hair`, `NeckCap`,
 *   one skin over the 55 humanoid joints (and the secondary-motion joints after them); materials `Skin`, `Hair`, `Eye`, `Pupil`, `Mouth`, `Cheek` (with an 8 × 8 PNG unless
 *   `texture: false`).
 * - `meta`: the VRM Public License 1.0 (`licenseUrl`, which the specification requires) with CC0 1.0 as
 *   `otherLicenseUrl`; everyone may use it, commercially too, no credit needed, redistribution and
 *   modification allowed; violent, sexual, political and antisocial uses not allowed.
 * - `humanoid`: every humanoid bone, required and optional, on the joint node of that name.
 * - `expressions`: every preset but `neutral` and the custom `cheekPuff` (see {@link AVATAR_EXPRESSIONS}): morph
 *   target binds on the `Face` node, a `color` bind on `Cheek` (`angry`), a texture transform bind on `Cheek`
 *   (`cheekPuff`), `isBinary` on `blink`, and override rules on `happy`, `angry`, `sad` and `surprised`.
 * - `lookAt`: `options.lookAt` (default `bone`), `offsetFromHeadBone` (0, 0.095, 0.078) m, four distinct range maps.
 * - `firstPerson`: `Body` both, `Face` auto, `Hair` thirdPersonOnly, `NeckCap` firstPersonOnly.
 * - With `mtoon`: MToon materials (`VRMC_materials_mtoon` 1.0 and `KHR_materials_unlit` on each; see
 *   {@link addVrm1ToonMaterials} and `AVATAR_TOON_MATERIALS`) and the toon expression binds.
 * - Secondary motion (unless `secondaryMotion: false`): after the 55 humanoid joints, the joints of
 *   `AVATAR_SPRINGS` (twelve five-joint hair strands and two three-joint ears from the head, a ten-joint tail from
 *   the hips) and of `AVATAR_CONSTRAINTS` (a twist band, elbow cuff and fin per forearm), none a humanoid bone,
 *   with geometry skinned to them (`Hair` mesh: strands and ears; `Body` mesh: tail and bracers);
 *   `VRMC_springBone` 1.0 with the colliders of every shape (`VRMC_springBone_extended_collider` 1.0 for the
 *   plane and the inside ones) and `VRMC_node_constraint` 1.0 (roll → rotation → aim per arm); see
 *   {@link addVrm1SecondaryMotion}.
 */
export async function buildAvatarVrm1(options: AvatarVrmOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const lookAtType = options.lookAt ?? 'bone';
  const secondaryMotion = options.secondaryMotion ?? true;
  const mtoon = options.mtoon ?? false;
  const { document } = createAvatarDocument({
    facing: '+z', jointName: (bone) => bone, restRotations: 'identity', texture: options.texture ?? true, secondaryMotion, toon: mtoon,
  });
  return writeGlbWithJson(document, (json) => {
    addExtension(json, 'VRMC_vrm', vrm1Extension(json, lookAtType, mtoon));
    if (secondaryMotion) addVrm1SecondaryMotion(json);
    if (mtoon) addVrm1ToonMaterials(json);
  });
}

function vrm1Extension(json: GltfJson, lookAtType: 'bone' | 'expression', mtoon: boolean): VRMCVRM {
  const humanBones: HumanoidHumanBones = {};
  for (const bone of AVATAR_BONES) humanBones[bone.name] = { node: indexByName(json.nodes, bone.name) };
  const face = indexByName(json.nodes, 'Face');
  const preset: NonNullable<VRMCVRM['expressions']>['preset'] = {};
  const custom: Record<string, Expression> = {};
  for (const expression of AVATAR_EXPRESSIONS) {
    const toon = mtoon ? AVATAR_TOON_EXPRESSION_BINDS[expression.name] : undefined;
    // The schema type has a required `preset` that VRMC_vrm-1.0's expression schema does not: left out of the JSON.
    const entry = {
      morphTargetBinds: expression.morphs.map(([target, weight]) => ({ node: face, index: FACE_MORPH_TARGETS.indexOf(target), weight })),
      materialColorBinds: [...expression.colors.map((bind) => ({ ...bind, type: 'color' as const })), ...toon?.colors ?? []].map(({ material, type, targetValue }) => ({
        material: indexByName(json.materials, material), type, targetValue: [...targetValue],
      })),
      textureTransformBinds: [...expression.textureTransforms, ...toon?.textureTransforms ?? []].map(({ material, scale, offset }) => ({
        material: indexByName(json.materials, material), scale: [...scale], offset: [...offset],
      })),
      isBinary: expression.isBinary,
      overrideBlink: expression.overrideBlink,
      overrideLookAt: expression.overrideLookAt,
      overrideMouth: expression.overrideMouth,
    } satisfies Omit<Expression, 'preset'> as Expression;
    if (expression.preset) preset[expression.preset] = entry;
    else custom[expression.name] = entry;
  }
  const meshAnnotations: FirstPersonMeshAnnotation[] = Object.entries(AVATAR_FIRST_PERSON)
    .map(([name, type]) => ({ node: indexByName(json.nodes, name), type }));
  return {
    specVersion: '1.0',
    meta: {
      name: AVATAR_TITLE,
      version: '1.0',
      authors: ['Sinew'],
      copyrightInformation: 'Dedicated to the public domain (CC0 1.0)',
      contactInformation: '',
      references: [],
      thirdPartyLicenses: '',
      licenseUrl: AVATAR_LICENSE_URL,
      avatarPermission: 'everyone',
      allowExcessivelyViolentUsage: false,
      allowExcessivelySexualUsage: false,
      commercialUsage: 'corporation',
      allowPoliticalOrReligiousUsage: false,
      allowAntisocialOrHateUsage: false,
      creditNotation: 'unnecessary',
      allowRedistribution: true,
      modification: 'allowModificationRedistribution',
      otherLicenseUrl: AVATAR_CC0_URL,
    },
    humanoid: { humanBones },
    firstPerson: { meshAnnotations },
    lookAt: { type: lookAtType, offsetFromHeadBone: [...AVATAR_LOOK_AT_OFFSET], ...avatarLookAtRangeMaps(lookAtType) },
    expressions: { preset, custom },
  };
}
