// Harness for tests/browser/parity*.spec.ts: exposes window.sinewParity once ready (window.sinewParityReady).
import { influenceCountOf, type ModelAsset } from '../../../src/asset/model-asset.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { writeTangent } from '../../../src/skinning/write-tangent.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { avatarAsset, expression, lookAtAsset } from '../../unit/avatar/avatar-fixtures.ts';
import { skinnedMorphTube, type MorphTubeOptions } from '../../unit/helpers/morph-tube.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { uploadModel, type GpuModel } from '../../../src/gpu/skinning/gpu-model.ts';
import { maxPaletteJoints, paletteStride, readPaletteLimits, type PaletteLimits, type PalettePath } from '../../../src/gpu/skinning/palette-path.ts';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { compileProgram } from '../../../src/gpu/device/shader-program.ts';
import { TransformFeedbackCapture, type CapturedVertices } from '../../../src/gpu/skinning/transform-feedback-capture.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import { createBendingBox } from '../helpers/bending-box.ts';
import { createTwistCylinder } from '../helpers/twist-cylinder.ts';
import { withUnevenWeights } from '../helpers/uneven-weights.ts';
import { createJointChain } from '../helpers/joint-chain.ts';
import { createWideChain } from '../helpers/wide-chain.ts';
import { withBendClip } from '../helpers/synthetic-clip.ts';
import { atOffset } from '../helpers/far-offset.ts';
import { trackGlObjects, type GlObjectCounts } from '../helpers/gl-counter.ts';
import { loadGltf } from '../helpers/load-gltf.ts';
import { loadMd5 } from '../helpers/load-md5.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';

/** Parity of one palette path and skinning method over every sample of a model. */
export interface PathParity {
  /** Palette path; `texture-wrapped`: the texture path with 3 joints per row (wrapped rows, partial last row). */
  path: PalettePath | 'texture-wrapped';
  /** Skinning mode and weight policy, as `lbs/normalize`. */
  method: string;
  /** Why the path was not run (e.g. joints beyond the uniform budget), or null. */
  skipped: string | null;
  /** Max over samples and vertices of |p_gpu − p_cpu| (Euclidean, model units). */
  maxPositionError: number;
  /** Max over samples and vertices of |n_gpu − n_cpu| (unit normals). */
  maxNormalError: number;
  /** Max over samples and vertices of |t_gpu − t_cpu| (unit tangents with w), over primitives with tangents. */
  maxTangentError: number;
  /** Tangents compared (0 when no primitive has any). */
  tangentsCompared: number;
  /** Where the worst position error occurred. */
  worst: string;
  samples: number;
  verticesCompared: number;
}

export interface ModelParity {
  model: string;
  /** Diagonal of the bounding box of every CPU-skinned position over all samples. */
  diagonal: number;
  jointCount: number;
  /** Most influence slots per vertex (`PrimitiveAsset.influenceCount`) over the skinned primitives compared. */
  influences: number;
  /** Primitives compared: the skinned ones and the rigid ones with morph targets. */
  skinnedPrimitives: number;
  /** Most morph targets of a primitive compared (0: none). */
  morphTargets: number;
  /** Sample descriptions: clip name @ time. */
  times: string[];
  paths: PathParity[];
  warnings: string[];
  maxVertexUniformVectors: number;
  /** The context's limits the paths were chosen by. */
  limits: PaletteLimits;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false });
if (!gl) throw new Error('parity harness: no WebGL2');

/**
 * {@link runParity}'s GPU half, one capture per palette path (`texture-wrapped`: 3 joints per texture row), kept for
 * the page's life: a page that runs several models (a spec's tests sharing one harness page) compiles each
 * program variant once. A capture holds no result between runs (each is read back whole).
 */
const captures = {
  uniform: new TransformFeedbackCapture(gl), ubo: new TransformFeedbackCapture(gl),
  texture: new TransformFeedbackCapture(gl), 'texture-wrapped': new TransformFeedbackCapture(gl, 3),
};

/**
 * Which times of each clip {@link runParity} samples (always after the rest pose): `spread`, 0, 0.23d, 0.5d,
 * 0.77d and d; `keys`, every distinct key time of the clip's channels (for MD5, every frame).
 */
export type Sampling = 'spread' | 'keys';

/** The (clip, time) samples: the rest pose, then for every clip the times `sampling` names. */
function samplesOf(asset: ModelAsset, sampling: Sampling = 'spread'): { clip: number; time: number; label: string }[] {
  const samples = [{ clip: -1, time: 0, label: 'rest' }];
  asset.clips.forEach((clip, c) => {
    if (sampling === 'keys') {
      const times = [...new Set(clip.channels.flatMap((channel) => [...channel.times]))].sort((a, b) => a - b);
      times.forEach((time, k) => samples.push({ clip: c, time, label: `${clip.name || `clip ${c}`} key ${k}@${time.toFixed(3)}` }));
      return;
    }
    for (const f of [0, 0.23, 0.5, 0.77, 1]) {
      const time = f * clip.duration;
      samples.push({ clip: c, time, label: `${clip.name || `clip ${c}`}@${time.toFixed(3)}` });
    }
  });
  return samples;
}

/**
 * Skins every skinned primitive of `asset` at every sample on the GPU (transform feedback) and the CPU
 * (`skinVertices`) for each palette path × each of `methods`, and records the worst differences. Morph
 * targets are applied first on both sides (`MorphedPrimitive`, the shader's `MORPH_TARGETS`); rigid primitives
 * with morph targets are compared too (morphed, in the mesh's space). `prepare` sets the model up before the
 * first sample (e.g. an avatar's expressions and look-at); `poseAt`, when given, poses the model for a sample
 * instead of one evaluate at the sample's clip and time (e.g. springs simulated up to it).
 */
async function runParity(
  asset: ModelAsset, sampling: Sampling = 'spread', methods: readonly SkinningMethod[] = [DEFAULT_SKINNING_METHOD],
  prepare: ((animated: AnimatedModel) => void) | null = null,
  poseAt: ((animated: AnimatedModel, clip: number, time: number) => void) | null = null,
): Promise<ModelParity> {
  const gpu: GpuModel = uploadModel(gl!, asset);
  const limits = readPaletteLimits(gl!);
  const animated = new AnimatedModel(asset);
  prepare?.(animated);
  const maxVectors = gl!.getParameter(gl!.MAX_VERTEX_UNIFORM_VECTORS) as number;
  let jointCount = 0;
  for (const skin of asset.skins) jointCount = Math.max(jointCount, skin.joints.length);
  const samples = samplesOf(asset, sampling);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const targets: { instance: number; primitive: number; morph: MorphedPrimitive | null }[] = [];
  asset.meshInstances.forEach((instance, i) => {
    const morphed = (instance.morphWeightOffset ?? -1) >= 0;
    asset.meshes[instance.mesh].primitives.forEach((p, k) => {
      const morph = morphed && p.morphTargets ? new MorphedPrimitive(p) : null;
      if ((instance.skin >= 0 && p.joints && p.weights) || morph) targets.push({ instance: i, primitive: k, morph });
    });
  });
  const paths: PathParity[] = [];
  try {
    for (const method of methods) {
      // The palette paths this method runs on (results in path order), the others skipped with the reason.
      const running: { path: keyof typeof captures; result: PathParity }[] = [];
      for (const path of ['uniform', 'ubo', 'texture', 'texture-wrapped'] as const) {
        const label = `${method.skinning}/${method.weights}`;
        const result: PathParity = { path, method: label, skipped: null, maxPositionError: 0, maxNormalError: 0, maxTangentError: 0, tangentsCompared: 0, worst: '', samples: 0, verticesCompared: 0 };
        paths.push(result);
        const stride = paletteStride(method.skinning);
        if ((path === 'uniform' || path === 'ubo') && jointCount > maxPaletteJoints(path, limits, stride)) {
          const limit = path === 'uniform' ? `MAX_VERTEX_UNIFORM_VECTORS ${maxVectors}` : `MAX_UNIFORM_BLOCK_SIZE ${limits.maxUniformBlockSize}`;
          result.skipped = `${jointCount} joints exceed the ${path} budget (${maxPaletteJoints(path, limits, stride)} joints for ${limit}, ${method.skinning})`;
          continue;
        }
        running.push({ path, result });
      }
      if (running.length === 0) continue;
      // Per sample: the CPU skins each primitive once for every path, and every path's capture of every primitive is
      // drawn at once and read back as its fence passes (captureAsync draws at the call, so the next sample's pose
      // cannot reach a capture in flight). Each path's result sees its samples, primitives and vertices in the same
      // order as one path at a time would.
      for (const sample of samples) {
        if (poseAt) poseAt(animated, sample.clip, sample.time);
        else animated.evaluate(animated.clipSample(sample.clip).at(sample.time));
        for (const { result } of running) result.samples++;
        const skinned: { instance: number; primitive: number; n: number; cpuPositions: Float32Array; cpuNormals: Float32Array; cpuTangents: Float32Array | null; captured: Promise<CapturedVertices>[] }[] = [];
        for (const { instance, primitive, morph } of targets) {
          const skin = asset.meshInstances[instance].skin;
          const source = asset.meshes[asset.meshInstances[instance].mesh].primitives[primitive];
          const primitiveAsset = morph ? morph.apply(animated.morphWeights, asset.meshInstances[instance].morphWeightOffset!) : source;
          const palette = skin >= 0 ? animated.skinMatrices[skin] : new Float32Array(0);
          const n = primitiveAsset.vertexCount;
          const cpuPositions = new Float32Array(3 * n), cpuNormals = new Float32Array(3 * n);
          const cpuTangents = primitiveAsset.tangents ? new Float32Array(4 * n) : null;
          if (skin >= 0 && primitiveAsset.joints) {
            skinVertices(cpuPositions, cpuNormals, primitiveAsset, palette, animated.skinningContexts[skin], method, cpuTangents);
          } else {
            // Rigid and morphed: the morphed vertex itself, normal and tangent normalised as the shader outputs them.
            cpuPositions.set(primitiveAsset.positions);
            for (let v = 0; v < n; v++) {
              const x = primitiveAsset.normals[3 * v], y = primitiveAsset.normals[3 * v + 1], z = primitiveAsset.normals[3 * v + 2];
              const length = Math.hypot(x, y, z);
              cpuNormals.set(length > 0 ? [x / length, y / length, z / length] : [0, 0, 0], 3 * v);
              const t = primitiveAsset.tangents;
              if (cpuTangents && t) writeTangent(cpuTangents, v, t[4 * v], t[4 * v + 1], t[4 * v + 2], t[4 * v + 3]);
            }
          }
          // Fenced: read back once the GPU is done, without stalling the pipeline.
          const captured = running.map(({ path }) => captures[path].captureAsync({
            gpuModel: gpu, instanceIndex: instance, primitiveIndex: primitive, skinMatrices: palette,
            palettePath: path === 'texture-wrapped' ? 'texture' : path, method, origin: animated.origin, morphWeights: animated.morphWeights,
          }));
          // Settled now, awaited below: a rejection is reported there, not as unhandled.
          for (const pending of captured) pending.catch(() => undefined);
          skinned.push({ instance, primitive, n, cpuPositions, cpuNormals, cpuTangents, captured });
        }
        for (const { instance, primitive, n, cpuPositions, cpuNormals, cpuTangents, captured: pending } of skinned) {
          for (let v = 0; v < n; v++) {
            const o = 3 * v;
            for (let k = 0; k < 3; k++) {
              min[k] = Math.min(min[k], cpuPositions[o + k]);
              max[k] = Math.max(max[k], cpuPositions[o + k]);
            }
          }
          for (let p = 0; p < running.length; p++) {
            const result = running[p].result;
            const captured = await pending[p];
            for (let v = 0; v < n; v++) {
              const o = 3 * v;
              const dp = Math.hypot(captured.positions[o] - cpuPositions[o], captured.positions[o + 1] - cpuPositions[o + 1], captured.positions[o + 2] - cpuPositions[o + 2]);
              const dn = Math.hypot(captured.normals[o] - cpuNormals[o], captured.normals[o + 1] - cpuNormals[o + 1], captured.normals[o + 2] - cpuNormals[o + 2]);
              // NaN must fail, so compare with !(a <= b).
              if (!(dp <= result.maxPositionError)) {
                result.maxPositionError = Number.isNaN(dp) ? Infinity : dp;
                result.worst = `${sample.label} instance ${instance} primitive ${primitive} vertex ${v}`;
              }
              if (!(dn <= result.maxNormalError)) result.maxNormalError = Number.isNaN(dn) ? Infinity : dn;
              if (cpuTangents) {
                const t = 4 * v, g = captured.tangents;
                const dt = Math.hypot(g[t] - cpuTangents[t], g[t + 1] - cpuTangents[t + 1], g[t + 2] - cpuTangents[t + 2], g[t + 3] - cpuTangents[t + 3]);
                if (!(dt <= result.maxTangentError)) result.maxTangentError = Number.isNaN(dt) ? Infinity : dt;
                result.tangentsCompared++;
              }
            }
            result.verticesCompared += n;
          }
        }
      }
    }
  } finally {
    gpu.dispose();
  }
  return {
    model: asset.name,
    diagonal: Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]),
    jointCount,
    influences: Math.max(0, ...targets.map(({ instance, primitive }) => influenceCountOf(asset.meshes[asset.meshInstances[instance].mesh].primitives[primitive]))),
    skinnedPrimitives: targets.length,
    morphTargets: Math.max(0, ...targets.map(({ morph }) => morph?.source.morphTargets?.count ?? 0)),
    times: samples.map((s) => s.label),
    paths,
    warnings: [...asset.warnings],
    maxVertexUniformVectors: maxVectors,
    limits,
  };
}

/**
 * Counts GL creates and deletes around: upload, a drawn frame on each palette path, a transform-feedback
 * capture on each path, then dispose() twice of everything. Everything created must be deleted.
 */
async function resourceCounts(asset: ModelAsset): Promise<GlObjectCounts> {
  const counter = trackGlObjects(gl!);
  try {
    const animated = new AnimatedModel(asset);
    const camera = { view: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, -5, 1]), projection: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, -1, 0, 0, -0.2, 0]), eye: new Float32Array([0, 1, 5]) };
    for (const palette of ['uniform', 'ubo', 'texture'] as const) {
      const renderer = new SkinnedRenderer(gl!, { palette });
      const model = await renderer.upload(asset);
      renderer.beginFrame(64, 64);
      const item = createRenderItem(model, animated);
      renderer.draw(item, camera);
      renderer.draw(item, camera);
      const capture = new TransformFeedbackCapture(gl!);
      // Fenced captures, all in flight at once (an output buffer set each), then one synchronous capture.
      const inFlight: Promise<unknown>[] = [];
      asset.meshInstances.forEach((instance, i) => {
        const morphed = (instance.morphWeightOffset ?? -1) >= 0;
        if (instance.skin >= 0 || morphed) {
          const request = {
            gpuModel: model, instanceIndex: i, primitiveIndex: 0, skinMatrices: instance.skin >= 0 ? animated.skinMatrices[instance.skin] : new Float32Array(0),
            palettePath: palette, morphWeights: morphed ? animated.morphWeights : undefined,
          };
          inFlight.push(capture.captureAsync(request));
          if (inFlight.length === 1) capture.capture(request);
        }
      });
      await Promise.all(inFlight);
      capture.dispose();
      capture.dispose();
      model.dispose();
      model.dispose();
      renderer.dispose();
      renderer.dispose();
    }
    const error = gl!.getError();
    if (error !== gl!.NO_ERROR) throw new Error(`GL error 0x${error.toString(16)} during the resource test`);
    return counter.counts(gl!);
  } finally {
    counter.uninstall();
  }
}

/** Compiles a deliberately broken shader through the production path; returns the Error message. */
function compileErrorMessage(): string {
  const vertex = '#version 300 es\nin vec3 a_position;\nvoid main() {\n  gl_Position = vec4(a_position, 1.0)\n}\n';
  const fragment = '#version 300 es\nprecision highp float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n';
  try {
    compileProgram(gl!, { name: 'broken.vert', vertex, fragment });
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error thrown';
}

const api = {
  generated: (methods?: SkinningMethod[]) => runParity(createBendingBox(), 'spread', methods),
  jointChain: (jointCount: number, methods?: SkinningMethod[]) => runParity(createJointChain(jointCount), 'spread', methods),
  /** The bending box with weights scaled per vertex (sums from 0.6 to 1.3), where the weight policies differ. */
  unevenWeights: (methods?: SkinningMethod[]) => runParity(withUnevenWeights(createBendingBox()), 'spread', methods),
  /** A cylinder twisting 170° about its axis (candy-wrapper case), plain and with uneven weights. */
  twist: (uneven: boolean, methods?: SkinningMethod[]) => runParity(uneven ? withUnevenWeights(createTwistCylinder()) : createTwistCylinder(), 'spread', methods),
  /** The 32-joint curling chain with `influenceCount` influences per vertex (createWideChain), optionally with uneven weights. */
  wideChain: (influenceCount: number, methods?: SkinningMethod[]) => runParity(createWideChain(influenceCount), 'spread', methods),
  /**
   * The generated models 10 km from the origin (atOffset: roots at (10 000, 0, 10 000) m), skinned relative to
   * their model origin: `box` the bending box (+ uneven weights), `chain` the 32-joint chain with 12 influences;
   * `far = false`: the same model at the origin.
   */
  far: (model: 'box' | 'uneven' | 'chain', methods?: SkinningMethod[], far = true) => {
    const asset = model === 'box' ? createBendingBox() : model === 'uneven' ? withUnevenWeights(createBendingBox()) : createWideChain(12);
    return runParity(far ? atOffset(asset) : asset, 'spread', methods);
  },
  maxVertexUniformVectors: () => gl.getParameter(gl.MAX_VERTEX_UNIFORM_VECTORS) as number,
  paletteLimits: () => readPaletteLimits(gl),
  url: async (url: string, methods?: SkinningMethod[]) => runParity(await loadGltf(url), 'spread', methods),
  /** A glTF with one more clip turning every skin joint (withBendClip), for models whose clips leave the skin at rest. */
  urlBent: async (url: string, methods?: SkinningMethod[]) => runParity(withBendClip(await loadGltf(url)), 'spread', methods),
  /** An `.md5mesh` (+ `.md5anim`, see loadMd5) through the viewer's MD5 loading; by default every frame. */
  md5: async (meshUrl: string, animUrl: string | null = null, sampling: Sampling = 'keys', methods?: SkinningMethod[]) =>
    runParity(await loadMd5(meshUrl, animUrl), sampling, methods),
  resourcesGenerated: () => resourceCounts(createBendingBox()),
  /** The 32-joint chain with 12 influences: its overflow texture is made on upload and freed on dispose. */
  resourcesWideChain: () => resourceCounts(createWideChain(12)),
  resourcesUrl: async (url: string) => resourceCounts(await loadGltf(url)),
  /** The morphed tube (morph-tube.ts): its deltas texture and the active-target list are freed too. */
  resourcesMorphTube: async (skinned: boolean) => resourceCounts(await parseGltf('morph-tube.glb', skinnedMorphTube({ skinned }).glb())),
  compileErrorMessage,
  /** A glTF with morph targets by URL (e.g. SimpleMorph), at the rest pose and spread times of its clips. */
  morphUrl: async (url: string, methods?: SkinningMethod[]) => runParity(await loadGltf(url), 'spread', methods),
  /** The tube of tests/unit/helpers/morph-tube.ts (skinned or rigid, n POSITION + NORMAL targets, TANGENT on target 0). */
  morphTube: async (options: MorphTubeOptions, methods?: SkinningMethod[]) =>
    runParity(await parseGltf('morph-tube.glb', skinnedMorphTube(options).glb()), 'spread', methods),
  /**
   * The skinned tube made an avatar (tests/unit/avatar/avatar-fixtures.ts): happy (0.7) and aa (0.5) drive its morph
   * targets 1 and 2, bone look-at turns its upper joint (as the left eye) towards a point, so the morph weights and
   * matrices both sides skin from carry expressions and look-at. Throws when the expressions do not reach the weights.
   */
  morphTubeAvatar: async (methods?: SkinningMethod[]) => {
    const tube = await parseGltf('morph-tube.glb', skinnedMorphTube().glb());
    const o = tube.meshInstances[0].morphWeightOffset!;
    const joint = (node: number): number => Array.from(tube.skeleton.sourceIndices).indexOf(node);
    const avatar = avatarAsset([
      expression('happy', { morphTargetBinds: [{ morphWeight: o + 1, weight: 1 }] }),
      expression('aa', { morphTargetBinds: [{ morphWeight: o + 2, weight: 0.8 }, { morphWeight: o + 1, weight: 0.2 }] }),
    ], { head: joint(1), leftEye: joint(2) }, lookAtAsset('bone'));
    return runParity({ ...tube, avatar }, 'spread', methods, (animated) => {
      animated.avatar!.setExpression('happy', 0.7);
      animated.avatar!.setExpression('aa', 0.5);
      animated.avatar!.lookAt!.setTarget(0.8, 1.5, 1);
      animated.evaluate(animated.clipSample(-1));
      const rest = tube.restPose.morphWeights!;
      const expected = [rest[o + 1] + 0.7 + 0.1, rest[o + 2] + 0.4];
      if (Math.abs(animated.morphWeights[o + 1] - expected[0]) > 1e-6 || Math.abs(animated.morphWeights[o + 2] - expected[1]) > 1e-6) {
        throw new Error(`expressions did not reach the morph weights: ${Array.from(animated.morphWeights)}`);
      }
    });
  },
};
/**
 * The generated VRM 1.0 avatar (its spring chains, colliders of every shape, node constraints) playing the
 * retargeted walk (.vrma), posed at each sample by {@link simulateSpringsTo}: 60 Hz for the second before it with a
 * wind. Also measures how far the springs move the skinned vertices from the springs-off pose (CPU, LBS), the
 * largest over the samples, so a run where the springs do nothing fails.
 */
async function springAvatar(methods?: SkinningMethod[]): Promise<ModelParity & { springDisplacement: number }> {
  const none = async (): Promise<never> => { throw new Error('no companion files'); };
  const model = await loadModel({ name: 'avatar.vrm', bytes: await buildAvatarVrm1({ texture: false }) }, none);
  const library = await loadClips({ name: 'walk.vrma', bytes: await buildVrmaClip({ duration: 2 }) }, none);
  const asset: ModelAsset = { ...model, clips: retargetClipLibrary(library, model).clips };
  const wind = (animated: AnimatedModel): void => { animated.secondaryMotion!.external.set([1.5, 0, 2]); };
  const parity = await runParity(asset, 'spread', methods, wind, simulateSpringsTo);
  // Springs on against off, every sample, every skinned primitive.
  const on = new AnimatedModel(asset), off = new AnimatedModel(asset);
  wind(on);
  off.secondaryMotion!.springs!.enabled = false;
  let springDisplacement = 0;
  for (const sample of samplesOf(asset)) {
    simulateSpringsTo(on, sample.clip, sample.time);
    off.evaluate(off.clipSample(sample.clip).at(sample.time));
    for (const instance of asset.meshInstances) {
      if (instance.skin < 0) continue;
      for (const p of asset.meshes[instance.mesh].primitives) {
        if (!p.joints) continue;
        const a = new Float32Array(3 * p.vertexCount), b = new Float32Array(3 * p.vertexCount);
        skinVertices(a, null, p, on.skinMatrices[instance.skin], on.skinningContexts[instance.skin], DEFAULT_SKINNING_METHOD);
        skinVertices(b, null, p, off.skinMatrices[instance.skin], off.skinningContexts[instance.skin], DEFAULT_SKINNING_METHOD);
        for (let v = 0; v < a.length; v += 3) springDisplacement = Math.max(springDisplacement, Math.hypot(a[v] - b[v], a[v + 1] - b[v + 1], a[v + 2] - b[v + 2]));
      }
    }
  }
  return { ...parity, springDisplacement };
}

/**
 * Poses `animated` at (clip, time) with its springs simulated over the second before: reset at the pose of
 * time − 1 s, then 60 steps of 1/60 s, the clip posed at each step's time first (`sinew eval --springs` order).
 */
function simulateSpringsTo(animated: AnimatedModel, clip: number, time: number): void {
  const motion = animated.secondaryMotion!, sample = animated.clipSample(clip);
  motion.reset();
  animated.evaluate(sample.at(Math.max(0, time - 1)));
  for (let k = 1; k <= 60; k++) {
    motion.step(1 / 60);
    animated.evaluate(sample.at(Math.max(0, time - 1 + k / 60)));
  }
}

(window as unknown as { sinewParity: typeof api & { springAvatar: typeof springAvatar } }).sinewParity = { ...api, springAvatar };
(window as unknown as { sinewParityReady: boolean }).sinewParityReady = true;
