/**
 * MToon's GPU-side values (src/gpu/shading/model-materials.ts, driven-material.ts) and the expression values they
 * start from (src/avatar/material-values.ts), checked against numbers worked by hand: the UV animation's phase
 * (VRMC_materials_mtoon-1.0 README "UV Animation": speed × time, wrapped), the MToon colour bases, and what
 * expressions drive (colours, and the texture transform of every UV-sampled MToon texture but the matcap).
 */
import { describe, expect, it } from 'vitest';
import type { MaterialAsset } from '../../../../src/asset/model-asset.ts';
import type { MToonMaterialAsset } from '../../../../src/asset/mtoon-material-asset.ts';
import { MaterialValues } from '../../../../src/avatar/material-values.ts';
import { createDrivenMaterialUniforms, writeDrivenMaterial } from '../../../../src/gpu/shading/driven-material.ts';
import { MATERIAL_TEXTURES, MaterialTextureIndex, uvAnimationPhase } from '../../../../src/gpu/shading/model-materials.ts';

const MTOON: MToonMaterialAsset = {
  transparentWithZWrite: false, renderQueueOffsetNumber: 0, shadeColorFactor: [0.1, 0.2, 0.3], shadingShiftFactor: 0, shadingShiftTextureScale: 1,
  shadingToonyFactor: 0.9, giEqualizationFactor: 0.9, matcapFactor: [0.9, 0.8, 0.7], parametricRimColorFactor: [0.4, 0.5, 0.6], parametricRimFresnelPowerFactor: 5,
  parametricRimLiftFactor: 0, rimLightingMixFactor: 1, outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.01, outlineColorFactor: [0.05, 0.06, 0.07],
  outlineLightingMixFactor: 1, uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
  shadeMultiplyTexture: { image: 0, texCoord: 0, transform: { offset: [0.1, 0.2], rotation: 0, scale: [2, 2] } },
  matcapTexture: { image: 1, texCoord: 0, transform: { offset: [0.3, 0.3], rotation: 0, scale: [1, 1] } },
  uvAnimationMaskTexture: { image: 2, texCoord: 0 },
};
const material: MaterialAsset = { name: 'toon', baseColorFactor: [1, 1, 1, 1], baseColorTexture: -1, doubleSided: false, mtoon: MTOON };

describe('uvAnimationPhase', () => {
  it('is speed × time wrapped into [0, period): exact after hours, where f32 of the raw product is not', () => {
    expect(uvAnimationPhase(0.25, 3, 1)).toBeCloseTo(0.75, 12);
    expect(uvAnimationPhase(-0.25, 3, 1)).toBeCloseTo(0.25, 12);
    expect(uvAnimationPhase(1, 2 * Math.PI + 1, 2 * Math.PI)).toBeCloseTo(1, 12);
    // Ten hours at 0.37 UV/s: 13 320 units; the fraction is 0 (13 320 is whole).
    const hours = uvAnimationPhase(0.37, 36_000, 1);
    expect(Math.min(hours, 1 - hours)).toBeLessThan(1e-6);
    expect(uvAnimationPhase(0.5, 36_000.5, 1)).toBeCloseTo(0.25, 9);
  });
});

describe('MToon materials driven by expressions', () => {
  it('MaterialValues starts the MToon colours from the material (alpha 1), not from black', () => {
    const values = new MaterialValues([material]);
    expect(Array.from(values.baseColors.subarray(8, 24))).toEqual(
      [0.1, 0.2, 0.3, 1, 0.9, 0.8, 0.7, 1, 0.4, 0.5, 0.6, 1, 0.05, 0.06, 0.07, 1].map(Math.fround),
    );
  });

  it('writes the driven MToon colours and moves the MToon textures\' transforms, the matcap\'s kept', () => {
    const values = new MaterialValues([material]);
    values.colors.set([1, 0, 0, 1], 8); // shade
    values.colors.set([0, 1, 0, 1], 20); // outline
    // Texture transform binds: total weight 1, Σ w·scale = (3, 3), Σ w·offset = (0.5, 0).
    values.textureTransforms.set([1, 3, 3, 0.5, 0]);
    values.driven[0] = 1;
    const out = writeDrivenMaterial(createDrivenMaterialUniforms(), material, values, 0);
    expect(out.uvTransforms.length).toBe(9 * MATERIAL_TEXTURES);
    expect(Array.from(out.shadeColorFactor)).toEqual([1, 0, 0]);
    expect(Array.from(out.outlineColorFactor)).toEqual([0, 1, 0]);
    expect(Array.from(out.matcapFactor)).toEqual([0.9, 0.8, 0.7].map(Math.fround));
    // Shade multiply: its own (offset 0.1, 0.2; scale 2) kept by 1 − W = 0, plus the binds: scale 3, offset (0.5, 0).
    const shade = 9 * MaterialTextureIndex.ShadeMultiply;
    expect(Array.from(out.uvTransforms.subarray(shade, shade + 9), (x) => x + 0)).toEqual([3, 0, 0, 0, 3, 0, 0.5, 0, 1]);
    // The mask (no transform of its own) moves alike.
    const mask = 9 * MaterialTextureIndex.UvAnimationMask;
    expect(Array.from(out.uvTransforms.subarray(mask, mask + 9), (x) => x + 0)).toEqual([3, 0, 0, 0, 3, 0, 0.5, 0, 1]);
    // The matcap is sampled by the normal: its own transform, untouched by the binds.
    const matcap = 9 * MaterialTextureIndex.Matcap;
    expect(Array.from(out.uvTransforms.subarray(matcap, matcap + 9), (x) => x + 0)).toEqual([1, 0, 0, 0, 1, 0, 0.3, 0.3, 1].map(Math.fround));
  });
});
