// Test page: PoseKernel in the browser — which backend this page gets, and the SIMD backend's matrices
// against the portable ones on the built-in octopus (tests/browser/pose/pose-kernel.spec.ts).
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { PoseKernel, type PoseKernelBackend } from '../../../src/pose/pose-kernel.ts';
import { computeModelOrigin } from '../../../src/scene/model-origin.ts';
import { sampleClipOnce } from '../../unit/helpers/sample-once.ts';

export interface KernelReport {
  readonly backend: PoseKernelBackend;
  /** Largest |Δ| between the default and the portable backend's palettes, over the octopus's clips at 4 times. */
  readonly maxDifference: number;
  /** Largest |palette element|, for scale. */
  readonly maxMagnitude: number;
}

function report(): KernelReport {
  const asset = createOctopusAsset();
  const origin = computeModelOrigin(asset);
  const chosen = new PoseKernel(asset.skeleton, asset.skins, origin);
  const portable = new PoseKernel(asset.skeleton, asset.skins, origin, { backend: 'js' });
  let maxDifference = 0, maxMagnitude = 0;
  for (const clip of asset.clips) {
    for (const f of [0.1, 0.35, 0.6, 0.85]) {
      for (const kernel of [chosen, portable]) {
        copyLocalPose(kernel.pose, asset.restPose);
        sampleClipOnce(kernel.pose, clip, f * clip.duration);
        kernel.update();
      }
      const a = chosen.skinMatrices[0], b = portable.skinMatrices[0];
      for (let i = 0; i < a.length; i++) {
        maxDifference = Math.max(maxDifference, Math.abs(a[i] - b[i]));
        maxMagnitude = Math.max(maxMagnitude, Math.abs(b[i]));
      }
    }
  }
  return { backend: chosen.backend, maxDifference, maxMagnitude };
}

(window as unknown as { poseKernelReport: () => KernelReport }).poseKernelReport = report;
(window as unknown as { sinewKernelReady: boolean }).sinewKernelReady = true;
