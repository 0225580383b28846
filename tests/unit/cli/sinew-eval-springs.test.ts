import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { loadClipsFromPath } from '../../../src/node/load-clips-from-path.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { sinew } from './run-sinew.ts';

// `sinew eval AVATAR --anim CLIP.vrma --clip 0 --time T --springs HZ` against the same run driven by hand through
// AnimatedModel (reset at the pose of t = 0, then k = 1…round(T·HZ): step 1/HZ, evaluate at k/HZ): the printed
// joint matrices are the hand-driven model's. Without --springs the spring joints are as the clip poses them.

interface Joint { node: number; name: string; matrix: number[] }
interface Doc { clip: string | null; time: number; springs?: { hz: number; steps: number }; joints: Joint[] }

let folder = '', avatar = '', plain = '', clip = '';
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sinew-eval-springs-'));
  avatar = join(folder, 'avatar.vrm');
  plain = join(folder, 'plain.vrm');
  clip = join(folder, 'walk.vrma');
  writeFileSync(avatar, await buildAvatarVrm1());
  writeFileSync(plain, await buildAvatarVrm1({ secondaryMotion: false }));
  writeFileSync(clip, await buildVrmaClip({ duration: 3 }));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function evaluate(file: string, ...args: string[]): Promise<Doc> {
  const result = await sinew('eval', file, '--anim', clip, '--clip', '0', '--joints', ...args);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Doc;
}

/** The model with the walk, driven as the option's help says. */
async function byHand(hz: number, seconds: number): Promise<AnimatedModel> {
  const asset = await loadModelFromPath(avatar);
  const clips = retargetClipLibrary(await loadClipsFromPath(clip), asset).clips;
  const animated = new AnimatedModel({ ...asset, clips });
  const sample = animated.clipSample(0), motion = animated.secondaryMotion!;
  motion.reset();
  animated.evaluate(sample.at(0));
  for (let k = 1; k <= Math.round(seconds * hz); k++) {
    motion.step(1 / hz);
    animated.evaluate(sample.at(k / hz));
  }
  return animated;
}

const hairJoints = (doc: Doc): Joint[] => doc.joints.filter((j) => /^hair|^tail/.test(j.name));
/** Largest difference of the translations of the joints both documents list by node. */
function translationGap(a: Joint[], b: Joint[]): number {
  let gap = 0;
  for (const j of a) {
    const k = b.find((x) => x.node === j.node)!;
    for (let c = 12; c < 15; c++) gap = Math.max(gap, Math.abs(j.matrix[c] - k.matrix[c]));
  }
  return gap;
}

describe('sinew eval --springs', () => {
  it('--springs 60 --time 1 prints the joints of the model stepped by hand the same way', async () => {
    const doc = await evaluate(avatar, '--time', '1', '--springs', '60');
    expect(doc.springs).toEqual({ hz: 60, steps: 60 });
    const animated = await byHand(60, 1);
    const matrix = new Float64Array(16);
    const hair = hairJoints(doc);
    expect(hair.length).toBeGreaterThan(20);
    let gap = 0;
    for (const joint of doc.joints) {
      animated.jointMatrix(animated.asset.skeleton.sourceIndices.indexOf(joint.node), matrix);
      for (let c = 0; c < 16; c++) gap = Math.max(gap, Math.abs(joint.matrix[c] - matrix[c]));
    }
    expect(gap).toBeLessThan(1e-12);
  });

  it('moves the hair and tail away from the clip pose, and another rate gives another (finite) result', async () => {
    const [still, at60, at30] = await Promise.all([
      evaluate(avatar, '--time', '1'),
      evaluate(avatar, '--time', '1', '--springs', '60'),
      evaluate(avatar, '--time', '1', '--springs', '30'),
    ]);
    expect(still.springs).toBeUndefined();
    expect(at30.springs).toEqual({ hz: 30, steps: 30 });
    // Gravity and the walk swing the chains centimetres off their clip pose.
    expect(translationGap(hairJoints(still), hairJoints(at60))).toBeGreaterThan(0.01);
    const between = translationGap(hairJoints(at60), hairJoints(at30));
    expect(between).toBeGreaterThan(1e-4);
    for (const j of at30.joints) expect(j.matrix.every(Number.isFinite)).toBe(true);
  });

  it('without --springs: the spring joints as the clip poses them (their rest rotations: the walk does not animate them)', async () => {
    const doc = await evaluate(avatar, '--time', '1');
    const asset = await loadModelFromPath(avatar);
    const clips = retargetClipLibrary(await loadClipsFromPath(clip), asset).clips;
    const animated = new AnimatedModel({ ...asset, clips });
    animated.secondaryMotion!.springs!.enabled = false;
    animated.evaluate(animated.clipSample(0).at(1));
    const matrix = new Float64Array(16);
    for (const joint of hairJoints(doc)) {
      animated.jointMatrix(animated.asset.skeleton.sourceIndices.indexOf(joint.node), matrix);
      for (let c = 0; c < 16; c++) expect(Math.abs(joint.matrix[c] - matrix[c])).toBeLessThan(1e-12);
    }
  });

  it('a slow rate steps by the whole 1/HZ (not clamped to the default 1/20 s)', async () => {
    const doc = await evaluate(avatar, '--time', '1', '--springs', '5');
    expect(doc.springs).toEqual({ hz: 5, steps: 5 });
    for (const j of doc.joints) expect(j.matrix.every(Number.isFinite)).toBe(true);
  });

  it('a bad rate is a usage error; too many steps too', async () => {
    for (const bad of ['0', '-60', 'abc', '', 'Infinity', '1e9']) {
      const result = await sinew('eval', avatar, '--springs', bad);
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toMatch(/--springs/);
      expect(result.stdout).toBe('');
    }
    const many = await sinew('eval', avatar, '--time', '1000', '--springs', '10000');
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/10000000 steps; at most 1000000/);
  });

  it('--springs on a model without spring bones: a note, and the evaluation as without it', async () => {
    const result = await sinew('eval', plain, '--anim', clip, '--time', '1', '--springs', '60');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('sinew: note: plain.vrm has no spring bones; --springs changes nothing\n');
    const without = await sinew('eval', plain, '--anim', clip, '--time', '1');
    expect(result.stdout).toBe(without.stdout);
  });
});
