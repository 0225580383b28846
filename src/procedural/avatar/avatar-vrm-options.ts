import type { LookAtRangeMap } from '../../asset/avatar-asset.ts';

/** Options of {@link buildAvatarVrm1} and {@link buildAvatarVrm0}. */
export interface AvatarVrmOptions {
  /** How the eyes follow a target: `bone` turns the eye joints, `expression` weights lookUp/Down/Left/Right. Default `bone`. */
  readonly lookAt?: 'bone' | 'expression';
  /**
   * Whether the cheek material carries its small PNG texture, and with `mtoon` the toon materials theirs (default
   * true; a texture-less file suits readers without an image decoder).
   */
  readonly texture?: boolean;
  /**
   * Whether the avatar carries its secondary motion (default true): the spring chains (hair strands, tail, ears),
   * the colliders and, in VRM 1.0, the node constraints (bracers), with the joints and geometry they move. False
   * gives the 55-joint avatar without them.
   */
  readonly secondaryMotion?: boolean;
  /**
   * Whether the avatar is drawn in MToon (default false: glTF PBR materials, as before): the toon materials of
   * `AVATAR_TOON_MATERIALS` (the bracers on their own `Bracer` material), written as `VRMC_materials_mtoon` 1.0
   * with `KHR_materials_unlit` (VRM 1.0) or as `VRM/MToon` `materialProperties` (VRM 0.x), with their textures
   * unless `texture: false`; `angry` and `cheekPuff` also drive MToon colours and the bracers' texture transform
   * (`AVATAR_TOON_EXPRESSION_BINDS`).
   */
  readonly mtoon?: boolean;
}

/** The avatar's title (VRM 1.0 `meta.name`, 0.x `meta.title`). */
export const AVATAR_TITLE = 'Sinew generated avatar';
/**
 * VRM 1.0's `licenseUrl` must name the VRM Public License (VRMC_vrm-1.0 `meta.md`; three-vrm refuses any other URL),
 * whose permission fields then say what is allowed; the avatar's own licence, CC0 1.0, goes in `otherLicenseUrl`.
 */
export const AVATAR_LICENSE_URL = 'https://vrm.dev/licenses/1.0/';
/** CC0 1.0: the avatar is made in code and dedicated to the public domain. */
export const AVATAR_CC0_URL = 'https://creativecommons.org/publicdomain/zero/1.0/';
/** Metres, in the head joint's space (facing +Z): the point between the eyes. */
export const AVATAR_LOOK_AT_OFFSET: readonly [number, number, number] = [0, 0.095, 0.078];

/**
 * The four look-at range maps (VRMC_vrm-1.0 `lookAt.md`), each with its own values so that a reader swapping two is
 * caught: degrees in, degrees (bone) or expression weight (expression) out.
 */
export function avatarLookAtRangeMaps(type: 'bone' | 'expression'): {
  rangeMapHorizontalInner: LookAtRangeMap; rangeMapHorizontalOuter: LookAtRangeMap;
  rangeMapVerticalDown: LookAtRangeMap; rangeMapVerticalUp: LookAtRangeMap;
} {
  const bone = type === 'bone';
  return {
    rangeMapHorizontalInner: { inputMaxValue: 90, outputScale: bone ? 8 : 0.9 },
    rangeMapHorizontalOuter: { inputMaxValue: 80, outputScale: bone ? 12 : 1 },
    rangeMapVerticalDown: { inputMaxValue: 70, outputScale: bone ? 10 : 0.8 },
    rangeMapVerticalUp: { inputMaxValue: 60, outputScale: bone ? 14 : 0.7 },
  };
}

/** First-person annotation of each avatar mesh (VRMC_vrm-1.0 `firstPerson.md`). */
export const AVATAR_FIRST_PERSON = { Body: 'both', Face: 'auto', Hair: 'thirdPersonOnly', NeckCap: 'firstPersonOnly' } as const;
