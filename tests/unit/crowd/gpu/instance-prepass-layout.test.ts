import { describe, expect, it } from 'vitest';
import { Crowd } from '../../../../src/crowd/crowd.ts';
import { emptyPrepassLayout, needsPrepass, prepassLayout } from '../../../../src/crowd/gpu/instance-prepass.ts';
import { createWorm, WORM_800 } from '../../../../src/procedural/worm.ts';
import { withRigidProp } from '../../../browser/helpers/rigid-prop.ts';
import { BAKED_BLOCK_TEXELS } from '../../../../src/skinning/instance-blocks.ts';

// What the crowd's per-frame pass writes (src/crowd/gpu/instance-prepass.ts): which pose texels it folds the world
// matrix into (LBS: every joint and rigid node; DQS: rigid nodes only), where a baked DQS pose's rotations end,
// and when live blocks need no pass. Offsets hand-computed from the worm's 16 joints and one rigid box
// (src/skinning/instance-blocks.ts: skins' palettes, then rigid nodes, stride 3 or 4). The pass's output is
// proven against the CPU pose by tests/browser/crowd/crowd-parity.spec.ts.

const LBS = { skinning: 'lbs', weights: 'normalize' } as const;
const DQS = { skinning: 'dqs', weights: 'normalize' } as const;

function crowdOf(method: typeof LBS | typeof DQS, prop: boolean, mode: 'live' | 'baked'): Crowd {
  const worm = createWorm(WORM_800);
  const crowd = new Crowd(prop ? withRigidProp(worm, 4, 0.25, [0.3, 0.1, 0]) : worm, { capacity: 2, mode, method });
  crowd.add(0, 0, 1, new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
  if (mode === 'baked') crowd.bakedClipsOrBake();
  crowd.prepare(null);
  return crowd;
}

describe('prepassLayout', () => {
  it('LBS folds every joint and rigid node, live and baked', () => {
    for (const mode of ['live', 'baked'] as const) {
      const layout = prepassLayout(crowdOf(LBS, true, mode), emptyPrepassLayout());
      // 16 joints + 1 rigid node, 3 texels each.
      expect(layout).toMatchObject({ worldTexels: 3, blockTexels: 3 + 3 * 17, foldFirst: 0, foldEnd: 3 * 17, quaternionEnd: 0 });
      expect(layout.sourceBlockTexels).toBe(mode === 'live' ? 3 + 3 * 17 : BAKED_BLOCK_TEXELS);
      expect(layout.frameTexels).toBe(mode === 'live' ? 0 : 3 * 17);
      expect(needsPrepass(layout)).toBe(true);
    }
  });

  it('DQS folds only the rigid nodes; baked poses nlerp the palettes\' rotations', () => {
    const live = prepassLayout(crowdOf(DQS, true, 'live'), emptyPrepassLayout());
    expect(live).toMatchObject({ worldTexels: 4, blockTexels: 4 + 4 * 17, foldFirst: 4 * 16, foldEnd: 4 * 17, quaternionEnd: 0, frameTexels: 0 });
    const baked = prepassLayout(crowdOf(DQS, true, 'baked'), emptyPrepassLayout());
    expect(baked).toMatchObject({ sourceBlockTexels: BAKED_BLOCK_TEXELS, blockTexels: 4 + 4 * 17, foldFirst: 4 * 16, foldEnd: 4 * 17, quaternionEnd: 4 * 16, frameTexels: 4 * 17 });
  });

  it('live DQS blocks without a rigid mesh need no pass; baked ones still blend', () => {
    const live = prepassLayout(crowdOf(DQS, false, 'live'), emptyPrepassLayout());
    expect(live.foldEnd - live.foldFirst).toBe(0);
    expect(needsPrepass(live)).toBe(false);
    expect(needsPrepass(prepassLayout(crowdOf(DQS, false, 'baked'), emptyPrepassLayout()))).toBe(true);
  });
});
