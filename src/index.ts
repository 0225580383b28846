/**
 * Sinew's public API: explicit named exports only. Everything here runs in the browser (and in node, touching no
 * DOM at import); the node reader `loadModelFromPath` is in `sinew/node` (src/node/index.ts), and verification
 * helpers (`captureSkinnedVertices`) in `sinew/testing` (src/testing.ts).
 */

// Data types
export type {
  ModelAsset, MeshAsset, PrimitiveAsset, SkinAsset, MeshInstance, MaterialAsset, ImageAsset,
} from './asset/model-asset.ts';
export type { Skeleton } from './skeleton/skeleton.ts';
export type { LocalPose } from './skeleton/local-pose.ts';
export type { PoseBuffers } from './skeleton/pose-buffers.ts';
export type { AnimationClip, AnimationChannel, ChannelPath, ClipMarker, Interpolation } from './asset/animation-clip.ts';

// Loaders (bytes → ModelAsset)
export { parseGltf } from './loaders/gltf/parse-gltf.ts';
export { parseMd5Mesh } from './loaders/md5/parse-md5-mesh.ts';
export { parseMd5Anim } from './loaders/md5/parse-md5-anim.ts';
export { md5ToModelAsset } from './loaders/md5/md5-to-model-asset.ts';
export { LoadError } from './loaders/load-error.ts';
export { LOAD_ERROR_CODES, type LoadErrorCode } from './loaders/load-error-codes.ts';
export { DEFAULT_MEMORY_BUDGET_BYTES } from './asset/memory-budget.ts';
export {
  loadModel, modelFormatOf, MODEL_EXTENSIONS, type ModelFile, type FetchCompanion, type LoadModelOptions, type ModelFormat,
} from './loaders/load-model.ts';
export { loadModelFromUrl, type LoadModelFromUrlOptions } from './loaders/fetch/load-model-from-url.ts';
export { loadModelFromFiles, type LoadModelFromFilesOptions } from './loaders/fetch/load-model-from-files.ts';
export type { ProgressCallback } from './loaders/fetch/download-progress.ts';
export { loadClipsFromUrl, loadClipsFromFiles, type LoadClipsFromUrlOptions } from './loaders/fetch/load-clips-from-url.ts';
export { createOctopusAsset } from './procedural/octopus.ts';
export { createSwordAsset } from './procedural/sword.ts';
export { withProp } from './asset/with-prop.ts';
export { loadClips, CLIP_EXTENSIONS, type ClipLibrary } from './loaders/load-clips.ts';
export { retargetClipLibrary } from './loaders/clip-library.ts';

// Skeleton and pose
export { validateSkeleton, findJoint } from './skeleton/skeleton.ts';
export { createLocalPose, copyLocalPose, cloneLocalPose } from './skeleton/local-pose.ts';
export { localToModel } from './skeleton/local-to-model.ts';
export { PoseKernel, type PoseKernelBackend, type PoseKernelOptions } from './pose/pose-kernel.ts';

// Animation
export { compileClip, RuntimeClip } from './animation/runtime-clip.ts';
export { SamplingContext } from './animation/sampling-context.ts';
export { sampleClip } from './animation/sample-clip.ts';
export {
  BlendingJob, blendLayers, DEFAULT_BLEND_THRESHOLD, type BlendingLayer,
} from './animation/blending-job.ts';
export { ClipPlayer } from './animation/clip-player.ts';
export { AnimationEvent, AnimationEventList, type AnimationEventType } from './animation/animation-events.ts';
export { MarkerTrack } from './animation/clip-markers.ts';
export { applyPlacement, findMotionRoot, MotionRoot, takeRootMotion, type RootMotionMode } from './animation/root-motion.ts';
export { Animator, type AnimatorOptions, type PlayOptions, type LayerOptions, type LayerMode } from './animation/animator.ts';
export type { LoopMode } from './animation/loop-mode.ts';
export {
  retargetClip, matchJoints, bareJointName, RetargetError, RETARGET_RESAMPLE_RATE,
  type RetargetSide, type RetargetOptions, type JointMatch,
} from './animation/retarget-clip.ts';

// Inverse kinematics: pose jobs run by AnimatedModel.evaluate (model.poseJobs), docs/guide/ik.md
export { TwoBoneIkJob, midAxisFromPose, type TwoBoneIkOptions } from './ik/two-bone-ik-job.ts';
export { AimIkJob, type AimIkOptions } from './ik/aim-ik-job.ts';
export { FootPlacementJob, type FootPlacementOptions, type FootPlacementLeg } from './ik/foot-placement-job.ts';
export { poseJointMatrix } from './ik/pose-joint-matrix.ts';
export type { PoseJob } from './skeleton/pose-job.ts';
export { findLegs, findLookAtChain, commonAncestor, type LegJoints } from './ik/rig-names.ts';

// Skinning (CPU reference path, and its WebAssembly SIMD fast path)
export { SkinningContext } from './skinning/skinning-context.ts';
export { computeSkinMatrices } from './skinning/skin-matrices.ts';
export { skinVertices } from './skinning/skin-vertices.ts';
export { SkinningKernel, type SkinningKernelBackend, type SkinningKernelOptions } from './skinning/skinning-kernel.ts';
export { limitInfluences, MAX_INFLUENCES } from './skinning/influences.ts';

// Per-frame model state and the GPU path
export { AnimatedModel } from './scene/animated-model.ts';
export { ClipSample } from './scene/clip-sample.ts';
export { defaultPropJoint, propMatrix, splitDisplayTranslation, swordOffset } from './scene/prop-placement.ts';
export type { Attachment, PropSource } from './view/view-attachments.ts';
export type { PoseSource } from './scene/pose-source.ts';
export { OrbitCamera } from './scene/orbit-camera.ts';
export { ModelPoint, type ModelPointSpec, type Vec3Tuple } from './scene/model-point.ts';
export { PointOcclusion, OCCLUSION_TOLERANCE } from './scene/point-occlusion.ts';
export { createRay, createSurfaceHit, PickContext, pickModel, type Ray, type SurfaceHit } from './scene/pick-model.ts';
export { blendHitWeights } from './scene/hit-weights.ts';
export { cssToBuffer, PixelRays } from './view/pixel-ray.ts';
export { SkinnedRenderer, type CameraMatrices, type RendererOptions, type PalettePath, type PaletteRequest, type PaletteLimits } from './gl/renderer.ts';
export { GpuModel } from './gl/gpu-model.ts';
export { Crowd, crowdInstanceBytes, type CrowdMode, type CrowdOptions, type CrowdProp } from './crowd/crowd.ts';
export { crowdKernelInstanceBytes, crowdKernelSupports, type CrowdKernel } from './crowd/crowd-kernel.ts';
export { InPlaceClipSample, InstanceMotion } from './crowd/instance-motion.ts';
export { GpuInstances, type InstancedDrawStats } from './gl/instance-draw.ts';
export type { InstanceBlocks, BakedPalettes, InstancePoseLayout } from './skinning/instance-blocks.ts';
