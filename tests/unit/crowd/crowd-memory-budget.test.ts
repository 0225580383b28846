import { describe, expect, it } from 'vitest';
import { Crowd, crowdInstanceBytes } from '../../../src/crowd/crowd.ts';
import { crowdKernelInstanceBytes } from '../../../src/crowd/crowd-kernel.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { BAKED_BLOCK_TEXELS } from '../../../src/skinning/instance-blocks.ts';

// A crowd's per-instance arrays are checked against the memory budget (src/asset/memory-budget.ts) before
// they are allocated: a capacity typed with three zeros too many fails at once, naming the numbers.
describe('Crowd memory budget', () => {
  const worm = createWorm(WORM_800);

  it('counts what it allocates per instance (JavaScript backend)', () => {
    const crowd = new Crowd(worm, { capacity: 64, backend: 'js' });
    expect(crowd.kernel).toBeNull();
    const blockTexels = Math.max(crowd.blockTexels, BAKED_BLOCK_TEXELS);
    const held = crowd.clipIndices.byteLength + crowd.times.byteLength + crowd.speeds.byteLength + crowd.worlds.byteLength
      + crowd.worldBounds.byteLength + crowd.drawnInstances.byteLength + crowd.motion.prefixes.byteLength + crowd.motion.placements.byteLength
      + crowd.blendClipIndices.byteLength + crowd.blendTimes.byteLength + crowd.blendSpeeds.byteLength + crowd.blendWeights.byteLength + crowd.fadeRates.byteLength;
    // The blocks are padded to whole texture rows: at least the instances' texels, less than one row more.
    expect(held + 16 * blockTexels * 64).toBe(64 * crowdInstanceBytes(blockTexels));
    expect(crowd.blocks.byteLength).toBeGreaterThanOrEqual(16 * blockTexels * 64);
  });

  it('counts what the crowd kernel holds per instance, within its memory', () => {
    const capacity = 4096, crowd = new Crowd(worm, { capacity });
    const kernel = crowd.kernel!, blockTexels = Math.max(crowd.blockTexels, BAKED_BLOCK_TEXELS);
    const perInstance = crowdKernelInstanceBytes(crowd.model.clips);
    // The kernel's memory holds the model, clips and per-instance arrays (the blocks among them), in whole 64 KiB pages.
    const memory = kernel.blocks.buffer.byteLength;
    expect(memory).toBeGreaterThanOrEqual(capacity * (perInstance + 16 * blockTexels));
    // Beyond them, only the clip, time, blend, world, world box and order arrays that moved in.
    const moved = 2 + 8 + 2 + 8 + 4 + 64 + 48 + 4;
    expect(memory).toBeLessThan(capacity * (perInstance + 16 * blockTexels + moved) + 4 * 65536);
  });

  it('refuses a capacity past the budget before allocating, and accepts one within it', () => {
    const probe = new Crowd(worm, { capacity: 1 });
    const perInstance = crowdInstanceBytes(Math.max(probe.blockTexels, BAKED_BLOCK_TEXELS)) + crowdKernelInstanceBytes(probe.model.clips);
    const budget = 1024 * 1024; // 1 MiB
    const fits = Math.floor(budget / perInstance);
    expect(new Crowd(worm, { capacity: fits, memoryBudgetBytes: budget }).capacity).toBe(fits);
    expect(() => new Crowd(worm, { capacity: fits + 1, memoryBudgetBytes: budget }))
      .toThrow(new RangeError(`Crowd: ${fits + 1} instances of ${perInstance} bytes each exceed the memory budget of 1 MiB`));
    // The default budget, 512 MiB: a billion instances would need far more.
    expect(() => new Crowd(worm, { capacity: 1e9 })).toThrow(/exceed the memory budget of 512 MiB$/);
    expect(() => new Crowd(worm, { capacity: 4, memoryBudgetBytes: 0 })).toThrow(RangeError);
  });
});
