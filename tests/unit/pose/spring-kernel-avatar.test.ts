import { describe, expect, it } from 'vitest';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { SpringKernel } from '../../../src/pose/spring-kernel.ts';
import { buildAvatarVrm0 } from '../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { SpringBoneJob } from '../../../src/secondary/spring-bone-job.ts';

// The kernel equals the portable job within 1e-6 of the model's size over the run: the generated avatar
// (VRM 1.0 and 0.x), the VRMA walk, springs reset at the pose of t = 0, then for k = 1…180 the clip posed at k/60
// and the secondary motion advanced by 1/60 s; every joint's model-space position compared at every step. Two
// models sample the clip alike (the same backend); one runs the springs on the kernel (AnimatedModel's choice with
// WebAssembly), the other on the portable job put in its place.

const none = async () => null;
const vrma = await buildVrmaClip();

describe('SpringKernel on the generated avatar', () => {
  for (const version of ['1.0', '0.x'] as const) {
    it(`VRM ${version}: equals the portable job at every step of 3 s of the walk at 60 Hz`, async () => {
      const bytes = version === '1.0' ? await buildAvatarVrm1({ texture: false }) : await buildAvatarVrm0({ texture: false });
      const asset = await loadModel({ name: 'avatar.vrm', bytes }, none);
      const { clips } = retargetClipLibrary(await loadClips({ name: 'walk.vrma', bytes: vrma }, none), asset);
      const withClips = { ...asset, clips };
      const kernel = new AnimatedModel(withClips), portable = new AnimatedModel(withClips);
      const springBone = asset.secondaryMotion!.springBone!;
      expect(kernel.secondaryMotion!.springs).toBeInstanceOf(SpringKernel);
      portable.secondaryMotion!.springs = new SpringBoneJob(springBone, asset.skeleton, asset.restPose);
      const n = asset.skeleton.jointCount;
      // The model's size: the diagonal of its joints' box at t = 0.
      const models = [kernel, portable];
      for (const model of models) {
        model.secondaryMotion!.reset();
        model.evaluate(model.clipSample(0).at(0));
      }
      const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
      for (let j = 0; j < n; j++) {
        for (let c = 0; c < 3; c++) {
          min[c] = Math.min(min[c], kernel.modelMatrices[16 * j + 12 + c]);
          max[c] = Math.max(max[c], kernel.modelMatrices[16 * j + 12 + c]);
        }
      }
      const diagonal = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
      let worst = 0, moved = 0;
      const start = kernel.modelMatrices.slice();
      for (let k = 1; k <= 180; k++) {
        for (const model of models) {
          model.secondaryMotion!.step(1 / 60);
          model.evaluate(model.clipSample(0).at(k / 60));
        }
        for (let j = 0; j < n; j++) {
          for (let c = 12; c < 15; c++) {
            const a = kernel.modelMatrices[16 * j + c], b = portable.modelMatrices[16 * j + c];
            expect(Number.isFinite(a)).toBe(true);
            worst = Math.max(worst, Math.abs(a - b));
            moved = Math.max(moved, Math.abs(a - start[16 * j + c]));
          }
        }
      }
      expect(moved).toBeGreaterThan(0.01);
      expect(worst).toBeLessThan(1e-6 * diagonal);
    }, 120_000);
  }
});
