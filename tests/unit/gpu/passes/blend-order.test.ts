import { describe, expect, it } from 'vitest';
import type { MaterialAsset, ModelAsset } from '../../../../src/asset/model-asset.ts';
import { BLEND_QUEUE_DEFAULT, BlendOrder, blendQueueOf, writesDepthWhenBlended } from '../../../../src/gpu/passes/blend-order.ts';
import { mtoonMaterial } from '../../../browser/helpers/outlined-sphere.ts';

// VRMC_materials_mtoon-1.0 README "Render Queue": BLEND with transparentWithZWrite (offset 0…9) before BLEND without
// (offset −9…0), a higher offset later; within one queue, farthest first (glTF 2.0 §3.9.4).

function assetWith(materials: MaterialAsset[]): ModelAsset {
  return { materials } as unknown as ModelAsset;
}

const blend = (name: string, mtoon?: Parameters<typeof mtoonMaterial>[0]): MaterialAsset => ({
  name, baseColorFactor: [1, 1, 1, 0.5], baseColorTexture: -1, doubleSided: false, alphaMode: 'BLEND', ...(mtoon ? { mtoon: mtoonMaterial(mtoon) } : {}),
});

describe('blend order', () => {
  it('gives each BLEND material its queue as three-vrm numbers renderOrder, non-MToon as the specification assumes', () => {
    const asset = assetWith([
      blend('pbr'),
      blend('zwrite 0', { transparentWithZWrite: true }),
      blend('zwrite 9', { transparentWithZWrite: true, renderQueueOffsetNumber: 9 }),
      blend('plain −9', { renderQueueOffsetNumber: -9 }),
      blend('plain 0', {}),
    ]);
    expect([0, 1, 2, 3, 4].map((m) => blendQueueOf(asset, m))).toEqual([19, 0, 9, 10, 19]);
    expect(blendQueueOf(asset, 7)).toBe(BLEND_QUEUE_DEFAULT);
    expect([0, 1, 2, 3, 4].map((m) => writesDepthWhenBlended(asset, m))).toEqual([false, true, true, false, false]);
  });

  it('sorts by queue, lowest first, then farthest first, stably', () => {
    const order = new BlendOrder();
    // (instance, distance², queue)
    const entries = [[0, 4, 19], [1, 9, 19], [2, 1, 0], [3, 16, 10], [4, 25, 0], [5, 9, 19]] as const;
    for (const [i, d, q] of entries) order.push(i, 0, d, q);
    order.sort();
    expect(Array.from(order.order.subarray(0, order.count), (e) => order.instance[e])).toEqual([4, 2, 3, 1, 5, 0]);
  });

  it('grows past its first storage and keeps every entry', () => {
    const order = new BlendOrder();
    for (let i = 0; i < 20; i++) order.push(i, 0, i, i % 2 === 0 ? 0 : 19);
    order.sort();
    const drawn = Array.from(order.order.subarray(0, order.count), (e) => order.instance[e]);
    expect(drawn).toEqual([18, 16, 14, 12, 10, 8, 6, 4, 2, 0, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1]);
  });
});
