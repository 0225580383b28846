import { describe, expect, it } from 'vitest';
import type { MaterialAsset } from '../../../src/asset/model-asset.ts';
import { applyExpressions, checkExpressionBinds } from '../../../src/avatar/apply-expressions.ts';
import { ExpressionState } from '../../../src/avatar/expression-state.ts';
import { MaterialValues } from '../../../src/avatar/material-values.ts';
import { createDrivenMaterialUniforms, writeDrivenMaterial } from '../../../src/gpu/shading/driven-material.ts';
import { expression } from './avatar-fixtures.ts';

const material = (fields: Partial<MaterialAsset> = {}): MaterialAsset => ({
  name: 'm', baseColorFactor: [0.8, 0.6, 0.4, 1], baseColorTexture: -1, doubleSided: false, ...fields,
});

describe('applyExpressions', () => {
  const expressions = [
    expression('happy', { morphTargetBinds: [{ morphWeight: 1, weight: 0.5 }, { morphWeight: 3, weight: 1 }], overrideMouth: 'block' }),
    expression('aa', { morphTargetBinds: [{ morphWeight: 1, weight: 1 }] }),
    expression('blink', { morphTargetBinds: [{ morphWeight: 0, weight: 0.8 }] }),
    expression('angry', {
      materialColorBinds: [{ material: 1, type: 'color', targetValue: [1, 0, 0, 0.5] }, { material: 1, type: 'emissionColor', targetValue: [0, 0, 1, 1] }],
    }),
    expression('sad', {
      materialColorBinds: [{ material: 1, type: 'color', targetValue: [0, 0, 1, 1] }],
      textureTransformBinds: [{ material: 0, scale: [2, 3], offset: [0.5, -0.25] }],
    }),
    expression('relaxed', { textureTransformBinds: [{ material: 0, scale: [1, 1], offset: [0.1, 0.1] }] }),
  ];
  const materials = [material(), material({ emissiveFactor: [0.2, 0.2, 0.2], emissiveStrength: 2 })];

  it('adds weight × bind weight to the pose\'s morph weights, after the overrides', () => {
    const state = new ExpressionState(expressions);
    const morph = new Float32Array([0.1, 0.2, 0, 0.05]);
    state.setExpression('happy', 0.6);
    state.setExpression('aa', 1); // blocked by happy's overrideMouth
    state.setExpression('blink', 0.5);
    state.resolve();
    applyExpressions(state, morph, null);
    [0.1 + 0.5 * 0.8, 0.2 + 0.6 * 0.5, 0, 0.05 + 0.6].forEach((w, i) => expect(morph[i]).toBeCloseTo(w, 6));
  });

  it('lerps colours from the base by each weight, summed (base + Σ (target − base)·w)', () => {
    const state = new ExpressionState(expressions);
    const values = new MaterialValues(materials);
    state.setExpression('angry', 0.5);
    state.setExpression('sad', 0.25);
    state.resolve();
    applyExpressions(state, undefined, values);
    const color = Array.from(values.colors.subarray(24, 28));
    // base (0.8, 0.6, 0.4, 1); angry → (1, 0, 0, 0.5) by 0.5; sad → (0, 0, 1, 1) by 0.25
    const expected = [0.8 + 0.2 * 0.5 - 0.8 * 0.25, 0.6 - 0.6 * 0.5 - 0.6 * 0.25, 0.4 - 0.4 * 0.5 + 0.6 * 0.25, 1 - 0.5 * 0.5];
    color.forEach((c, i) => expect(c).toBeCloseTo(expected[i], 6));
    const emission = Array.from(values.colors.subarray(28, 32));
    [0.2 - 0.2 * 0.5, 0.2 - 0.2 * 0.5, 0.2 + 0.8 * 0.5, 1].forEach((e, i) => expect(emission[i]).toBeCloseTo(e, 6));
    expect(Array.from(values.driven)).toEqual([1, 1]);
    // Material 1 on the GPU: those colours, emissive × strength 2; its textures untouched.
    const uniforms = writeDrivenMaterial(createDrivenMaterialUniforms(), materials[1], values, 1);
    Array.from(uniforms.baseColorFactor).forEach((c, i) => expect(c).toBeCloseTo(expected[i], 6));
    Array.from(uniforms.emissive).forEach((e, i) => expect(e).toBeCloseTo(2 * [0.1, 0.1, 0.6][i], 6));
    expect(Array.from(uniforms.uvTransforms.subarray(0, 9))).toEqual([1, -0, 0, 0, 1, 0, 0, 0, 1]);
    // Reset between frames: nothing set, nothing driven.
    state.reset();
    state.resolve();
    applyExpressions(state, undefined, values);
    expect(Array.from(values.colors)).toEqual(Array.from(values.baseColors));
    expect(Array.from(values.driven)).toEqual([0, 0]);
  });

  it('moves every texture\'s scale and offset by the texture transform binds (initial + Σ (target − initial)·w)', () => {
    const state = new ExpressionState(expressions);
    const values = new MaterialValues(materials);
    state.setExpression('sad', 0.5);
    state.setExpression('relaxed', 0.25);
    state.resolve();
    applyExpressions(state, undefined, values);
    [0.75, 0.5 * 2 + 0.25, 0.5 * 3 + 0.25, 0.25 + 0.025, -0.125 + 0.025].forEach((v, i) => expect(values.textureTransforms[i]).toBeCloseTo(v, 6));
    // Base colour texture with its own transform: offset (0.1, 0.2), scale (2, 2), rotation 0; normal texture: none.
    const textured = material({
      baseColorTexture: 0, baseColorUv: { texCoord: 0, transform: { offset: [0.1, 0.2], rotation: 0, scale: [2, 2] } },
      normalTexture: { image: 0, texCoord: 0 },
    });
    const uniforms = writeDrivenMaterial(createDrivenMaterialUniforms(), textured, values, 0);
    const keep = 0.25; // 1 − W
    const base = Array.from(uniforms.uvTransforms.subarray(0, 9));
    const sx = 2 * keep + 1.25, sy = 2 * keep + 1.75, ox = 0.1 * keep + 0.275, oy = 0.2 * keep - 0.1;
    [sx, -0, 0, 0, sy, 0, ox, oy, 1].forEach((v, i) => expect(base[i]).toBeCloseTo(v, 6));
    const normal = Array.from(uniforms.uvTransforms.subarray(18, 27));
    [keep + 1.25, -0, 0, 0, keep + 1.75, 0, 0.275, -0.1, 1].forEach((v, i) => expect(normal[i]).toBeCloseTo(v, 6));
  });

  it('refuses binds the model cannot take, naming the expression and the bind', () => {
    expect(() => checkExpressionBinds(expressions, 3, 2)).toThrow(/expression "happy" morphTargetBinds\/1: morph weight 3 is not one of the model's 3/);
    expect(() => checkExpressionBinds(expressions, 4, 1)).toThrow(/expression "angry" materialColorBinds\/0: material 1 is not one of the model's 1/);
    expect(() => checkExpressionBinds(expressions, 4, 2)).not.toThrow();
  });
});
