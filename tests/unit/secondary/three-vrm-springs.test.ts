/**
 * Spring bones and node constraints against three-vrm 3.5.5 (the reference): the generated avatar playing
 * the VRMA walk with springs at 60 Hz for 3 s, three-vrm's order — the clip posed at k/60, then `vrm.update(1/60)`
 * (humanoid, look-at, expressions, node constraints, springs) — and Sinew's — the clip at k/60, one step of 1/60,
 * `AnimatedModel.evaluate` — give skinned vertices within 1e-3 of the bounding box's diagonal at 10 times.
 * Both start from the springs reset at the pose of t = 0. The comparison can fail: at the end, Sinew's pose without
 * its secondary motion is far from three-vrm's.
 *
 * Sinew's secondary motion is its loader's (`ModelAsset.secondaryMotion`); "without centers" sets every spring's
 * center to world space on both sides. VRM 1.0 also runs its node-constraint chains (roll → rotation → aim per arm).
 */
import { describe, expect, it } from 'vitest';
import { AnimationMixer } from 'three';
import { VRMLookAtBoneApplier } from '@pixiv/three-vrm';
import { VRMLookAtQuaternionProxy, createVRMAnimationClip } from '@pixiv/three-vrm-animation';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { avatarBytes, diagonalOf, loadSinew, loadThreeVrm, loadThreeVrma, none, sinewPositions, threePositions, worstError } from '../avatar/three-vrm-reference.ts';

const vrma = await buildVrmaClip();
const HZ = 60;
const FRAMES = 3 * HZ;
const CHECKS = new Set(Array.from({ length: 10 }, (_, i) => Math.round(((i + 1) * FRAMES) / 10)));

async function compare(version: '1' | '0', centers: boolean): Promise<{ errors: number[]; moved: number; withoutSprings: number; centered: number; constraints: number }> {
  const bytes = await avatarBytes(version);
  const loaded = await loadSinew(bytes);
  const three = await loadThreeVrm(bytes);
  const { vrm } = three;
  const library = await loadClips({ name: 'walk.vrma', bytes: vrma }, none);
  const { clips } = retargetClipLibrary(library, loaded);
  const read = loaded.secondaryMotion;
  if (!read?.springBone) throw new Error('the loader read no spring bones');
  // Without centers: every spring simulated in world space, on both sides.
  const secondaryMotion = centers ? read : { ...read, springBone: { ...read.springBone, springs: read.springBone.springs.map((spring) => ({ ...spring, center: -1 })) } };
  if (!centers) for (const joint of vrm.springBoneManager!.joints) joint.center = null;
  const centered = secondaryMotion!.springBone!.springs.filter((spring) => spring.center >= 0).length;
  const animated = new AnimatedModel({ ...loaded, clips, secondaryMotion });
  const rest = sinewPositions(loaded, animated);
  const diagonal = diagonalOf(rest);

  const applier = vrm.lookAt!.applier;
  if (applier instanceof VRMLookAtBoneApplier) {
    [applier.rangeMapVerticalUp, applier.rangeMapVerticalDown] = [applier.rangeMapVerticalDown, applier.rangeMapVerticalUp];
  }
  const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt!);
  proxy.name = 'VRMLookAtQuaternionProxy';
  vrm.scene.add(proxy);
  const mixer = new AnimationMixer(vrm.scene);
  mixer.clipAction(createVRMAnimationClip(await loadThreeVrma(vrma), vrm)).play();

  // t = 0: both posed, springs reset there.
  mixer.setTime(0);
  vrm.update(0);
  vrm.scene.updateMatrixWorld(true);
  vrm.springBoneManager!.reset();
  animated.secondaryMotion!.reset();
  animated.evaluate(animated.clipSample(0).at(0));
  const errors: number[] = [];
  let moved = 0;
  for (let k = 1; k <= FRAMES; k++) {
    mixer.setTime(k / HZ);
    vrm.update(1 / HZ);
    animated.secondaryMotion!.step(1 / HZ);
    animated.evaluate(animated.clipSample(0).at(k / HZ));
    if (!CHECKS.has(k)) continue;
    const ours = sinewPositions(loaded, animated);
    errors.push(worstError(ours, threePositions(three), diagonal));
    moved = Math.max(moved, worstError(ours, rest, diagonal));
  }
  animated.secondaryMotion!.enabled = false;
  animated.evaluate(animated.clipSample(0).at(FRAMES / HZ));
  const withoutSprings = worstError(sinewPositions(loaded, animated), threePositions(three), diagonal);
  return { errors, moved, withoutSprings, centered, constraints: secondaryMotion.nodeConstraints.length };
}

describe('spring bones and node constraints: Sinew against three-vrm 3.5.5, the VRMA walk at 60 Hz for 3 s', () => {
  for (const version of ['1', '0'] as const) {
    for (const centers of [true, false]) {
      it(`VRM ${version === '1' ? '1.0' : '0.x'}, ${centers ? 'with' : 'without'} centers: skinned vertices within 1e-3 of the diagonal at 10 times`, async () => {
        const { errors, moved, withoutSprings, centered, constraints } = await compare(version, centers);
        console.log(`springs, VRM ${version}, centers ${centers} (${centered} springs with a center, ${constraints} node constraints): worst ${Math.max(...errors).toExponential(2)} of the diagonal (${errors.map((e) => e.toExponential(1)).join(', ')}); moved up to ${moved.toFixed(2)}; without springs ${withoutSprings.toExponential(1)}`);
        expect(moved).toBeGreaterThan(0.05);
        expect(withoutSprings).toBeGreaterThan(1e-2);
        if (centers) expect(centered).toBeGreaterThan(0);
        if (version === '1') expect(constraints).toBe(6);
        expect(Math.max(...errors)).toBeLessThan(1e-3);
      }, 120_000);
    }
  }
});
