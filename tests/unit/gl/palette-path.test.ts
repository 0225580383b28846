import { describe, expect, it } from 'vitest';
import { maxUniformJoints, OTHER_VERTEX_UNIFORM_VECTORS, resolvePalettePath, uniformJointCapacity } from '../../../src/gl/palette-path.ts';
import { insertDefines } from '../../../src/gl/shader-program.ts';
import { variantDefines, variantKey } from '../../../src/gl/shader-variant.ts';

describe('palette path choice', () => {
  it('auto picks uniform exactly while 4·joints + 16 ≤ MAX_VERTEX_UNIFORM_VECTORS', () => {
    expect(OTHER_VERTEX_UNIFORM_VECTORS).toBe(16);
    expect(maxUniformJoints(256)).toBe(60);
    expect(resolvePalettePath('auto', 60, 256, 'm')).toBe('uniform');
    expect(resolvePalettePath('auto', 61, 256, 'm')).toBe('texture');
    expect(resolvePalettePath('auto', 0, 256, 'm')).toBe('uniform');
    expect(resolvePalettePath('texture', 2, 4096, 'm')).toBe('texture');
  });

  it('forcing uniform beyond the budget throws, naming the model and the budget', () => {
    expect(() => resolvePalettePath('uniform', 61, 256, 'big.glb')).toThrow(/big\.glb: a uniform palette of 61 joints does not fit .*256.*60 joints/);
    expect(resolvePalettePath('uniform', 60, 256, 'm')).toBe('uniform');
  });

  it('uniform capacity rounds up to 16 and never exceeds the budget', () => {
    expect(uniformJointCapacity(1, 1024)).toBe(16);
    expect(uniformJointCapacity(19, 1024)).toBe(32);
    expect(uniformJointCapacity(59, 256)).toBe(60);
    expect(uniformJointCapacity(0, 1024)).toBe(1);
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
    expect(variantDefines({ skinned: false, palette: 'texture', jointCapacity: 0, transformFeedback: false })).toEqual([]);
    expect(variantDefines({ skinned: true, palette: 'texture', jointCapacity: 0, transformFeedback: false })).toEqual(['SKINNED', 'PALETTE_TEXTURE']);
    expect(variantKey({ skinned: true, palette: 'uniform', jointCapacity: 32, transformFeedback: true })).toBe('SKINNED JOINT_COUNT 32 TF');
  });
});
