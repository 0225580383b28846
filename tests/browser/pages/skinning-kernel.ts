// Test page: SkinningKernel in the browser — which backend this page gets, and its skinned positions,
// normals and tangents against the reference skinVertices on the built-in octopus, LBS and DQS, every weight
// policy (tests/browser/skinning/skinning-kernel.spec.ts).
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { computeModelOrigin } from '../../../src/scene/model-origin.ts';
import { copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { SkinningKernel, type SkinningKernelBackend } from '../../../src/skinning/skinning-kernel.ts';
import { SKINNING_MODES, WEIGHT_POLICIES } from '../../../src/skinning/skinning-method.ts';
import { sampleClipOnce } from '../../unit/helpers/sample-once.ts';

export interface SkinningKernelReport {
  readonly backend: SkinningKernelBackend;
  /** Largest |Δ| of a position between the kernel and skinVertices, over the clips at 3 times, LBS and DQS, and the policies. */
  readonly maxPositionDifference: number;
  /** Largest |position coordinate|, for scale. */
  readonly extent: number;
  /** Largest |Δ| of a unit normal or tangent element. */
  readonly maxDirectionDifference: number;
}

function report(): SkinningKernelReport {
  const asset = createOctopusAsset();
  const origin = computeModelOrigin(asset);
  const instance = asset.meshInstances.find((m) => m.skin >= 0)!;
  const source = asset.meshes[instance.mesh].primitives[0], n = source.vertexCount;
  const tangents = new Float32Array(4 * n);
  for (let v = 0; v < n; v++) tangents.set([0.6, 0, 0.8, v % 2 ? 1 : -1], 4 * v);
  const primitive = { ...source, tangents };
  const context = new SkinningContext(asset.skins[instance.skin], origin);
  const kernel = new SkinningKernel(primitive, context);
  const pose = new PoseKernel(asset.skeleton, asset.skins, origin);
  const p = new Float32Array(3 * n), nrm = new Float32Array(3 * n), t = new Float32Array(4 * n);
  let maxPositionDifference = 0, extent = 0, maxDirectionDifference = 0;
  for (const clip of asset.clips) {
    for (const f of [0.1, 0.5, 0.85]) {
      copyLocalPose(pose.pose, asset.restPose);
      sampleClipOnce(pose.pose, clip, f * clip.duration);
      pose.update();
      const palette = pose.skinMatrices[instance.skin];
      for (const weights of WEIGHT_POLICIES) for (const skinning of SKINNING_MODES) {
        kernel.skin(palette, { skinning, weights });
        skinVertices(p, nrm, primitive, palette, context, { skinning, weights }, t);
        for (let i = 0; i < p.length; i++) {
          maxPositionDifference = Math.max(maxPositionDifference, Math.abs(kernel.positions[i] - p[i]));
          extent = Math.max(extent, Math.abs(p[i]));
          maxDirectionDifference = Math.max(maxDirectionDifference, Math.abs(kernel.normals[i] - nrm[i]));
        }
        for (let i = 0; i < t.length; i++) maxDirectionDifference = Math.max(maxDirectionDifference, Math.abs(kernel.tangents![i] - t[i]));
      }
    }
  }
  return { backend: kernel.backend, maxPositionDifference, extent, maxDirectionDifference };
}

(window as unknown as { skinningKernelReport: () => SkinningKernelReport }).skinningKernelReport = report;
(window as unknown as { sinewKernelReady: boolean }).sinewKernelReady = true;
