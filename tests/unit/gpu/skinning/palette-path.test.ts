import { describe, expect, it } from 'vitest';
import {
  maxPaletteJoints, maxUboJoints, maxUniformJoints, OTHER_VERTEX_UNIFORM_VECTORS, paletteCapacity, paletteStride, resolvePalettePath, type PaletteLimits,
} from '../../../../src/gpu/skinning/palette-path.ts';
import { SKINNING_MODES, WEIGHT_POLICIES } from '../../../../src/skinning/skinning-method.ts';
import { packPaletteRows } from '../../../../src/skinning/palette-rows.ts';
import { insertDefines } from '../../../../src/gpu/device/shader-program.ts';
import { MaterialFeature, featureDefines, variantDefines, variantId, variantKey } from '../../../../src/gpu/skinning/shader-variant.ts';

/** WebGL2's guaranteed minimums: 256 vertex uniform vectors, 16 KiB uniform blocks. */
const MINIMUM: PaletteLimits = { maxVertexUniformVectors: 256, maxUniformBlockSize: 16384 };
const LARGE: PaletteLimits = { maxVertexUniformVectors: 4096, maxUniformBlockSize: 65536 };

describe('palette path choice', () => {
  it('3 vectors per joint: a third more joints than mat4 in the same uniform budget', () => {
    expect(OTHER_VERTEX_UNIFORM_VECTORS).toBe(16);
    expect(maxUniformJoints(256)).toBe(80); // (256 − 16) / 3; a mat4 palette held 60
    expect(maxUboJoints(16384)).toBe(341); // 16384 / 48
    expect(maxUboJoints(65536)).toBe(1365);
    expect(maxPaletteJoints('texture', MINIMUM)).toBe(Infinity);
  });

  it('auto picks uniform, then ubo, then texture, by what holds the skin', () => {
    expect(resolvePalettePath('auto', 80, MINIMUM, 'm')).toBe('uniform');
    expect(resolvePalettePath('auto', 81, MINIMUM, 'm')).toBe('ubo');
    expect(resolvePalettePath('auto', 341, MINIMUM, 'm')).toBe('ubo');
    expect(resolvePalettePath('auto', 342, MINIMUM, 'm')).toBe('texture');
    expect(resolvePalettePath('auto', 0, MINIMUM, 'm')).toBe('uniform');
    expect(resolvePalettePath('auto', 1024, LARGE, 'm')).toBe('uniform');
    expect(resolvePalettePath('texture', 2, LARGE, 'm')).toBe('texture');
  });

  it('forcing uniform or ubo beyond its budget throws, naming the model and the budget', () => {
    expect(() => resolvePalettePath('uniform', 81, MINIMUM, 'big.glb')).toThrow(/big\.glb: a uniform palette of 81 joints does not fit .*MAX_VERTEX_UNIFORM_VECTORS 256.*80 joints/);
    expect(() => resolvePalettePath('ubo', 342, MINIMUM, 'big.glb')).toThrow(/big\.glb: a ubo palette of 342 joints does not fit .*MAX_UNIFORM_BLOCK_SIZE 16384.*341 joints/);
    expect(resolvePalettePath('uniform', 80, MINIMUM, 'm')).toBe('uniform');
    expect(resolvePalettePath('ubo', 341, MINIMUM, 'm')).toBe('ubo');
  });

  it("capacity rounds up to 16 and never exceeds the path's budget; the texture path has none", () => {
    expect(paletteCapacity('uniform', 1, LARGE)).toBe(16);
    expect(paletteCapacity('uniform', 19, LARGE)).toBe(32);
    expect(paletteCapacity('uniform', 79, MINIMUM)).toBe(80);
    expect(paletteCapacity('uniform', 0, LARGE)).toBe(1);
    expect(paletteCapacity('ubo', 330, MINIMUM)).toBe(336);
    expect(paletteCapacity('ubo', 340, MINIMUM)).toBe(341);
    expect(paletteCapacity('texture', 1000, MINIMUM)).toBe(0);
  });
});

describe('packed palette rows', () => {
  it('writes the upper 3 rows of each column-major 4×4, row-major 3×4', () => {
    // Joint 1: columns (1 2 3 0) (4 5 6 0) (7 8 9 0) (10 11 12 1).
    const palette = new Float32Array(32);
    palette.set([1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0, 10, 11, 12, 1], 16);
    const rows = packPaletteRows(new Float32Array(24), palette, 2);
    expect([...rows.subarray(12)]).toEqual([1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12]);
    expect([...rows.subarray(0, 12)]).toEqual(new Array(12).fill(0));
  });
});

describe('shader variants', () => {
  it('inserts #defines after the #version line', () => {
    const src = '#version 300 es\nvoid main() {}\n';
    expect(insertDefines(src, ['SKINNED', 'JOINT_COUNT 32'])).toBe('#version 300 es\n#define SKINNED\n#define JOINT_COUNT 32\nvoid main() {}\n');
    expect(insertDefines(src, [])).toBe(src);
    expect(() => insertDefines('#version 300 es', ['A'])).toThrow(/single line/);
  });

  it('names each variant by its defines', () => {
    const lbs = { skinning: 'lbs', weights: 'normalize' } as const;
    expect(variantDefines({ skinned: false, palettePath: 'texture', jointCapacity: 0, transformFeedback: false, ...lbs })).toEqual([]);
    expect(variantDefines({ skinned: true, palettePath: 'texture', jointCapacity: 0, transformFeedback: false, ...lbs }))
      .toEqual(['SKINNED', 'WEIGHTS_NORMALIZE', 'PALETTE_STRIDE 3', 'PALETTE_TEXTURE']);
    expect(variantDefines({ skinned: true, palettePath: 'ubo', jointCapacity: 48, transformFeedback: false, skinning: 'dqs', weights: 'rest-remainder' }))
      .toEqual(['SKINNED', 'WEIGHTS_REST_REMAINDER', 'SKINNING_DQS', 'PALETTE_STRIDE 4', 'PALETTE_UBO', 'JOINT_COUNT 48']);
    expect(variantKey({ skinned: true, palettePath: 'uniform', jointCapacity: 32, transformFeedback: true, skinning: 'lbs', weights: 'implicit-last' }))
      .toBe('SKINNED WEIGHTS_IMPLICIT_LAST PALETTE_STRIDE 3 JOINT_COUNT 32 VERTEX_TANGENT TF');
    expect(variantDefines({ skinned: false, palettePath: 'texture', jointCapacity: 0, transformFeedback: false, ...lbs, morphTargets: true })).toEqual(['MORPH_TARGETS']);
    expect(variantDefines({ skinned: true, palettePath: 'texture', jointCapacity: 0, transformFeedback: false, ...lbs, morphTargets: true }))
      .toEqual(['MORPH_TARGETS', 'SKINNED', 'WEIGHTS_NORMALIZE', 'PALETTE_STRIDE 3', 'PALETTE_TEXTURE']);
  });

  it('material features are fragment defines in bit order, named in the key after a bar', () => {
    expect(featureDefines(0)).toEqual([]);
    expect(featureDefines(MaterialFeature.NormalMap | MaterialFeature.EmissiveMap)).toEqual(['NORMAL_MAP', 'EMISSIVE_MAP', 'TEXCOORD']);
    expect(featureDefines(MaterialFeature.Unlit | MaterialFeature.VertexColor)).toEqual(['UNLIT', 'VERTEX_COLOR']);
    expect(featureDefines(511)).toEqual([
      'NORMAL_MAP', 'METALLIC_ROUGHNESS_MAP', 'OCCLUSION_MAP', 'EMISSIVE_MAP', 'UNLIT', 'BASE_COLOR_MAP', 'TEXCOORD_1', 'VERTEX_COLOR', 'VERTEX_TANGENT', 'TEXCOORD',
    ]);
    const rigid = { skinned: false, palettePath: 'uniform', jointCapacity: 0, transformFeedback: false, skinning: 'lbs', weights: 'normalize' } as const;
    expect(variantKey({ ...rigid, features: MaterialFeature.OcclusionMap })).toBe('TEXCOORD | OCCLUSION_MAP TEXCOORD');
  });

  it('the vertex shader computes only the outputs the draw reads; transform feedback always gets the tangent', () => {
    const rigid = { skinned: false, palettePath: 'uniform', jointCapacity: 0, transformFeedback: false, skinning: 'lbs', weights: 'normalize' } as const;
    expect(variantDefines(rigid)).toEqual([]);
    expect(variantDefines({ ...rigid, features: MaterialFeature.MetallicRoughnessMap | MaterialFeature.Unlit })).toEqual(['TEXCOORD']);
    expect(variantDefines({ ...rigid, features: MaterialFeature.BaseColorMap | MaterialFeature.TexCoord1 | MaterialFeature.VertexColor }))
      .toEqual(['TEXCOORD', 'TEXCOORD_1', 'VERTEX_COLOR']);
    expect(variantDefines({ ...rigid, features: MaterialFeature.NormalMap | MaterialFeature.VertexTangent })).toEqual(['TEXCOORD', 'VERTEX_TANGENT']);
    expect(variantDefines({ ...rigid, transformFeedback: true })).toEqual(['VERTEX_TANGENT']);
  });

  it('numbers variants without collisions', () => {
    const ids = new Set<number>();
    let count = 0;
    for (const skinned of [false, true]) for (const palette of ['uniform', 'texture', 'ubo'] as const)
      for (const capacity of [0, 16, 32]) for (const tf of [false, true]) for (const skinning of SKINNING_MODES) for (const weights of WEIGHT_POLICIES)
        for (const influences of [4, 8, 12] as const) for (const instancing of [false, true]) for (const morph of [false, true])
          for (const features of [0, 1, 5, 16, 31, 160, 511]) {
            if (!skinned && (palette !== 'uniform' || capacity !== 0 || skinning !== 'lbs' || weights !== 'normalize' || influences !== 4 || instancing)) continue;
            ids.add(variantId({
              skinned, palettePath: palette, jointCapacity: capacity, transformFeedback: tf, skinning, weights, influences, instanced: instancing, morphTargets: morph, features,
            }));
            count++;
          }
    expect(ids.size).toBe(count);
  });

  it('DQS takes 4 vectors per joint: fewer joints per path', () => {
    expect(paletteStride('lbs')).toBe(3);
    expect(paletteStride('dqs')).toBe(4);
    expect(maxUniformJoints(256, 4)).toBe(60);
    expect(maxUboJoints(16384, 4)).toBe(256);
    expect(resolvePalettePath('auto', 61, MINIMUM, 'm', 4)).toBe('ubo');
  });
});
