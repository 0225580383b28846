import { describe, expect, it } from 'vitest';
import * as core from '../../../src/index.ts';
import * as node from '../../../src/node/index.ts';
import * as testing from '../../../src/testing.ts';

// The package's entry points are a contract (package.json `exports`): each runtime name is listed here, so adding
// one is a decision and removing one a CHANGELOG entry. Types are checked by the package-consumer browser test.
describe('the entry points export what a user needs, and nothing internal', () => {
  it('sinew-gl: exactly the public runtime names of src/index.ts', () => {
    expect(Object.keys(core).sort()).toEqual([
      'AimIkJob', 'AnimatedModel', 'AnimationEvent', 'AnimationEventList', 'AnimationGraph', 'AnimationGraphDriver',
      'AnimationGraphState', 'Animator', 'AvatarController',
      'BlendingJob', 'CLIP_EXTENSIONS', 'ClipPlayer', 'ClipSample', 'Crowd', 'DEFAULT_MEMORY_BUDGET_BYTES',
      'ExpressionGroup', 'ExpressionState', 'FootPlacementJob', 'GpuContext', 'GpuInstances', 'GpuModel',
      'HUMANOID_BONES', 'HUMANOID_BONE_NAMES', 'LOAD_ERROR_CODES', 'LoadError', 'LookAtController',
      'MATERIAL_COLOR_TARGETS', 'MODEL_EXTENSIONS', 'MaterialValues', 'ModelPoint', 'NodeConstraintJob', 'OrbitCamera', 'PickContext',
      'PixelRays', 'PointOcclusion', 'PoseKernel', 'RetargetError', 'RuntimeClip', 'SamplingContext', 'SecondaryMotion',
      'SkinnedRenderer', 'SkinningContext', 'SkinningKernel', 'SpringBoneJob', 'SpringState', 'TwoBoneIkJob', 'analyzeGraphReachability', 'autoBlinkWeight', 'blendHitWeights',
      'blendLayers', 'buildAvatarVrm0', 'buildAvatarVrm1', 'buildMixamoRig', 'buildVrmaClip', 'cloneLocalPose', 'commonAncestor', 'compileClip', 'computeSkinMatrices', 'copyLocalPose',
      'createLocalPose', 'createNormalizedHumanoid', 'createOctopusAsset', 'createRay', 'createRenderItem',
      'createSurfaceHit', 'createSwordAsset', 'cssToBuffer', 'defaultPropJoint', 'drawCrowd', 'findJoint', 'findLegs',
      'findLookAtChain', 'findMotionRoot', 'firstPersonVisibility', 'getNormalizedHipsPosition',
      'getNormalizedRotation', 'humanoidParentOf', 'loadClips', 'loadClipsFromFiles', 'loadClipsFromUrl', 'loadModel',
      'loadModelFromFiles', 'loadModelFromUrl', 'localToModel', 'mapLookAtRange', 'matchHumanoid', 'matchJoints',
      'midAxisFromPose', 'normalizedBoneJoint', 'parseGltf', 'pickModel', 'poseJointMatrix', 'propMatrix', 'readAnimationGraph',
      'retargetClip', 'retargetClipLibrary', 'sampleClip', 'setNormalizedHipsPosition', 'setNormalizedRotation',
      'skinVertices',
      'splitDisplayTranslation', 'swordOffset', 'withProp',
    ]);
  });

  it('sinew-gl: the internal names removed in 0.2.0 (CHANGELOG) stay out', () => {
    const removed = [
      'parseMd5Mesh', 'parseMd5Anim', 'md5ToModelAsset', 'modelFormatOf', 'validateSkeleton', 'DEFAULT_BLEND_THRESHOLD',
      'MarkerTrack', 'applyPlacement', 'takeRootMotion', 'MotionRoot', 'bareJointName', 'RETARGET_RESAMPLE_RATE',
      'limitInfluences', 'MAX_INFLUENCES', 'OCCLUSION_TOLERANCE', 'crowdInstanceBytes', 'crowdKernelInstanceBytes',
      'crowdKernelSupports', 'CrowdKernel', 'InPlaceClipSample', 'InstanceMotion', 'captureSkinnedVertices',
    ];
    expect(removed.filter((name) => name in core)).toEqual([]);
  });

  it('sinew-gl/node: the readers, renderModel, its session and formats, and the Chromium it finds; the replaced and internal names are gone', () => {
    expect(Object.keys(node).sort()).toEqual([
      'CHROMIUM_ARGS', 'RENDER_FORMATS', 'RenderModelError', 'findChromium', 'loadClipsFromPath', 'loadModelFromPath', 'openRenderSession',
      'renderFormatOfPath', 'renderModel',
    ]);
    for (const old of ['readGltfFile', 'readMd5Files', 'loadModelFile', 'readModelFile', 'startFileServer', 'NO_CHROMIUM_MESSAGE']) {
      expect(old in node).toBe(false);
    }
  });

  it('sinew-gl/testing: the transform-feedback capture and the frame fingerprint', () => {
    expect(Object.keys(testing).sort()).toEqual(['TransformFeedbackCapture', 'captureSkinnedVertices', 'captureSkinnedVerticesAsync', 'readFrame']);
  });

  it('loading follows one naming rule, loadModel*(source, options), and every failure is a LoadError with a registered code', () => {
    expect([core.loadModel, core.loadModelFromUrl, core.loadModelFromFiles, node.loadModelFromPath].map((f) => typeof f)).toEqual(['function', 'function', 'function', 'function']);
    expect(Object.keys(core.LOAD_ERROR_CODES)).toEqual(expect.arrayContaining(['FILE_NOT_FOUND', 'RETARGET_NO_MATCH', 'RETARGET_DEGENERATE_REST_POSE']));
    expect(core.CLIP_EXTENSIONS).toEqual(['.glb', '.gltf', '.md5anim', '.vrma']);
  });
});
