/**
 * The retargeting check on the generated characters: a Mixamo-named rig (`buildMixamoRig`, joint frames
 * along the bones) playing a VRMA clip (`buildVrmaClip`), and the VRM avatar (1.0, and 0.x turned at load) playing
 * the Mixamo rig's own clip, both without a `map`, follow the model-space rule (docs/explanation/skinning-formulas.md
 * R1), the reference retarget-humanoid.test.ts holds `retargetClip` to: for every humanoid bone both sides map,
 * `Q_target(t) = Q_source(t) · Q_source,rest⁻¹ · Q_target,rest`, and the hips
 * `P_target(t) = P_target,rest + (h_target / h_source) · (P_source(t) − P_source,rest)`.
 */
import { describe, expect, it } from 'vitest';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import type { HumanoidBoneName, HumanoidMap } from '../../../src/asset/avatar-asset.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { computeModelFrames, createModelFrames } from '../../../src/skeleton/model-frames.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { matchHumanoid } from '../../../src/humanoid/match-humanoid.ts';
import { quatConjugateMultiplyAt, quatMultiplyAt } from '../../../src/math/quaternion.ts';
import { buildMixamoRig } from '../../../src/procedural/avatar/mixamo-rig.ts';
import { buildAvatarVrm0 } from '../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { diagonalOf, sinewPositions, worstError } from '../avatar/three-vrm-reference.ts';

const none = async () => null;

interface Side { readonly skeleton: Skeleton; readonly restPose: LocalPose; readonly humanoid: HumanoidMap }

/** Model frames of `clip` (null: the rest pose) on `side` at `t`. */
function framesAt(side: Side, clip: AnimationClip | null, t: number) {
  const pose = cloneLocalPose(side.restPose);
  if (clip) sampleClip(pose, compileClip(clip, side.skeleton.jointCount), t, new SamplingContext());
  return computeModelFrames(createModelFrames(side.skeleton.jointCount), side.skeleton, pose, [0, 0, 0, 1]);
}

/**
 * The worst rotation (radians) and hips position (metres) by which `out` on `target` misses R1 against `clip` on
 * `source`, over `times`; and how many humanoid bones were compared.
 */
function missesR1(source: Side, clip: AnimationClip, target: Side, out: AnimationClip, times: readonly number[]) {
  const sRest = framesAt(source, null, 0), tRest = framesAt(target, null, 0);
  const h = target.humanoid.bones.hips!, hs = source.humanoid.bones.hips!;
  const ratio = tRest.p[3 * h + 1] / sRest.p[3 * hs + 1];
  let angle = 0, distance = 0, bones = 0;
  const e = new Float64Array(4), d = new Float64Array(4);
  for (const t of times) {
    const s = framesAt(source, clip, t), g = framesAt(target, out, t);
    bones = 0;
    for (const [bone, j] of Object.entries(target.humanoid.bones)) {
      const sj = source.humanoid.bones[bone as HumanoidBoneName];
      if (sj === undefined || j === undefined) continue;
      bones++;
      quatConjugateMultiplyAt(e, 0, sRest.q, 4 * sj, tRest.q, 4 * j);
      quatMultiplyAt(e, 0, s.q, 4 * sj, e, 0);
      quatConjugateMultiplyAt(d, 0, e, 0, g.q, 4 * j);
      angle = Math.max(angle, 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3])));
    }
    for (let c = 0; c < 3; c++) distance = Math.max(distance, Math.abs(tRest.p[3 * h + c] + ratio * (s.p[3 * hs + c] - sRest.p[3 * hs + c]) - g.p[3 * h + c]));
  }
  return { angle, distance, bones };
}

/** How far `clip` turns any humanoid bone of `side` from its rest (radians) and moves the hips (metres): the check above can fail. */
function largestMotion(side: Side, clip: AnimationClip, times: readonly number[]): { turn: number; hips: number } {
  const rest = framesAt(side, null, 0), h = side.humanoid.bones.hips!;
  let largest = 0, hips = 0;
  const d = new Float64Array(4);
  for (const t of times) {
    const f = framesAt(side, clip, t);
    for (const j of Object.values(side.humanoid.bones)) {
      quatConjugateMultiplyAt(d, 0, rest.q, 4 * j!, f.q, 4 * j!);
      largest = Math.max(largest, 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3])));
    }
    hips = Math.max(hips, Math.hypot(f.p[3 * h] - rest.p[3 * h], f.p[3 * h + 1] - rest.p[3 * h + 1], f.p[3 * h + 2] - rest.p[3 * h + 2]));
  }
  return { turn: largest, hips };
}

const mixamoBytes = await buildMixamoRig({ texture: false });

describe('Mixamo-named rig and VRM avatar, each playing the other\'s clip, follow R1', () => {
  it('the Mixamo rig plays the VRMA clip by humanoid bone', async () => {
    const library = await loadClips({ name: 'walk.vrma', bytes: await buildVrmaClip() }, none);
    const rig = await loadModel({ name: 'mixamo.glb', bytes: mixamoBytes }, none);
    const { clips, joints } = retargetClipLibrary(library, rig);
    const target = { skeleton: rig.skeleton, restPose: rig.restPose, humanoid: matchHumanoid(rig.skeleton).humanoid };
    const source = { skeleton: library.skeleton, restPose: library.restPose, humanoid: library.humanoid! };
    const times = Array.from({ length: 13 }, (_, i) => (clips[0].duration * i) / 12 + 0.007 * (i % 3));
    const { angle, distance, bones } = missesR1(source, library.clips[0], target, clips[0], times);
    console.log(`VRMA → Mixamo rig: ${bones} humanoid bones, worst rotation ${angle.toExponential(2)} rad, hips ${distance.toExponential(2)} m; ${joints.unmatched.length} target joints unmatched`);
    expect(bones).toBeGreaterThanOrEqual(52);
    const motion = largestMotion(target, clips[0], times);
    expect(motion.turn).toBeGreaterThan(0.3);
    expect(motion.hips).toBeGreaterThan(0.01);
    expect(angle).toBeLessThan(1e-5);
    expect(distance).toBeLessThan(1e-5);
  });

  for (const version of ['1', '0'] as const) {
    it(`the VRM ${version === '1' ? '1.0' : '0.x'} avatar plays the Mixamo rig's clip by humanoid bone`, async () => {
      const library = await loadClips({ name: 'mixamo.glb', bytes: mixamoBytes }, none);
      const bytes = version === '1' ? await buildAvatarVrm1({ texture: false }) : await buildAvatarVrm0({ texture: false });
      const avatar = await loadModel({ name: 'avatar.vrm', bytes }, none);
      const { clips } = retargetClipLibrary(library, avatar);
      const source = { skeleton: library.skeleton, restPose: library.restPose, humanoid: matchHumanoid(library.skeleton).humanoid };
      const target = { skeleton: avatar.skeleton, restPose: avatar.restPose, humanoid: avatar.avatar!.humanoid };
      const clip = library.clips.find((c) => c.name === 'walk')!;
      const out = clips[library.clips.indexOf(clip)];
      const times = Array.from({ length: 13 }, (_, i) => (clip.duration * i) / 12 + 0.007 * (i % 3));
      const { angle, distance, bones } = missesR1(source, clip, target, out, times);
      console.log(`Mixamo clip → VRM ${version}: ${bones} humanoid bones, worst rotation ${angle.toExponential(2)} rad, hips ${distance.toExponential(2)} m`);
      expect(bones).toBeGreaterThanOrEqual(52);
      const motion = largestMotion(target, out, times);
      expect(motion.turn).toBeGreaterThan(0.3);
      expect(motion.hips).toBeGreaterThan(0.01);
      expect(angle).toBeLessThan(1e-5);
      expect(distance).toBeLessThan(1e-5);
    });
  }
});

describe('the Mixamo rig and the VRM avatar share meshes, skin weights and T-pose', () => {
  it('so the VRMA clip\'s humanoid tracks give both the same skinned vertices (the avatar\'s match three-vrm\'s: three-vrm-clip.test.ts)', async () => {
    const vrma = await buildVrmaClip();
    const skinned = async (name: string, bytes: Uint8Array) => {
      const asset = await loadModel({ name, bytes }, none);
      const { clips } = retargetClipLibrary(await loadClips({ name: 'walk.vrma', bytes: vrma }, none), asset);
      // The body only: the rig has no expressions or look-at, so the clip's expression and look-at tracks stay out.
      const body = clips.map(({ expressionTracks: _e, lookAtTrack: _l, ...clip }) => clip);
      const animated = new AnimatedModel({ ...asset, clips: body });
      return { asset, animated };
    };
    const rig = await skinned('mixamo.glb', mixamoBytes), avatar = await skinned('avatar.vrm', await buildAvatarVrm1({ texture: false, secondaryMotion: false }));
    // The rig has no hair, tail or constraint joints: the avatar without them shares its meshes.
    const diagonal = diagonalOf(sinewPositions(avatar.asset, avatar.animated));
    let worst = 0;
    for (const t of [0, 0.4, 1.05, 1.7, 2.9, 3.6]) {
      rig.animated.evaluate(rig.animated.clipSample(0).at(t));
      avatar.animated.evaluate(avatar.animated.clipSample(0).at(t));
      worst = Math.max(worst, worstError(sinewPositions(rig.asset, rig.animated), sinewPositions(avatar.asset, avatar.animated), diagonal));
    }
    console.log(`VRMA on the Mixamo rig against VRMA on the VRM avatar: worst ${worst.toExponential(2)} of the diagonal`);
    expect(worst).toBeLessThan(1e-4);
  });
});
