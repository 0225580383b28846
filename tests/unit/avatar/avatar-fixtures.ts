import type { AvatarAsset, ExpressionAsset, LookAtAsset, LookAtRangeMap } from '../../../src/asset/avatar-asset.ts';

/** An expression with no binds and no overrides, fields overridden by `fields`. */
export function expression(name: string, fields: Partial<ExpressionAsset> = {}): ExpressionAsset {
  const presets = new Set(['happy', 'angry', 'sad', 'relaxed', 'surprised', 'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight', 'lookUp', 'lookDown', 'lookLeft', 'lookRight', 'neutral']);
  return {
    name, preset: presets.has(name) ? (name as ExpressionAsset['preset']) : null, isBinary: false,
    overrideBlink: 'none', overrideLookAt: 'none', overrideMouth: 'none',
    morphTargetBinds: [], materialColorBinds: [], textureTransformBinds: [],
    ...fields,
  };
}

const range = (inputMaxValue: number, outputScale: number): LookAtRangeMap => ({ inputMaxValue, outputScale });

/** A look-at with distinct maps: inner 30°→10, outer 60°→20, down 40°→8, up 50°→12 (bone) or weights (expression). */
export function lookAtAsset(type: 'bone' | 'expression', offset: [number, number, number] = [0, 0.1, 0]): LookAtAsset {
  const scale = type === 'bone' ? 1 : 0.05;
  return {
    type, offsetFromHeadBone: offset,
    rangeMapHorizontalInner: range(30, 10 * scale), rangeMapHorizontalOuter: range(60, 20 * scale),
    rangeMapVerticalDown: range(40, 8 * scale), rangeMapVerticalUp: range(50, 12 * scale),
  };
}

/** An avatar around `expressions`, humanoid `bones`, look-at and first-person annotations as given. */
export function avatarAsset(expressions: ExpressionAsset[], bones: Record<string, number> = {}, lookAt: LookAtAsset | null = null, meshAnnotations: AvatarAsset['firstPerson']['meshAnnotations'] = []): AvatarAsset {
  return {
    specVersion: '1.0',
    meta: {
      name: 'test', version: '', authors: ['test'], copyrightInformation: '', contactInformation: '', references: [], thirdPartyLicenses: '',
      thumbnailImage: -1, licenseUrl: 'https://vrm.dev/licenses/1.0/', avatarPermission: 'everyone', allowExcessivelyViolentUsage: false,
      allowExcessivelySexualUsage: false, commercialUsage: 'personalNonProfit', allowPoliticalOrReligiousUsage: false,
      allowAntisocialOrHateUsage: false, creditNotation: 'required', allowRedistribution: false, modification: 'prohibited', otherLicenseUrl: '',
    },
    humanoid: { bones },
    expressions, lookAt, firstPerson: { meshAnnotations },
  };
}
