/**
 * MaterialValues' bases for MToon materials: the MToon colour targets (shadeColor, matcapColor, rimColor,
 * outlineColor) lerp from the material's own MToon factors (alpha 1), as three-vrm's VRMExpressionMaterialColorBind
 * drives shadeColorFactor, matcapFactor, parametricRimColorFactor and outlineColorFactor; and from a VRM 0.x file,
 * whose `_ShadeColor` / `_RimColor` / `_OutlineColor` expression values reach those targets.
 */
import { describe, expect, it } from 'vitest';
import type { MaterialAsset } from '../../../src/asset/model-asset.ts';
import type { MToonMaterialAsset } from '../../../src/asset/mtoon-material-asset.ts';
import { applyExpressions } from '../../../src/avatar/apply-expressions.ts';
import { ExpressionState } from '../../../src/avatar/expression-state.ts';
import { MaterialValues, colorTargetIndex } from '../../../src/avatar/material-values.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { expression } from './avatar-fixtures.ts';
import { smallVrm0 } from '../loaders/vrm/small-avatar.ts';

const mtoon = {
  transparentWithZWrite: false, renderQueueOffsetNumber: 0,
  shadeColorFactor: [0.25, 0.5, 0.75], shadingShiftFactor: 0, shadingShiftTextureScale: 1, shadingToonyFactor: 0.9, giEqualizationFactor: 0.9,
  matcapFactor: [0.5, 0.25, 0.125], parametricRimColorFactor: [0.125, 0.25, 0.5], parametricRimFresnelPowerFactor: 5, parametricRimLiftFactor: 0,
  rimLightingMixFactor: 1, outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.01, outlineColorFactor: [0.75, 0.5, 0.25],
  outlineLightingMixFactor: 1, uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
} satisfies MToonMaterialAsset;
const plain: MaterialAsset = { name: 'p', baseColorFactor: [0.8, 0.6, 0.4, 1], baseColorTexture: -1, doubleSided: false, emissiveFactor: [0.1, 0.2, 0.3] };
const toon: MaterialAsset = { ...plain, name: 't', mtoon };

const rgba = (values: MaterialValues, source: Float32Array, m: number, type: Parameters<typeof colorTargetIndex>[0]) => {
  const o = 24 * m + 4 * colorTargetIndex(type);
  return Array.from(source.subarray(o, o + 4));
};

describe('MaterialValues of MToon materials', () => {
  it('bases: the MToon factors with alpha 1; a material without MToon keeps (0, 0, 0, 1) for them', () => {
    const values = new MaterialValues([plain, toon]);
    expect(rgba(values, values.baseColors, 1, 'shadeColor')).toEqual([0.25, 0.5, 0.75, 1]);
    expect(rgba(values, values.baseColors, 1, 'matcapColor')).toEqual([0.5, 0.25, 0.125, 1]);
    expect(rgba(values, values.baseColors, 1, 'rimColor')).toEqual([0.125, 0.25, 0.5, 1]);
    expect(rgba(values, values.baseColors, 1, 'outlineColor')).toEqual([0.75, 0.5, 0.25, 1]);
    expect(rgba(values, values.baseColors, 1, 'color')).toEqual([0.800000011920929, 0.6000000238418579, 0.4000000059604645, 1]);
    for (const type of ['shadeColor', 'matcapColor', 'rimColor', 'outlineColor'] as const) {
      expect(rgba(values, values.baseColors, 0, type)).toEqual([0, 0, 0, 1]);
    }
    expect(Array.from(values.colors)).toEqual(Array.from(values.baseColors));
  });

  it('a shadeColor bind lerps from shadeColorFactor: base + (target − base)·w', () => {
    const values = new MaterialValues([plain, toon]);
    const state = new ExpressionState([expression('angry', { materialColorBinds: [{ material: 1, type: 'shadeColor', targetValue: [1, 0, 0, 1] }] })]);
    state.setExpression('angry', 0.5);
    state.resolve();
    applyExpressions(state, undefined, values);
    const expected = [0.25 + 0.75 * 0.5, 0.5 - 0.5 * 0.5, 0.75 - 0.75 * 0.5, 1];
    rgba(values, values.colors, 1, 'shadeColor').forEach((c, i) => expect(c).toBeCloseTo(expected[i], 6));
  });

  it('VRM 0.x: _ShadeColor, _RimColor and _OutlineColor expression values drive the converted MToon colours', async () => {
    const b = smallVrm0({
      materialProperties: [
        { name: 'Skin', shader: 'VRM/MToon', vectorProperties: { _ShadeColor: [0.5, 0.5, 0.5, 1], _RimColor: [1, 1, 1, 1], _OutlineColor: [0.5, 0, 0, 1] } },
        { name: 'Face', shader: 'VRM_USE_GLTFSHADER' },
      ],
      blendShapeMaster: { blendShapeGroups: [{ name: 'Angry', presetName: 'angry', materialValues: [
        { materialName: 'Skin', propertyName: '_ShadeColor', targetValue: [1, 0, 0, 1] },
        { materialName: 'Skin', propertyName: '_RimColor', targetValue: [0, 1, 0, 1] },
        { materialName: 'Skin', propertyName: '_OutlineColor', targetValue: [0, 0, 1, 1] },
      ] }] },
    });
    const asset = await parseGltf('old.vrm', b.glb());
    expect(asset.warnings).toEqual([]);
    const angry = asset.avatar!.expressions.find((e) => e.name === 'angry')!;
    expect(angry.materialColorBinds.map((bind) => [bind.material, bind.type])).toEqual([[0, 'shadeColor'], [0, 'rimColor'], [0, 'outlineColor']]);
    const values = new MaterialValues(asset.materials);
    // 0.x colours are gamma: the bases are 0.5^2.2 (shade), 1 (rim), (0.5^2.2, 0, 0) (outline).
    const g = Math.pow(0.5, 2.2);
    rgba(values, values.baseColors, 0, 'shadeColor').forEach((c, i) => expect(c).toBeCloseTo([g, g, g, 1][i], 6));
    expect(rgba(values, values.baseColors, 0, 'rimColor')).toEqual([1, 1, 1, 1]);
    rgba(values, values.baseColors, 0, 'outlineColor').forEach((c, i) => expect(c).toBeCloseTo([g, 0, 0, 1][i], 6));
  });
});
