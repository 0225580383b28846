import type { BlendShapeGroup, BlendShapePresetName, FirstPersonDegreeMap, HumanoidBoneName as V0BoneName, VRM } from '@pixiv/types-vrm-0.0';
import type { ExpressionPreset, HumanoidBoneName, LookAtRangeMap } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES } from './avatar-bones.ts';
import { createAvatarDocument } from './avatar-document.ts';
import { AVATAR_EXPRESSIONS } from './avatar-expressions.ts';
import { FACE_MORPH_TARGETS } from './avatar-morphs.ts';
import { AVATAR_FIRST_PERSON, AVATAR_LOOK_AT_OFFSET, AVATAR_TITLE, avatarLookAtRangeMaps, type AvatarVrmOptions } from './avatar-vrm-options.ts';
import { vrm0SecondaryAnimation } from './avatar-secondary-vrm0.ts';
import { addExtension, indexByName, writeGlbWithJson, type GltfJson } from './glb-with-extension.ts';
import { AVATAR_TOON_EXPRESSION_BINDS } from './avatar-mtoon.ts';
import { vrm0ToonMaterialProperties } from './avatar-mtoon-vrm0.ts';

/** VRM 1.0 preset → VRM 0.x `presetName` (the inverse of three-vrm's 0.x → 1.0 table); `surprised` has none. */
const V0_PRESETS: Partial<Record<ExpressionPreset, BlendShapePresetName>> = {
  aa: 'a', ih: 'i', ou: 'u', ee: 'e', oh: 'o', blink: 'blink', happy: 'joy', angry: 'angry', sad: 'sorrow', relaxed: 'fun',
  lookUp: 'lookup', lookDown: 'lookdown', lookLeft: 'lookleft', lookRight: 'lookright', blinkLeft: 'blink_l', blinkRight: 'blink_r',
};

/** VRM 1.0 bone name → 0.x: the thumb's three joints are named one step further along in 0.x. */
function v0BoneName(bone: HumanoidBoneName): V0BoneName {
  const thumb = /^(left|right)Thumb(Metacarpal|Proximal|Distal)$/.exec(bone);
  if (!thumb) return bone as V0BoneName;
  const renamed = { Metacarpal: 'Proximal', Proximal: 'Intermediate', Distal: 'Distal' }[thumb[2]];
  return `${thumb[1]}Thumb${renamed}` as V0BoneName;
}

const FIRST_PERSON_FLAGS = { both: 'Both', auto: 'Auto', thirdPersonOnly: 'ThirdPersonOnly', firstPersonOnly: 'FirstPersonOnly' } as const;

/** A VRM 1.0 range map as a 0.x degree map with the linear curve (three-vrm reads xRange as input, yRange as output). */
const degreeMap = (map: LookAtRangeMap): FirstPersonDegreeMap => ({ curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: map.inputMaxValue, yRange: map.outputScale });

/**
 * The generated avatar of {@link buildAvatarVrm1} as a VRM 0.x file (the `VRM` extension, specVersion 0.0), GLB
 * bytes, deterministic. As 0.x files are, it faces −Z: every position, normal and morph delta turned 180° about Y
 * (x → −x, z → −z), so the avatar's left is on −X; readers turn it back (three-vrm's `VRMUtils.rotateVRM0`).
 *
 * - `meta`: `licenseName` CC0, `allowedUserName` Everyone, commercial use allowed, violent and sexual use disallowed.
 * - `humanoid`: every bone under its 0.x name (the thumb's metacarpal/proximal/distal are 0.x's
 *   proximal/intermediate/distal), `useDefaultValues`.
 * - `blendShapeMaster`: the same expressions with 0.x `presetName`s; `surprised` (no 0.x preset) and `cheekPuff` are
 *   `unknown`, named; bind weights 0–100 on the `Face` mesh; `materialValues` `_Color` (angry) and `_MainTex_ST`
 *   (cheekPuff; 0.x's V offset measured from the top: 1 − offsetY − scaleY). 0.x has no override rules.
 * - `firstPerson`: `firstPersonBone` the head, `firstPersonBoneOffset` in 0.x's Unity-side axes (z forward; three-vrm
 *   negates z, giving the 1.0 file's offset turned with the avatar), the mesh annotations by mesh, `lookAtTypeName`
 *   Bone or BlendShape and the four degree maps with the linear curve.
 * - With `mtoon`: `materialProperties`, every material `VRM/MToon` ({@link vrm0ToonMaterialProperties}), and the
 *   toon expression binds as `_ShadeColor`, `_RimColor` and `_MainTex_ST` material values.
 * - `secondaryAnimation` (unless `secondaryMotion: false`): the 1.0 file's joints, geometry and springs as bone
 *   groups with sphere colliders ({@link vrm0SecondaryAnimation}); the bracer joints without constraints (0.x has
 *   none).
 */
export async function buildAvatarVrm0(options: AvatarVrmOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const lookAtType = options.lookAt ?? 'bone';
  const secondaryMotion = options.secondaryMotion ?? true;
  const mtoon = options.mtoon ?? false;
  const { document } = createAvatarDocument({
    facing: '-z', jointName: (bone) => bone, restRotations: 'identity', texture: options.texture ?? true, secondaryMotion, toon: mtoon,
  });
  return writeGlbWithJson(document, (json) => addExtension(json, 'VRM', vrm0Extension(json, lookAtType, secondaryMotion, mtoon)));
}

/** 0.x `materialValues` property of an MToon colour (three-vrm's table of 0.x names). */
const V0_COLOR_PROPERTIES = { color: '_Color', shadeColor: '_ShadeColor', rimColor: '_RimColor' } as const;

function vrm0Extension(json: GltfJson, lookAtType: 'bone' | 'expression', secondaryMotion: boolean, mtoon: boolean): VRM {
  const faceMesh = indexByName(json.meshes, 'Face');
  const blendShapeGroups: BlendShapeGroup[] = AVATAR_EXPRESSIONS.map((expression) => {
    const toon = mtoon ? AVATAR_TOON_EXPRESSION_BINDS[expression.name] : undefined;
    return {
      name: expression.name,
      presetName: (expression.preset && V0_PRESETS[expression.preset]) || 'unknown',
      binds: expression.morphs.map(([target, weight]) => ({ mesh: faceMesh, index: FACE_MORPH_TARGETS.indexOf(target), weight: 100 * weight })),
      materialValues: [
        ...[...expression.colors.map((bind) => ({ ...bind, type: 'color' as const })), ...toon?.colors ?? []].map(({ material, type, targetValue }) => ({
          materialName: material, propertyName: V0_COLOR_PROPERTIES[type], targetValue: [...targetValue],
        })),
        ...[...expression.textureTransforms, ...toon?.textureTransforms ?? []].map(({ material, scale, offset }) => ({
          materialName: material, propertyName: '_MainTex_ST', targetValue: [scale[0], scale[1], offset[0], 1 - offset[1] - scale[1]],
        })),
      ],
      isBinary: expression.isBinary,
    };
  });
  const maps = avatarLookAtRangeMaps(lookAtType);
  const [ox, oy, oz] = AVATAR_LOOK_AT_OFFSET;
  return {
    exporterVersion: 'Sinew generated avatar',
    specVersion: '0.0',
    meta: {
      title: AVATAR_TITLE,
      version: '1.0',
      author: 'Sinew',
      contactInformation: '',
      reference: '',
      allowedUserName: 'Everyone',
      violentUssageName: 'Disallow',
      sexualUssageName: 'Disallow',
      commercialUssageName: 'Allow',
      otherPermissionUrl: '',
      licenseName: 'CC0',
      otherLicenseUrl: '',
    },
    humanoid: {
      humanBones: AVATAR_BONES.map((bone) => ({ bone: v0BoneName(bone.name), node: indexByName(json.nodes, bone.name), useDefaultValues: true })),
      armStretch: 0.05, legStretch: 0.05, upperArmTwist: 0.5, lowerArmTwist: 0.5, upperLegTwist: 0.5, lowerLegTwist: 0.5,
      feetSpacing: 0, hasTranslationDoF: false,
    },
    blendShapeMaster: { blendShapeGroups },
    firstPerson: {
      firstPersonBone: indexByName(json.nodes, 'head'),
      // Unity-side axes: z negated from the turned (−Z-facing) file's, whose x and z are the 1.0 offset's negated.
      firstPersonBoneOffset: { x: -ox, y: oy, z: oz },
      meshAnnotations: Object.entries(AVATAR_FIRST_PERSON).map(([name, type]) => ({ mesh: indexByName(json.meshes, name), firstPersonFlag: FIRST_PERSON_FLAGS[type] })),
      lookAtTypeName: lookAtType === 'bone' ? 'Bone' : 'BlendShape',
      lookAtHorizontalInner: degreeMap(maps.rangeMapHorizontalInner),
      lookAtHorizontalOuter: degreeMap(maps.rangeMapHorizontalOuter),
      lookAtVerticalDown: degreeMap(maps.rangeMapVerticalDown),
      lookAtVerticalUp: degreeMap(maps.rangeMapVerticalUp),
    },
    ...(secondaryMotion ? { secondaryAnimation: vrm0SecondaryAnimation(json) } : {}),
    ...(mtoon ? { materialProperties: vrm0ToonMaterialProperties(json) } : {}),
  };
}
