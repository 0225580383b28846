/**
 * `sinew-gl`, Sinew's public API: explicit named exports only, each group saying why it is here. Everything here
 * runs in the browser (and in node, touching no DOM at import). Elsewhere: the `<sinew-viewer>` element in
 * `sinew-gl/element` (src/element/index.ts), the node readers and `renderModel` in `sinew-gl/node`
 * (src/node/index.ts), verification helpers (`captureSkinnedVerticesAsync`) in `sinew-gl/testing` (src/testing.ts).
 *
 * What is not here is internal (kernel memory layouts, arena byte counts, constants of the implementation, the
 * MD5 parser's intermediate records): the repository's own tests and tools import those from their modules.
 */

// The data a loader returns: a model's meshes, skeleton, skins, materials and clips, as the file states them.
export type {
  ModelAsset, MeshAsset, PrimitiveAsset, SkinAsset, MeshInstance, MaterialAsset, ImageAsset,
} from './asset/model-asset.ts';
export type { MaterialTexture, TextureCoordinates, TextureTransform, TextureSampler } from './asset/material-texture.ts';
// A VRM's toon material (`MaterialAsset.mtoon`): VRMC_materials_mtoon 1.0, VRM 0.x MToon converted to it.
export type { MToonMaterialAsset, OutlineWidthMode } from './asset/mtoon-material-asset.ts';
export type { Skeleton } from './skeleton/skeleton.ts';
// What a VRM file adds to its model (`ModelAsset.avatar`), in VRM 1.0 semantics for both versions.
export type {
  AvatarAsset, AvatarMeta, HumanoidMap, HumanoidBoneName, ExpressionAsset, ExpressionPreset, ExpressionOverride,
  ExpressionMorphBind, ExpressionColorBind, ExpressionTextureTransformBind, MaterialColorTarget, LookAtAsset,
  LookAtRangeMap, FirstPersonAsset, FirstPersonType,
} from './asset/avatar-asset.ts';
export type {
  AnimationClip, AnimationChannel, ChannelPath, ClipMarker, Interpolation, ExpressionTrack, LookAtTrack,
} from './asset/animation-clip.ts';

// Loading a model: from a URL or dropped files in a browser, through any I/O (`loadModel`), or from glTF bytes.
export {
  loadModel, MODEL_EXTENSIONS, type ModelFile, type FetchCompanion, type LoadModelOptions,
} from './loaders/load-model.ts';
export { loadModelFromUrl, type LoadModelFromUrlOptions } from './loaders/fetch/load-model-from-url.ts';
export { loadModelFromFiles, type LoadModelFromFilesOptions } from './loaders/fetch/load-model-from-files.ts';
export type { ProgressCallback } from './loaders/fetch/download-progress.ts';
export { parseGltf, type GltfParseOptions } from './loaders/gltf/parse-gltf.ts';
// The default of every loader's memory ceiling (`memoryBudgetBytes`), for a page that raises or lowers it.
export { DEFAULT_MEMORY_BUDGET_BYTES } from './asset/memory-budget.ts';

// Errors: every load failure is a LoadError whose `code` is one of LOAD_ERROR_CODES; a retargeting one a RetargetError.
export { LoadError } from './loaders/load-error.ts';
export { LOAD_ERROR_CODES, type LoadErrorCode } from './loaders/load-error-codes.ts';
export { RetargetError } from './animation/retarget-clip.ts';

// Models made in code, which need no file (the octopus; the sword prop), and a prop joined to a character.
export { createOctopusAsset } from './procedural/octopus.ts';
export { createSwordAsset } from './procedural/sword.ts';
// A generated humanoid as files, for trying VRM without one: the avatar as VRM 1.0 and 0.x, its body rigged as Mixamo
// rigs are, and a VRM Animation clip (GLB bytes; deterministic).
export { buildAvatarVrm1 } from './procedural/avatar/avatar-vrm1.ts';
export { buildAvatarVrm0 } from './procedural/avatar/avatar-vrm0.ts';
export type { AvatarVrmOptions } from './procedural/avatar/avatar-vrm-options.ts';
export { buildMixamoRig, type MixamoRigOptions } from './procedural/avatar/mixamo-rig.ts';
export { buildVrmaClip, type VrmaClipOptions } from './procedural/avatar/vrma-clip.ts';
export { withProp } from './asset/with-prop.ts';

// Clips from other files: loaded, then retargeted by joint name onto a character's skeleton.
export { loadClips, CLIP_EXTENSIONS, type ClipLibrary } from './loaders/load-clips.ts';
export { loadClipsFromUrl, loadClipsFromFiles, type LoadClipsFromUrlOptions } from './loaders/fetch/load-clips-from-url.ts';
export { retargetClipLibrary } from './loaders/clip-library.ts';
export {
  retargetClip, matchJoints, type RetargetSide, type RetargetOptions, type JointMatch, type HumanoidPair,
} from './animation/retarget-clip.ts';
/** Joints matched by humanoid bone: how a `.vrma` (its `ClipLibrary.humanoid`) plays on an avatar (`ModelAsset.avatar`). */

// Humanoid bones (VRM 1.0's 55): the table, those of any rig by its joint names (Mixamo, Unreal, Rigify, VRoid,
// Character Creator, VRM names) for retargeting by humanoid bone, and the normalised pose as a view over a skeleton.
export { HUMANOID_BONES, HUMANOID_BONE_NAMES, humanoidParentOf, type HumanoidBone } from './humanoid/humanoid-bones.ts';
export { matchHumanoid, type HumanoidMatch } from './humanoid/match-humanoid.ts';
export {
  createNormalizedHumanoid, setNormalizedRotation, getNormalizedRotation, setNormalizedHipsPosition,
  getNormalizedHipsPosition, normalizedBoneJoint, type NormalizedHumanoid,
} from './humanoid/normalized-humanoid.ts';

// The animation runtime: an Animator plays compiled clips on layers with crossfades, reports loops, ends and
// markers, and takes root motion out of the base layer.
export { compileClip, RuntimeClip } from './animation/runtime-clip.ts';
export { Animator, type AnimatorOptions, type PlayOptions, type LayerOptions, type LayerMode } from './animation/animator.ts';
export { ClipPlayer } from './animation/clip-player.ts';
export type { LoopMode } from './animation/loop-mode.ts';
export { AnimationEvent, AnimationEventList, type AnimationEventType } from './animation/animation-events.ts';
export type { MarkerTrack } from './animation/clip-markers.ts';
export { findMotionRoot, type MotionRoot, type RootMotionMode } from './animation/root-motion.ts';

// Animation graphs (docs/guide/animation-graph.md): states, transitions and blend trees declared as data (PlayCanvas's
// AnimStateGraph format), evaluated as a job over caller-owned state and played on an Animator.
export { AnimationGraph, type AnimationGraphOptions } from './animation/graph/animation-graph.ts';
export { AnimationGraphState, type AnimationGraphStateSizes } from './animation/graph/animation-graph-state.ts';
export { AnimationGraphDriver } from './animation/graph/animation-graph-driver.ts';
export type {
  AnimationGraphAsset, GraphParameter, GraphParameterType, GraphLayer, GraphBlendType, GraphState, GraphBlendTree,
  GraphBlendTreeType, GraphBlendChild, GraphCondition, GraphPredicate, GraphTransition, GraphInterruptionSource,
} from './animation/graph/animation-graph-asset.ts';
export { readAnimationGraph, type ReadAnimationGraphOptions, type ReadAnimationGraphResult } from './loaders/animation-graph/read-animation-graph.ts';
export { analyzeGraphReachability, type GraphReachability, type LayerReachability } from './animation/graph/graph-reachability.ts';

// Poses for a pipeline of one's own (docs/animation-sampling.md, docs/animation-blending.md): sample a clip into a
// local pose, blend poses, turn a local pose into model-space matrices; the PoseKernel does all three in WebAssembly.
export type { LocalPose } from './skeleton/local-pose.ts';
export type { PoseBuffers } from './skeleton/pose-buffers.ts';
export { findJoint } from './skeleton/skeleton.ts';
export { createLocalPose, copyLocalPose, cloneLocalPose } from './skeleton/local-pose.ts';
export { SamplingContext } from './animation/sampling-context.ts';
export { sampleClip } from './animation/sample-clip.ts';
export { BlendingJob, blendLayers, type BlendingLayer } from './animation/blending-job.ts';
export { localToModel } from './skeleton/local-to-model.ts';
export { PoseKernel, type PoseKernelBackend, type PoseKernelOptions } from './pose/pose-kernel.ts';

// Inverse kinematics: pose jobs run by AnimatedModel.evaluate (`model.poseJobs`), and the rig lookups that set them up.
export type { PoseJob } from './skeleton/pose-job.ts';
export { TwoBoneIkJob, midAxisFromPose, type TwoBoneIkOptions } from './ik/two-bone-ik-job.ts';
export { AimIkJob, type AimIkOptions } from './ik/aim-ik-job.ts';
export { FootPlacementJob, type FootPlacementOptions, type FootPlacementLeg } from './ik/foot-placement-job.ts';
export { poseJointMatrix } from './ik/pose-joint-matrix.ts';
export { findLegs, findLookAtChain, commonAncestor, type LegJoints } from './ik/rig-names.ts';

// Secondary motion: VRM spring bones and node constraints, run by AnimatedModel.evaluate (`model.secondaryMotion`).
export type {
  SecondaryMotionAsset, SpringBoneAsset, SpringAsset, SpringJointAsset, SpringColliderAsset, SpringColliderShape,
  SpringColliderGroupAsset, NodeConstraintAsset, AimAxis,
} from './asset/secondary-motion-asset.ts';
export { SecondaryMotion } from './secondary/secondary-motion.ts';
export type { SpringSimulator } from './secondary/spring-simulator.ts';
export { SpringBoneJob, type SpringBoneJobOptions } from './secondary/spring-bone-job.ts';
export { SpringState } from './secondary/spring-state.ts';
export { NodeConstraintJob } from './secondary/node-constraint-job.ts';

// Avatars at run time (`AnimatedModel.avatar` for a model with `ModelAsset.avatar`): expression weights and their
// override rules, the per-material values they drive, look-at, automatic blinking, first-person visibility.
export { AvatarController } from './avatar/avatar-controller.ts';
export { ExpressionState, ExpressionGroup } from './avatar/expression-state.ts';
export { LookAtController, mapLookAtRange, type LookAtMode } from './avatar/look-at.ts';
export { MaterialValues, MATERIAL_COLOR_TARGETS } from './avatar/material-values.ts';
export { autoBlinkWeight } from './avatar/auto-blink.ts';
export { firstPersonVisibility, type FirstPersonVisibility } from './avatar/first-person.ts';

// Skinning on the CPU: the reference the GPU is proven equal to, and its WebAssembly SIMD fast path; the method
// (LBS or DQS, and the weight policy) is chosen the same way for the CPU and the GPU.
export { SkinningContext } from './skinning/skinning-context.ts';
export { computeSkinMatrices } from './skinning/skin-matrices.ts';
export { skinVertices } from './skinning/skin-vertices.ts';
export { SkinningKernel, type SkinningKernelBackend, type SkinningKernelOptions } from './skinning/skinning-kernel.ts';
export type { SkinningMethod, SkinningMode, WeightPolicy } from './skinning/skinning-method.ts';

// Rendering: a model's state each frame (AnimatedModel, posed by an Animator or a clip at a time), and the WebGL2
// renderer that skins it on the GPU, with an orbit camera to look at it.
export { AnimatedModel } from './scene/animated-model.ts';
export { ClipSample } from './scene/clip-sample.ts';
export type { PoseSource } from './scene/pose-source.ts';
export {
  SkinnedRenderer, type CameraMatrices, type RendererOptions, type PalettePath, type PaletteRequest, type PaletteLimits,
} from './gpu/passes/renderer.ts';
export { createRenderItem, type RenderItem } from './gpu/passes/render-item.ts';
// MToon's light: the environment split into a key light and an SH ambient (SkinnedRenderer.environmentLight),
// what the three-vrm comparison lights three.js with (docs/explanation/mtoon.md).
export type { EnvironmentLight } from './gpu/shading/environment-light.ts';
export { GpuModel } from './gpu/skinning/gpu-model.ts';
// The context's device: it restores every GL object after a context loss and says when frames can resume.
export { GpuContext, type ContextListener, type ResourceCounts } from './gpu/device/gpu-context.ts';
export { OrbitCamera } from './scene/orbit-camera.ts';

// Attachments: a prop's matrix on a joint (docs/guide/attachments.md), kept precise far from the origin.
export { defaultPropJoint, propMatrix, splitDisplayTranslation, swordOffset } from './scene/prop-placement.ts';
export type { Attachment, PropSource } from './view/view-attachments.ts';

// Hotspots and picking: points that ride a joint or the skinned surface, whether they are hidden, and where a ray
// through a pixel meets the character as it is posed now.
export { ModelPoint, type ModelPointSpec, type Vec3Tuple } from './scene/model-point.ts';
export { PointOcclusion } from './scene/point-occlusion.ts';
export { createRay, createSurfaceHit, PickContext, pickModel, type Ray, type SurfaceHit } from './scene/pick-model.ts';
export { blendHitWeights } from './scene/hit-weights.ts';
export { cssToBuffer, PixelRays } from './view/pixel-ray.ts';

// Crowds: thousands of instances of one model, posed live or from baked clips, drawn by drawCrowd.
export { Crowd, type CrowdMode, type CrowdOptions, type CrowdProp } from './crowd/crowd.ts';
/** A live crowd's per-instance spring-bone states (`Crowd.springs`). */
export type { InstanceSprings } from './crowd/instance-springs.ts';
/**
 * A crowd's animation graph, run by every instance with its own parameters and state (`Crowd.setAnimationGraph`
 * returns it: `setParameter(k, name, value)`, `getParameter`, `activeState(k)`), and the extra clips per instance
 * it writes (`Crowd.extraClips`, `CrowdOptions.clipsPerInstance`).
 */
export type { CrowdAnimationGraph } from './crowd/crowd-animation-graph.ts';
export type { ExtraClips } from './crowd/extra-clips.ts';
export { GpuInstances, type InstancedDrawStats } from './crowd/gpu/instance-draw.ts';
export { drawCrowd } from './crowd/gpu/crowd-pass.ts';
export type { CrowdItem } from './crowd/gpu/crowd-item.ts';
