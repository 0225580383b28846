import type {
  ExpressionMaterialColorType,
  ExpressionPresetName,
  HumanoidHumanBoneName,
} from '@pixiv/types-vrmc-vrm-1.0';

/**
 * A humanoid bone of VRM 1.0 (VRMC_vrm-1.0 `humanoid.md`): the 55 names of `humanBones`, required and optional
 * (fingers, eyes, jaw, toes, upper chest). VRM 0.x files and rigs matched by name use the same names
 * (0.x's `leftThumbProximal`/`Intermediate`/`Distal` become 1.0's `leftThumbMetacarpal`/`Proximal`/`Distal`).
 */
export type HumanoidBoneName = HumanoidHumanBoneName;

/** A VRM 1.0 expression preset (VRMC_vrm-1.0 `expressions.md`); VRM 0.x presets are converted at load. */
export type ExpressionPreset = ExpressionPresetName;

/**
 * Which material colour an expression's colour bind drives (VRMC_vrm-1.0 `expressions.md` "Material Color
 * Bind"): `color` the base colour, `emissionColor`, `shadeColor`, `matcapColor`, `rimColor`, `outlineColor`
 * (the MToon ones take effect once the material is MToon).
 */
export type MaterialColorTarget = ExpressionMaterialColorType;

/** How an expression treats blink, look-at or mouth expressions while it is active (VRMC_vrm-1.0 `expressions.md`). */
export type ExpressionOverride = 'none' | 'block' | 'blend';

/**
 * The avatar of a VRM file: what VRM adds to the glTF model, both versions normalised to VRM 1.0 semantics.
 * Carried as {@link ModelAsset.avatar}; absent on models that are not avatars.
 */
export interface AvatarAsset {
  /** The file's VRM version: `'1.0'` (`VRMC_vrm`) or `'0.x'` (the `VRM` extension, converted at load). */
  readonly specVersion: '1.0' | '0.x';
  readonly meta: AvatarMeta;
  readonly humanoid: HumanoidMap;
  /** Presets and custom expressions, in file order; names are unique. */
  readonly expressions: readonly ExpressionAsset[];
  /** Null when the file has none (or it was malformed and dropped with a warning). */
  readonly lookAt: LookAtAsset | null;
  readonly firstPerson: FirstPersonAsset;
}

/**
 * The avatar's licence and permissions, in VRM 1.0's words (VRMC_vrm-1.0 `meta.md`). VRM 0.x meta is mapped onto
 * these fields at load (the loader's doc comment gives the table); a field 0.x cannot express keeps 1.0's default.
 */
export interface AvatarMeta {
  /** The avatar's title (0.x `title`). */
  readonly name: string;
  readonly version: string;
  readonly authors: readonly string[];
  readonly copyrightInformation: string;
  readonly contactInformation: string;
  readonly references: readonly string[];
  readonly thirdPartyLicenses: string;
  /** Index into {@link ModelAsset.images}, or −1. */
  readonly thumbnailImage: number;
  /** The licence's URL (0.x: the URL of the named licence, or its `otherLicenseUrl`). */
  readonly licenseUrl: string;
  readonly avatarPermission: 'onlyAuthor' | 'onlySeparatelyLicensedPerson' | 'everyone';
  readonly allowExcessivelyViolentUsage: boolean;
  readonly allowExcessivelySexualUsage: boolean;
  readonly commercialUsage: 'personalNonProfit' | 'personalProfit' | 'corporation';
  readonly allowPoliticalOrReligiousUsage: boolean;
  readonly allowAntisocialOrHateUsage: boolean;
  readonly creditNotation: 'required' | 'unnecessary';
  readonly allowRedistribution: boolean;
  readonly modification: 'prohibited' | 'allowModification' | 'allowModificationRedistribution';
  readonly otherLicenseUrl: string;
}

/**
 * Humanoid bone → skeleton joint (VRMC_vrm-1.0 `humanoid.md`). Every required bone is present (the loader refuses
 * a file without one); optional bones the rig lacks are absent. Each joint appears at most once.
 */
export interface HumanoidMap {
  readonly bones: Readonly<Partial<Record<HumanoidBoneName, number>>>;
}

/** One morph target an expression drives: an entry of {@link LocalPose.morphWeights} and its weight at full expression. */
export interface ExpressionMorphBind {
  /** Index into the pose's `morphWeights` (a mesh instance's `morphWeightOffset` + the target index). */
  readonly morphWeight: number;
  /** The morph weight at expression weight 1, in [0, 1] (0.x's 0–100 divided by 100). */
  readonly weight: number;
}

/** A material colour an expression drives towards `targetValue` (VRMC_vrm-1.0 `expressions.md`). */
export interface ExpressionColorBind {
  /** Index into {@link ModelAsset.materials}. */
  readonly material: number;
  readonly type: MaterialColorTarget;
  /** Linear RGBA at expression weight 1. */
  readonly targetValue: readonly [number, number, number, number];
}

/** A texture transform an expression drives (VRMC_vrm-1.0 `expressions.md` "Texture Transform Bind"). */
export interface ExpressionTextureTransformBind {
  /** Index into {@link ModelAsset.materials}. */
  readonly material: number;
  /** UV scale at expression weight 1 (default `[1, 1]`). */
  readonly scale: readonly [number, number];
  /** UV offset at expression weight 1 (default `[0, 0]`). */
  readonly offset: readonly [number, number];
}

/** A preset or custom expression (VRMC_vrm-1.0 `expressions.md`). */
export interface ExpressionAsset {
  /** The preset's name, or the custom expression's name. */
  readonly name: string;
  /** The preset, or null for a custom expression. */
  readonly preset: ExpressionPreset | null;
  /** Weights above 0.5 count as 1, the rest as 0. */
  readonly isBinary: boolean;
  readonly overrideBlink: ExpressionOverride;
  readonly overrideLookAt: ExpressionOverride;
  readonly overrideMouth: ExpressionOverride;
  readonly morphTargetBinds: readonly ExpressionMorphBind[];
  readonly materialColorBinds: readonly ExpressionColorBind[];
  readonly textureTransformBinds: readonly ExpressionTextureTransformBind[];
}

/** A look-at range map (VRMC_vrm-1.0 `lookAt.md`): input angle up to `inputMaxValue` degrees → `outputScale`. */
export interface LookAtRangeMap {
  /** Degrees, > 0. */
  readonly inputMaxValue: number;
  /** Degrees for `bone` look-at, expression weight for `expression` look-at. */
  readonly outputScale: number;
}

/** How the avatar's eyes follow a target (VRMC_vrm-1.0 `lookAt.md`). */
export interface LookAtAsset {
  /** `bone`: the eye bones turn; `expression`: the lookUp/Down/Left/Right expressions are weighted. */
  readonly type: 'bone' | 'expression';
  /** Metres, in the head bone's space: where the eyes look from. */
  readonly offsetFromHeadBone: readonly [number, number, number];
  readonly rangeMapHorizontalInner: LookAtRangeMap;
  readonly rangeMapHorizontalOuter: LookAtRangeMap;
  readonly rangeMapVerticalDown: LookAtRangeMap;
  readonly rangeMapVerticalUp: LookAtRangeMap;
  /**
   * The unit direction the face looks along at rest, in the head bone's space. Absent: +Z (VRM 1.0). VRM 0.x
   * avatars face −Z in their head's space, so (0, 0, −1) (three-vrm's `faceFront` for 0.x): the half turn at
   * load turns the whole model, not the head's frame.
   */
  readonly faceFront?: readonly [number, number, number];
}

/** Which view a mesh shows in (VRMC_vrm-1.0 `firstPerson.md`). */
export type FirstPersonType = 'auto' | 'both' | 'thirdPersonOnly' | 'firstPersonOnly';

/** First-person annotations (VRMC_vrm-1.0 `firstPerson.md`). */
export interface FirstPersonAsset {
  /** Per annotated mesh node: its skeleton joint and type. Meshes not listed are `auto`. */
  readonly meshAnnotations: readonly { readonly node: number; readonly type: FirstPersonType }[];
}
