import type { GLTF } from '@gltf-transform/core';
import type { AvatarAsset, AvatarMeta, ExpressionOverride, FirstPersonType, LookAtRangeMap } from '../asset/avatar-asset.ts';
import type { SecondaryMotionAsset } from '../asset/secondary-motion-asset.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { HUMANOID_BONE_NAMES, REQUIRED_HUMANOID_BONES } from '../loaders/vrm/humanoid-bone-names.ts';

/**
 * `sinew inspect avatar.vrm --json`'s `avatar` field (docs/guide/cli.md): the VRM avatar as Sinew read it, in VRM
 * 1.0's words (0.x converted at load). Nodes are glTF node indices, as elsewhere in the report. Fields may be
 * added; existing ones keep their names and meaning.
 */
export interface AvatarInspection {
  /** `1.0` (`VRMC_vrm`) or `0.x` (the `VRM` extension, converted at load and turned to face +Z). */
  specVersion: '1.0' | '0.x';
  /** The licence and permissions (first, as a person must see them before using the avatar), then the rest of the meta. */
  meta: AvatarMeta;
  /** Humanoid bones the avatar maps, in VRM 1.0's bone order. */
  humanoid: { bone: string; node: number; name: string }[];
  /** Humanoid bones the rig lacks (optional ones: a file missing a required bone does not load). */
  missingBones: string[];
  /** Required bones among `missingBones` (always empty for a file that loaded; kept for scripts that check). */
  missingRequiredBones: string[];
  expressions: ExpressionInspection[];
  /** Null when the avatar has no look-at (or it was malformed and dropped with a warning). */
  lookAt: LookAtInspection | null;
  /** First-person annotations by mesh node (meshes not listed are `auto`). */
  firstPerson: { node: number; name: string; type: FirstPersonType }[];
  /**
   * Always empty now: Sinew reads every VRM part (MToon materials since issue 35: `ModelInspection.materials`;
   * spring bones and node constraints: {@link SecondaryMotionInspection}). Kept for scripts that check it.
   */
  ignoredUntilLater: string[];
}

/** One expression of {@link AvatarInspection}. */
export interface ExpressionInspection {
  name: string;
  /** The VRM 1.0 preset, or null for a custom expression. */
  preset: string | null;
  isBinary: boolean;
  overrideBlink: ExpressionOverride;
  overrideLookAt: ExpressionOverride;
  overrideMouth: ExpressionOverride;
  /** Number of morph target binds (a 0.x bind on a mesh counts once per node that carries it). */
  morphTargetBinds: number;
  materialColorBinds: number;
  textureTransformBinds: number;
}

/** The look-at of {@link AvatarInspection} (VRMC_vrm-1.0 `lookAt.md`). */
export interface LookAtInspection {
  type: 'bone' | 'expression';
  /** Metres, in the head bone's space. */
  offsetFromHeadBone: [number, number, number];
  /** The head-space direction the face looks along: (0, 0, 1), or (0, 0, −1) for VRM 0.x. */
  faceFront: [number, number, number];
  rangeMapHorizontalInner: LookAtRangeMap;
  rangeMapHorizontalOuter: LookAtRangeMap;
  rangeMapVerticalDown: LookAtRangeMap;
  rangeMapVerticalUp: LookAtRangeMap;
}

/** The licence and permission fields of {@link AvatarMeta}, in the order a report shows them first. */
export const LICENCE_FIELDS = [
  'licenseUrl', 'avatarPermission', 'commercialUsage', 'allowExcessivelyViolentUsage', 'allowExcessivelySexualUsage',
  'allowPoliticalOrReligiousUsage', 'allowAntisocialOrHateUsage', 'creditNotation', 'allowRedistribution', 'modification',
  'otherLicenseUrl',
] as const satisfies readonly (keyof AvatarMeta)[];

/**
 * The {@link AvatarInspection} of a loaded avatar: joints back to glTF nodes through `skeleton.sourceIndices`,
 * node names from the skeleton.
 */
export function inspectAvatar(avatar: AvatarAsset, skeleton: Skeleton, json: GLTF.IGLTF): AvatarInspection {
  const node = (joint: number) => skeleton.sourceIndices[joint];
  const name = (joint: number) => skeleton.names[joint] ?? '';
  const meta = Object.fromEntries([
    ...LICENCE_FIELDS.map((key) => [key, avatar.meta[key]]),
    ...Object.entries(avatar.meta).filter(([key]) => !(LICENCE_FIELDS as readonly string[]).includes(key)),
  ]) as unknown as AvatarMeta;
  const bones = avatar.humanoid.bones;
  const missingBones = HUMANOID_BONE_NAMES.filter((bone) => bones[bone] === undefined);
  const lookAt = avatar.lookAt;
  return {
    specVersion: avatar.specVersion,
    meta,
    humanoid: HUMANOID_BONE_NAMES.flatMap((bone) => {
      const joint = bones[bone];
      return joint === undefined ? [] : [{ bone, node: node(joint), name: name(joint) }];
    }),
    missingBones,
    missingRequiredBones: missingBones.filter((bone) => REQUIRED_HUMANOID_BONES.includes(bone)),
    expressions: avatar.expressions.map((e) => ({
      name: e.name, preset: e.preset, isBinary: e.isBinary,
      overrideBlink: e.overrideBlink, overrideLookAt: e.overrideLookAt, overrideMouth: e.overrideMouth,
      morphTargetBinds: e.morphTargetBinds.length, materialColorBinds: e.materialColorBinds.length, textureTransformBinds: e.textureTransformBinds.length,
    })),
    lookAt: lookAt === null ? null : {
      type: lookAt.type,
      offsetFromHeadBone: [...lookAt.offsetFromHeadBone],
      faceFront: lookAt.faceFront ? [...lookAt.faceFront] : [0, 0, 1],
      rangeMapHorizontalInner: { ...lookAt.rangeMapHorizontalInner },
      rangeMapHorizontalOuter: { ...lookAt.rangeMapHorizontalOuter },
      rangeMapVerticalDown: { ...lookAt.rangeMapVerticalDown },
      rangeMapVerticalUp: { ...lookAt.rangeMapVerticalUp },
    },
    firstPerson: avatar.firstPerson.meshAnnotations.map((a) => ({ node: node(a.node), name: name(a.node), type: a.type })),
    ignoredUntilLater: [],
  };
}

/**
 * `sinew inspect model --json`'s `secondaryMotion` field (docs/guide/cli.md): a summary of the spring bones
 * (VRMC_springBone 1.0, or VRM 0.x `secondaryAnimation` converted at load) and node constraints (VRMC_node_constraint
 * 1.0) as Sinew read them, for any glTF that has them. Nodes are glTF node indices. Fields may be added; existing
 * ones keep their names and meaning.
 */
export interface SecondaryMotionInspection {
  /** Null when the file has no spring bones (or none survived the loader's checks). */
  springBones: SpringBonesInspection | null;
  /** Node constraints by kind. */
  nodeConstraints: { roll: number; aim: number; rotation: number };
}

/** The spring bones of {@link SecondaryMotionInspection}. */
export interface SpringBonesInspection {
  /** Simulated joints of all springs (a joint with a tail: every joint but a 1.0 chain's last). */
  joints: number;
  /** Colliders by shape (`insideSphere`, `insideCapsule`: the extended collider's inside forms). */
  colliders: { sphere: number; capsule: number; plane: number; insideSphere: number; insideCapsule: number };
  colliderGroups: number;
  /** The springs in order: name, simulated joints, first joint's node and name, `center` node (null: none), collider groups. */
  springs: { name: string; joints: number; node: number; nodeName: string; center: number | null; colliderGroups: number }[];
}

/** The {@link SecondaryMotionInspection} of a loaded model's secondary motion: joints back to glTF nodes through `skeleton.sourceIndices`. */
export function inspectSecondaryMotion(motion: SecondaryMotionAsset, skeleton: Skeleton): SecondaryMotionInspection {
  const node = (joint: number) => skeleton.sourceIndices[joint];
  const byKind = { roll: 0, aim: 0, rotation: 0 };
  for (const c of motion.nodeConstraints) byKind[c.kind]++;
  const bone = motion.springBone;
  if (bone === null) return { springBones: null, nodeConstraints: byKind };
  const colliders = { sphere: 0, capsule: 0, plane: 0, insideSphere: 0, insideCapsule: 0 };
  for (const { shape } of bone.colliders) {
    if (shape.kind === 'plane') colliders.plane++;
    else if (shape.kind === 'sphere') colliders[shape.inside ? 'insideSphere' : 'sphere']++;
    else colliders[shape.inside ? 'insideCapsule' : 'capsule']++;
  }
  const springs = bone.springs.map((s) => ({
    name: s.name,
    joints: s.virtualTail === null ? s.joints.length - 1 : s.joints.length,
    node: node(s.joints[0].node),
    nodeName: skeleton.names[s.joints[0].node] ?? '',
    center: s.center < 0 ? null : node(s.center),
    colliderGroups: s.colliderGroups.length,
  }));
  return {
    springBones: { joints: springs.reduce((sum, s) => sum + s.joints, 0), colliders, colliderGroups: bone.colliderGroups.length, springs },
    nodeConstraints: byKind,
  };
}
