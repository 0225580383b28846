import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';

// A crowd of one VRM (the generated avatar) playing a VRMA clip, retargeted as a model takes it, with expressions
// set per instance: each instance's block carries its own morph weights. Expected weights come from the file's
// expression binds (VRMC_vrm JSON), not from the avatar code.

const none = async (): Promise<null> => null;
let avatar: ModelAsset, faceNode = -1, blinkTarget = -1, blinkLeftTarget = -1, happyTarget = -1;

beforeAll(async () => {
  const bytes = await buildAvatarVrm1({ texture: false });
  const model = await loadModel({ name: 'avatar.vrm', bytes }, none);
  const library = await loadClips({ name: 'walk.vrma', bytes: await buildVrmaClip({ duration: 3 }) }, none);
  avatar = { ...model, clips: retargetClipLibrary(library, model).clips };
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const preset = json.extensions.VRMC_vrm.expressions.preset;
  expect(preset.blink.morphTargetBinds).toHaveLength(1);
  expect(preset.happy.morphTargetBinds).toHaveLength(1);
  faceNode = preset.blink.morphTargetBinds[0].node;
  blinkTarget = preset.blink.morphTargetBinds[0].index;
  happyTarget = preset.happy.morphTargetBinds[0].index;
  blinkLeftTarget = preset.blinkLeft.morphTargetBinds[0].index;
});

/** Instance k's morph weights of the Face mesh as the block drawn for it carries them (live mode). */
function faceWeightsInBlock(crowd: Crowd, k: number): Float32Array {
  const m = crowd.asset.meshInstances.findIndex((instance) => instance.sourceNode === faceNode);
  expect(crowd.morphOffsets[m]).toBeGreaterThanOrEqual(0);
  const slot = Array.from(crowd.drawnInstances.subarray(0, crowd.drawCount)).indexOf(k);
  expect(slot).toBeGreaterThanOrEqual(0);
  const at = 4 * (slot * crowd.blockTexels + crowd.morphOffsets[m]);
  return crowd.blocks.slice(at, at + crowd.asset.meshes[crowd.asset.meshInstances[m].mesh].morphTargetCount!);
}

describe('Crowd of one VRM avatar', () => {
  it('plays the VRMA clip retargeted onto it (the pose moves with time)', () => {
    const crowd = new Crowd(avatar, { capacity: 2 });
    expect(crowd.kernel).toBeNull(); // an avatar is posed in JavaScript, where its jobs run
    crowd.add(0, 0.2);
    crowd.add(0, 1.0);
    crowd.prepare(null);
    crowd.evaluateInstance(0);
    const a = crowd.model.modelMatrices.slice();
    crowd.evaluateInstance(1);
    const b = crowd.model.modelMatrices;
    expect(a.some((x, i) => Math.abs(x - b[i]) > 1e-3)).toBe(true);
  });

  it('sets expressions per instance: each block carries its own weights, the others stay at 0', () => {
    const crowd = new Crowd(avatar, { capacity: 3 });
    // Same clip and time for all: without per-instance expressions they would share one evaluation.
    for (let k = 0; k < 3; k++) crowd.add(-1, 0);
    crowd.setExpression(0, 'happy', 1);
    crowd.setExpression(2, 'happy', 0.25);
    crowd.setExpression(2, 'blinkLeft', 1);
    expect(crowd.getExpression(2, 'happy')).toBeCloseTo(0.25, 7);
    expect(crowd.getExpression(1, 'happy')).toBe(0);
    crowd.prepare(null);
    const [w0, w1, w2] = [0, 1, 2].map((k) => faceWeightsInBlock(crowd, k));
    expect(w0[happyTarget]).toBeCloseTo(1, 6);
    expect(w0[blinkTarget]).toBe(0);
    expect(Array.from(w1).every((w) => w === 0)).toBe(true);
    // happy blends the blink group (overrideBlink 'blend'): blinkLeft × (1 − 0.25) (VRMC_vrm-1.0 expressions.md).
    expect(w2[happyTarget]).toBeCloseTo(0.25, 6);
    expect(w2[blinkLeftTarget]).toBeCloseTo(0.75, 6);
    expect(w2[blinkTarget]).toBe(0);
    // The CPU reference of an instance sees the same weights.
    crowd.evaluateInstance(2);
    const face = crowd.asset.meshInstances.find((instance) => instance.sourceNode === faceNode)!;
    expect(crowd.model.morphWeights[face.morphWeightOffset! + blinkLeftTarget]).toBeCloseTo(0.75, 6);
    crowd.evaluateInstance(1);
    expect(crowd.model.morphWeights[face.morphWeightOffset! + blinkLeftTarget]).toBe(0);
  });

  it('a new instance starts at 0; bad calls throw', () => {
    const crowd = new Crowd(avatar, { capacity: 2 });
    crowd.add(0, 0);
    expect(() => crowd.setExpression(0, 'blonk', 1)).toThrow(/no expression "blonk"/);
    expect(() => crowd.setExpression(1, 'happy', 1)).toThrow(/instance 1 does not exist/);
    expect(() => crowd.setExpression(0, 'happy', NaN)).toThrow(/not a finite number/);
    crowd.setExpression(0, 'sad', 3);
    expect(crowd.getExpression(0, 'sad')).toBe(1);
    crowd.add(0, 0);
    expect(crowd.getExpression(1, 'sad')).toBe(0);
  });

  it('a model without an avatar has no expressions', async () => {
    const crowd = new Crowd({ ...avatar, avatar: undefined }, { capacity: 1 });
    crowd.add(-1, 0);
    expect(crowd.expressions).toBeNull();
    expect(() => crowd.setExpression(0, 'happy', 1)).toThrow(/not an avatar/);
  });
});
