import { describe, expect, it } from 'vitest';
import { createShaderVariant, normalizeShaderVariant, variantId, variantKey, type ShaderVariant } from '../../../../src/gpu/skinning/shader-variant.ts';

/** A skinned, non-instanced variant with every field off its default, so each field can be changed alone. */
function base(): Required<ShaderVariant> {
  return {
    skinned: true, palettePath: 'ubo', jointCapacity: 32, transformFeedback: false, skinning: 'lbs', weights: 'normalize',
    influences: 4, instanced: false, morphTargets: false, features: 1, weightView: false,
  };
}

/** The id `ProgramCache.get` looks a variant up by: its normalised form's. */
function cacheId(variant: ShaderVariant): number {
  return variantId(normalizeShaderVariant(createShaderVariant(), variant));
}

function cacheKey(variant: ShaderVariant): string {
  return variantKey(normalizeShaderVariant(createShaderVariant(), variant));
}

describe('shader variant ids', () => {
  it('a variant differing from another in any one field gets another id and key', () => {
    const changes: Partial<ShaderVariant>[] = [
      { skinned: false }, { palettePath: 'uniform' }, { palettePath: 'texture' }, { jointCapacity: 48 }, { transformFeedback: true },
      { skinning: 'dqs' }, { weights: 'as-stored' }, { weights: 'rest-remainder' }, { weights: 'implicit-last' },
      { influences: 8 }, { influences: 12 }, { instanced: true }, { morphTargets: true }, { features: 2 }, { weightView: true },
    ];
    const reference = base();
    const ids = new Set([cacheId(reference)]);
    const keys = new Set([cacheKey(reference)]);
    for (const change of changes) {
      const variant = { ...base(), ...change };
      expect(cacheId(variant), JSON.stringify(change)).not.toBe(cacheId(reference));
      expect(cacheKey(variant), JSON.stringify(change)).not.toBe(cacheKey(reference));
      ids.add(cacheId(variant));
      keys.add(cacheKey(variant));
    }
    expect(ids.size).toBe(changes.length + 1);
    expect(keys.size).toBe(changes.length + 1);
  });

  it('equal variants, however made, hit the same program', () => {
    const reused = createShaderVariant();
    Object.assign(reused, base());
    expect(cacheId(reused)).toBe(cacheId(base()));
    expect(cacheKey(reused)).toBe(cacheKey(base()));
    // Optional fields left out read as their defaults.
    const sparse: ShaderVariant = { skinned: true, palettePath: 'ubo', jointCapacity: 32, transformFeedback: false, skinning: 'lbs', weights: 'normalize', features: 1 };
    expect(cacheId(sparse)).toBe(cacheId(base()));
  });

  it('normalises the fields a variant ignores', () => {
    // Instanced reads the instance texture: no palette path or capacity of its own.
    const instanced = { ...base(), instanced: true };
    expect(normalizeShaderVariant(createShaderVariant(), instanced)).toMatchObject({ palettePath: 'texture', jointCapacity: 0, instanced: true });
    expect(cacheId({ ...instanced, palettePath: 'uniform', jointCapacity: 16 })).toBe(cacheId(instanced));
    // The texture path has no compiled capacity.
    expect(cacheId({ ...base(), palettePath: 'texture', jointCapacity: 48 })).toBe(cacheId({ ...base(), palettePath: 'texture', jointCapacity: 0 }));
    // Rigid: no path, capacity, method, influence count or instancing.
    const rigid = { ...base(), skinned: false };
    expect(cacheId({ ...rigid, palettePath: 'texture', jointCapacity: 0, skinning: 'dqs', weights: 'as-stored', influences: 12, instanced: true }))
      .toBe(cacheId(rigid));
    // Material features only matter to lit.frag.
    expect(cacheId({ ...base(), transformFeedback: true, features: 0 })).toBe(cacheId({ ...base(), transformFeedback: true, features: 511 }));
    expect(cacheId({ ...base(), weightView: true, features: 0 })).toBe(cacheId({ ...base(), weightView: true, features: 3 }));
  });

  it('normalises in place without changing a canonical variant', () => {
    const variant = base();
    const before = { ...variant };
    expect(normalizeShaderVariant(variant, variant)).toBe(variant);
    expect(variant).toEqual(before);
  });
});
