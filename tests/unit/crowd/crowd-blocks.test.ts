import { describe, expect, it } from 'vitest';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { computeDualQuaternionPalette } from '../../../src/skinning/dual-quaternion-palette.ts';
import { INSTANCE_TEXTURE_WIDTH } from '../../../src/skinning/instance-blocks.ts';
import { withRigidProp } from '../../browser/helpers/rigid-prop.ts';

// What Crowd.prepare writes (src/skinning/instance-blocks.ts): mirrored instances gathered after the others,
// each block's world rows those of the instance it draws, the pose layout per skinning method (DQS rows and
// quaternions, rigid node rows), and alignment so no joint straddles a texture row. (Bounds with a rigid prop
// and morph targets: crowd-bounds.test.ts.)

const DQS = { skinning: 'dqs', weights: 'normalize' } as const;

/** Translation by x, mirrored in x when `mirror`. */
function world(x: number, mirror: boolean): Float32Array {
  return new Float32Array([mirror ? -1 : 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1]);
}

function propWorm() {
  return withRigidProp(createWorm(WORM_800), 4, 0.25, [0.3, 0.1, 0]);
}

describe('Crowd blocks', () => {
  it('gathers the mirroring instances after the others, each block carrying its own instance', () => {
    const crowd = new Crowd(createWorm(WORM_800), { capacity: 5 });
    const mirrored = [false, true, false, true, false];
    mirrored.forEach((m, k) => crowd.add(0, 0.1 * k, 1, world(2 * k, m)));
    expect(crowd.prepare(null)).toBe(5);
    expect(crowd.mirroredFrom).toBe(3);
    expect([...crowd.drawnInstances]).toEqual([0, 2, 4, 3, 1]);
    const W = new Float64Array(16);
    for (let b = 0; b < 5; b++) {
      const k = crowd.drawnInstances[b];
      crowd.worldOf(k, W);
      const o = 4 * crowd.blockTexels * b;
      // Row 0 of W·T(O): (W00 W10 W20 W30).
      expect([crowd.blocks[o], crowd.blocks[o + 3]]).toEqual([Math.fround(W[0]), Math.fround(W[12])]);
      expect(Math.sign(crowd.blocks[o])).toBe(mirrored[k] ? -1 : 1);
    }
  });

  it('lays DQS palettes out as 4 texels per joint, the rigid node as 3 rows, blocks aligned to whole joints', () => {
    const asset = propWorm();
    const crowd = new Crowd(asset, { capacity: 3, method: DQS });
    for (let k = 0; k < 3; k++) crowd.add(0, 0.2 * k, 1, world(k, false));
    crowd.prepare(null);
    expect(crowd.blockTexels % 4).toBe(0);
    const joints = asset.skins[0].joints.length;
    crowd.model.evaluate(crowd.model.clipSample(0).at(crowd.times[2]));
    const expected = computeDualQuaternionPalette(new Float32Array(16 * joints), crowd.model.skinMatrices[0], joints);
    const b = 4 * crowd.blockTexels * 2;
    expect(crowd.blocks.subarray(b + 4 * crowd.skinOffsets[0], b + 4 * crowd.skinOffsets[0] + 16 * joints)).toEqual(expected);
    const r = b + 4 * crowd.rigidOffsets[1], M = crowd.model.modelMatrices, n = 16 * asset.meshInstances[1].node;
    expect([...crowd.blocks.subarray(r, r + 4)]).toEqual([M[n], M[n + 4], M[n + 8], M[n + 12]]);
    expect(crowd.rigidOffsets[0]).toBe(-1);
    // Baked frames in the same layout.
    crowd.mode = 'baked';
    const baked = crowd.baked!;
    expect(baked.frameTexels % 4).toBe(0);
    expect(baked.layout.rigidOffsets[1] + 4).toBeLessThanOrEqual(baked.frameTexels);
  });

  it('no joint, rigid node or world matrix straddles a texture row, in any block or baked frame (LBS and DQS)', () => {
    for (const method of [undefined, DQS]) {
      const crowd = new Crowd(propWorm(), { capacity: 1, method });
      const stride = method ? 4 : 3, joints = crowd.asset.skins[0].joints.length;
      const baked = crowd.bakedClipsOrBake().palettes;
      const starts = (first: number) => Array.from({ length: joints }, (_, j) => first + stride * j);
      // One full cycle of row positions: INSTANCE_TEXTURE_WIDTH blocks.
      for (let b = 0; b < INSTANCE_TEXTURE_WIDTH; b++) {
        const block = b * crowd.blockTexels, frame = b * baked.frameTexels;
        const entries = [block, ...starts(block + crowd.skinOffsets[0]), block + crowd.rigidOffsets[1],
          ...starts(frame + baked.skinOffsets[0]), frame + baked.layout.rigidOffsets[1], 4 * b];
        for (const t of entries) expect(t % INSTANCE_TEXTURE_WIDTH).toBeLessThanOrEqual(INSTANCE_TEXTURE_WIDTH - stride);
      }
    }
  });
});
