// Harness for tests/browser/crowd/crowd-parity.spec.ts: exposes window.sinewCrowdParity once ready (window.sinewCrowdParityReady).
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { Crowd, type CrowdMode } from '../../../src/crowd/crowd.ts';
import { uploadModel } from '../../../src/gpu/skinning/gpu-model.ts';
import { GpuInstances } from '../../../src/crowd/gpu/instance-draw.ts';
import { InstancedCapture } from '../../../src/crowd/gpu/instanced-capture.ts';
import { BUILT_IN_MODELS } from '../../../src/crowd/built-in-models.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { loadGltf } from '../helpers/load-gltf.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinnedMorphTube } from '../../unit/helpers/morph-tube.ts';
import { withRigidProp } from '../helpers/rigid-prop.ts';
import { createSwordAsset } from '../../../src/procedural/sword.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';
import { propMatrix } from '../../../src/scene/prop-placement.ts';
import type { CrowdProp } from '../../../src/crowd/crowd.ts';
import { withUnevenWeights } from '../helpers/uneven-weights.ts';
import { AnimationGraph } from '../../../src/animation/graph/animation-graph.ts';
import { readAnimationGraph } from '../../../src/loaders/animation-graph/read-animation-graph.ts';
import { atOffset } from '../helpers/far-offset.ts';
import { createWideChain } from '../helpers/wide-chain.ts';

/** Instanced output against the CPU reference, per mode. */
export interface CrowdParity {
  model: string;
  mode: CrowdMode;
  method: SkinningMethod;
  instances: number;
  /** |O|, the crowd's model origin's distance from model space's origin (0 for a model near it). */
  originDistance: number;
  /** Drawn instances whose world matrix mirrors (det < 0). */
  mirrored: number;
  /** Drawn instances blending a second clip (blend weight > 0). */
  blended: number;
  /** Drawn instances blending three clips or more (an animation graph's transition: `Crowd.extraClips` weight > 0). */
  threeClips: number;
  /** Vertices of rigid meshes among {@link verticesCompared}. */
  rigidVerticesCompared: number;
  /** `+sword` models: vertices of the carried sword compared with the single-model attachment's place. */
  attachmentVerticesCompared: number;
  /**
   * `+sword`: max over instances and sword vertices of |p_gpu − W·propMatrix(character, joint, offset)·p| / the
   * instance's diagonal: the crowd's prop against `propMatrix` on the character alone (an `AnimatedModel` of the
   * asset without the prop, its `world` the instance's W).
   */
  maxAttachmentError: number;
  /** Vertices of morphed meshes (with a non-zero weight) among {@link verticesCompared}. */
  morphedVerticesCompared: number;
  verticesCompared: number;
  /** Max over instances and vertices of |p_gpu − p_cpu| / (diagonal of that instance's CPU-skinned world box). */
  maxRelativePositionError: number;
  /** Max |n_gpu − n_cpu| over unit normals. */
  maxNormalError: number;
  /** Baked only: max over instances between baked frames of |p_gpu − p_live| / diagonal: the baking error. */
  maxBakedInterpolationError: number | null;
  /** Baked: frames per second baked at. */
  bakeRate: number | null;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { antialias: false });
if (!gl) throw new Error('crowd parity harness: no WebGL2');

/**
 * Instance k's world matrix: a rotation about a tilted axis, a non-uniform scale (a mirror in x for k = 1 and
 * 4) and a translation.
 */
/**
 * Where `far:` models stand: just past FAR_FROM_ORIGIN (1 024), so O ≠ 0 while float32 positions there
 * (spacing 2⁻¹³) stay well inside the comparison's tolerance; their instances' world matrices move them back.
 */
const FAR: [number, number, number] = [1100, 0, -700];

function worldOf(k: number, size: number): Float32Array {
  const a = 0.7 * k + 0.3, c = Math.cos(a), s = Math.sin(a);
  const sx = (k % 3 === 1 ? -1 : 1) * (1 + 0.1 * k), sy = 1 - 0.05 * (k % 6), sz = 1 + 0.2 * (k % 3);
  // R_y(a) · S, then a translation of a few sizes.
  return new Float32Array([
    c * sx, 0, -s * sx, 0,
    0, sy, 0, 0,
    s * sz, 0, c * sz, 0,
    size * (k - 2), 0.25 * size * (k % 2), -size * 0.5 * k, 1,
  ]);
}

/**
 * A built-in name, `wide-<n>` (the joint chain with n influences per vertex), `morph-tube` / `morph-tube-rigid`
 * (5 morph targets with animated weights, skinned or on a moving node), a glTF URL; prefixed `uneven:` for
 * weights whose sums differ from 1, `far:` for the model moved {@link FAR} from model space's origin (so its
 * origin O is not 0), suffixed `+prop` for a rigid box held by skeleton joint 3.
 */
async function load(model: string): Promise<ModelAsset> {
  if (model.startsWith('far:')) return atOffset(await load(model.slice(4)), FAR);
  if (model.startsWith('uneven:')) return withUnevenWeights(await load(model.slice(7)));
  if (model.endsWith('+prop')) {
    const asset = await load(model.slice(0, -5));
    return withRigidProp(asset, Math.min(3, asset.skeleton.jointCount - 1), 0.3 * modelSize(asset), [0.2 * modelSize(asset), 0, 0]);
  }
  if (model.startsWith('wide-')) return createWideChain(Number(model.slice(5)));
  if (model.startsWith('morph-tube')) return parseGltf('morph-tube.glb', skinnedMorphTube({ skinned: model === 'morph-tube', targets: 5 }).glb());
  return BUILT_IN_MODELS[model]?.() ?? loadGltf(model);
}

/**
 * The built-in sword (its node at the identity: its model space is its node's) on a right hand, else joint 3:
 * turned 0.6 rad about a tilted axis, moved off the joint and scaled to half the model's size.
 */
function swordProp(character: ModelAsset): CrowdProp & { offset: Float64Array } {
  const names = character.skeleton.names;
  const hand = names.findIndex((name) => /righthand|arm_joint_R__3_/i.test(name));
  const size = modelSize(character), s = (0.5 * size) / 0.9;
  const axis = [0.3, 0.5, 0.8].map((x) => x / Math.hypot(0.3, 0.5, 0.8)), a = 0.6, c = Math.cos(a), si = Math.sin(a), t = 1 - c;
  const [x, y, z] = axis;
  // Rodrigues' rotation, column-major, times s; translation 0.05·size along x.
  const offset = Float64Array.of(
    s * (t * x * x + c), s * (t * x * y + si * z), s * (t * x * z - si * y), 0,
    s * (t * x * y - si * z), s * (t * y * y + c), s * (t * y * z + si * x), 0,
    s * (t * x * z + si * y), s * (t * y * z - si * x), s * (t * z * z + c), 0,
    0.05 * size, 0.02 * size, 0, 1);
  return { asset: createSwordAsset(), joint: hand >= 0 ? names[hand] : Math.min(3, character.skeleton.jointCount - 1), offset };
}

/** The largest extent of the model's positions. */
function modelSize(asset: ModelAsset): number {
  let lo = Infinity, hi = -Infinity;
  for (const mesh of asset.meshes) for (const p of mesh.primitives) for (const x of p.positions) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
  return hi > lo ? hi - lo : 1;
}

/**
 * Six instances (forty for a `many:` prefix) of `model` (a built-in name or a glTF URL, as {@link load} takes) with different clips, times, speeds and world matrices, drawn
 * instanced and captured by transform feedback; each compared with the CPU reference (skinVertices at its
 * clip and time — baked mode: times on baked frames — then its world matrix in f64).
 */
async function run(model: string, mode: CrowdMode, method: SkinningMethod = DEFAULT_SKINNING_METHOD, blend = false, graph = false): Promise<CrowdParity> {
  // many: 40 instances, so blocks start and end on many rows of the instance texture (its row arithmetic).
  const many = model.startsWith('many:');
  if (many) model = model.slice(5);
  const sworded = model.endsWith('+sword'), far = model.startsWith('far:');
  const character = await load(sworded ? model.slice(0, -6) : model);
  const sword = sworded ? swordProp(character) : null;
  const count = many ? 40 : 6;
  const crowd = new Crowd(character, { capacity: count, mode, method, props: sword ? [sword] : [], clipsPerInstance: graph ? 4 : 2 });
  // The crowd draws the character with its props composed in (withProp): that asset is the one to upload.
  const asset = crowd.asset;
  const clips = crowd.model.clips;
  let size = 1;
  {
    const box = crowd.jointBounds[0]?.boxes;
    if (box) {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < box.length; i += 6) if (box[i] <= box[i + 3]) { lo = Math.min(lo, box[i], box[i + 1], box[i + 2]); hi = Math.max(hi, box[i + 3], box[i + 4], box[i + 5]); }
      if (hi > lo) size = hi - lo;
    }
  }
  const baked = mode === 'baked' ? crowd.bakedClipsOrBake() : null;
  for (let k = 0; k < count; k++) {
    const clip = clips.length ? k % clips.length : -1;
    let time = clip >= 0 ? clips[clip].duration * ((0.13 + 0.29 * k) % 1) : 0;
    if (baked && clip >= 0) {
      const frames = baked.frameCounts[clip];
      time = (baked.durations[clip] * Math.round((time / baked.durations[clip]) * (frames - 1))) / (frames - 1);
    }
    const world = worldOf(k, size);
    // far: W·T(−FAR) (each instance where the near model's stands).
    if (far) for (let r = 0; r < 3; r++) world[12 + r] -= world[r] * FAR[0] + world[4 + r] * FAR[1] + world[8 + r] * FAR[2];
    crowd.add(k === count - 1 ? -1 : clip, time, 1 + 0.25 * k, world);
  }
  if (blend && clips.length > 0) {
    // Instances 1, 2 and 4 also play the next clip (instance 4 that one alone: weight 1), on a baked frame in baked mode.
    for (const [k, weight] of [[1, 0.35], [2, 0.7], [4, 1]] as const) {
      const other = (k + 1) % clips.length;
      let time = clips[other].duration * ((0.41 + 0.17 * k) % 1);
      if (baked) time = (baked.durations[other] * Math.round((time / baked.durations[other]) * (baked.frameCounts[other] - 1))) / (baked.frameCounts[other] - 1);
      crowd.blend(k, other, time, weight, 0.9);
    }
  }
  if (graph) runGraph(crowd);
  crowd.prepare(null);
  const gpuModel = uploadModel(gl!, asset);
  const instances = new GpuInstances(gl!);
  const capture = new InstancedCapture(gl!);
  const result: CrowdParity = {
    model, mode, method, originDistance: Math.hypot(crowd.origin[0], crowd.origin[1], crowd.origin[2]), instances: crowd.drawCount, mirrored: crowd.drawCount - crowd.mirroredFrom,
    blended: Array.from(crowd.drawnInstances.subarray(0, crowd.drawCount), (k) => crowd.blendWeights[k]).filter((w) => w > 0).length, rigidVerticesCompared: 0, morphedVerticesCompared: 0,
    threeClips: Array.from(crowd.drawnInstances.subarray(0, crowd.drawCount), (k) => crowd.extraClips.count > 0 ? crowd.extraClips.weights[crowd.extraClips.count * k] : 0).filter((w) => w > 0).length,
    attachmentVerticesCompared: 0, maxAttachmentError: 0,
    verticesCompared: 0, maxRelativePositionError: 0, maxNormalError: 0,
    maxBakedInterpolationError: null, bakeRate: baked ? baked.rate : null,
  };
  const W = new Float64Array(16), P = new Float64Array(16);
  const attachment = sword ? new AnimatedModel(character) : null;
  const characterPose = {
    evaluate(out: LocalPose): void {
      const pose = crowd.model.pose;
      out.translations.set(pose.translations.subarray(0, out.translations.length));
      out.rotations.set(pose.rotations.subarray(0, out.rotations.length));
      out.scales.set(pose.scales.subarray(0, out.scales.length));
    },
  };
  // One capture per primitive, compared per instance (gathered by mesh instance and primitive order).
  const captures = new Map<string, { positions: Float32Array; normals: Float32Array }>();
  for (let m = 0; m < asset.meshInstances.length; m++) {
    const meshInstance = asset.meshInstances[m], primitives = asset.meshes[meshInstance.mesh].primitives;
    for (let p = 0; p < primitives.length; p++) {
      if (primitives[p].joints || meshInstance.skin < 0) captures.set(`${m}/${p}`, await capture.captureInstancedAsync({ gpuModel, instances, blocks: crowd }, m, p));
    }
  }
  for (const [key, gpu] of captures) {
    const [m, p] = key.split('/').map(Number);
    compareOne(gpu, m, p, (k) => crowd.times[k], (relative, normal, morphedNow) => {
      result.verticesCompared++;
      if (asset.meshInstances[m].skin < 0) result.rigidVerticesCompared++;
      if (morphedNow) result.morphedVerticesCompared++;
      result.maxRelativePositionError = Math.max(result.maxRelativePositionError, relative);
      result.maxNormalError = Math.max(result.maxNormalError, normal);
    }, (relative) => {
      result.attachmentVerticesCompared++;
      result.maxAttachmentError = Math.max(result.maxAttachmentError, relative);
    });
  }
  if (baked) {
    // Between baked frames: the GPU blends two frames; the live pose at the same time is the reference.
    result.maxBakedInterpolationError = 0;
    const halfFrame = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const clip = crowd.clipIndices[k];
      if (clip >= 0) crowd.times[k] = (crowd.times[k] + 0.5 * (baked.durations[clip] / (baked.frameCounts[clip] - 1))) % baked.durations[clip];
      halfFrame[k] = crowd.times[k];
    }
    crowd.prepare(null);
    for (const key of captures.keys()) {
      const [m, p] = key.split('/').map(Number);
      compareOne(await capture.captureInstancedAsync({ gpuModel, instances, blocks: crowd }, m, p), m, p, (k) => halfFrame[k], (relative) => {
        result.maxBakedInterpolationError = Math.max(result.maxBakedInterpolationError!, relative);
      });
    }
  }
  capture.dispose();
  instances.dispose();
  gpuModel.dispose();
  return result;

  function compareOne(
    gpu: { positions: Float32Array; normals: Float32Array }, m: number, p: number, times: (k: number) => number,
    onError: (relative: number, normal: number, morphed: boolean) => void, onAttachment?: (relative: number) => void,
  ): void {
    const meshInstance = asset.meshInstances[m];
    const primitive = asset.meshes[meshInstance.mesh].primitives[p];
    const n = primitive.vertexCount;
    const cpuP = new Float32Array(3 * n), cpuN = new Float32Array(3 * n);
    // Morph targets first (docs/explanation/skinning-formulas.md M0), at the instance's weights.
    const morphed = new MorphedPrimitive(primitive);
    let morphedNow = false;
    for (let b = 0; b < crowd.drawCount; b++) {
      const k = crowd.drawnInstances[b];
      // Live: the pose the crowd drew (its kernel samples rotations by nlerp); baked: the clip at the frame's time,
      // and a blended instance's two clips' matrices and morph weights blended linearly, as the baked blend does.
      if (crowd.mode === 'live') crowd.evaluateInstance(k);
      else bakedReference(crowd, k, times(k));
      const morphOffset = meshInstance.morphWeightOffset ?? -1;
      const source = morphOffset >= 0 ? morphed.apply(crowd.model.morphWeights, morphOffset) : primitive;
      morphedNow = morphOffset >= 0 && crowd.model.morphWeights.subarray(morphOffset, morphOffset + (asset.meshes[meshInstance.mesh].morphTargetCount ?? 0)).some((w) => w !== 0);
      if (meshInstance.skin >= 0) {
        skinVertices(cpuP, cpuN, source, crowd.model.skinMatrices[meshInstance.skin], crowd.model.skinningContexts[meshInstance.skin], method);
      } else {
        // Rigid: the node's model-space matrix (relative to the origin) in f64; normals by its cofactor.
        placeRigid(cpuP, cpuN, source.positions, source.normals, crowd.model.modelMatrices, 16 * meshInstance.node);
      }
      crowd.worldOf(k, W);
      const world = new Float64Array(3 * n);
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < n; v++) {
        for (let r = 0; r < 3; r++) {
          const x = W[r] * cpuP[3 * v] + W[4 + r] * cpuP[3 * v + 1] + W[8 + r] * cpuP[3 * v + 2] + W[12 + r];
          world[3 * v + r] = x;
          lo[r] = Math.min(lo[r], x); hi[r] = Math.max(hi[r], x);
        }
      }
      const diagonal = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
      // Normals: sign(det W)·cof(W) of W's 3×3 (the inverse transpose up to a positive scale, so a mirrored
      // instance's normals still face out), normalised.
      const col = (c: number) => [W[4 * c], W[4 * c + 1], W[4 * c + 2]];
      const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
      const k12 = cross(col(1), col(2)), k20 = cross(col(2), col(0)), k01 = cross(col(0), col(1));
      const sign = Math.sign(W[0] * k12[0] + W[1] * k12[1] + W[2] * k12[2]) || 1;
      if (sword && attachment && m >= character.meshInstances.length && onAttachment) {
        // The single-model attachment: propMatrix on the character alone, placed where the instance stands.
        // The same pose on the character alone (withProp keeps the character's joints first).
        if (crowd.mode === 'live') attachment.evaluate(characterPose);
        else attachment.evaluate(attachment.clipSample(crowd.clipIndices[k]).at(times(k)));
        for (let i = 0; i < 16; i++) attachment.world[i] = crowd.worlds[16 * k + i];
        propMatrix(attachment, attachment.jointIndex(sword.joint), Float64Array.from(sword.offset!), P);
        const q = primitive.positions;
        for (let v = 0; v < n; v++) {
          const o = 3 * (b * n + v), x = q[3 * v], y = q[3 * v + 1], z = q[3 * v + 2];
          const d = [0, 1, 2].map((r) => gpu.positions[o + r] - (P[r] * x + P[4 + r] * y + P[8 + r] * z + P[12 + r]));
          onAttachment(Math.hypot(d[0], d[1], d[2]) / diagonal);
        }
      }
      for (let v = 0; v < n; v++) {
        const o = 3 * (b * n + v);
        const dp = Math.hypot(gpu.positions[o] - world[3 * v], gpu.positions[o + 1] - world[3 * v + 1], gpu.positions[o + 2] - world[3 * v + 2]);
        const nx = cpuN[3 * v], ny = cpuN[3 * v + 1], nz = cpuN[3 * v + 2];
        const wn = [0, 1, 2].map((r) => sign * (nx * k12[r] + ny * k20[r] + nz * k01[r]));
        const len = Math.hypot(wn[0], wn[1], wn[2]) || 1;
        const dn = Math.hypot(gpu.normals[o] - wn[0] / len, gpu.normals[o + 1] - wn[1] / len, gpu.normals[o + 2] - wn[2] / len);
        onError(dp / diagonal, dn, morphedNow);
      }
    }
  }
}

/**
 * Every instance runs one animation graph (Crowd.setAnimationGraph): a synchronised 1D tree of the model's first
 * two clips on `speed` (each instance its own, between the points), and a transition of 0.5 s on the `go` trigger
 * to a state playing its third clip (the first when it has fewer); after 20 frames of 1/60 s the even instances
 * get the trigger, and 10 frames later they are a third into it, blending three clips.
 */
function runGraph(crowd: Crowd): void {
  const names = crowd.model.clips.map((c) => c.name), n = names.length;
  const { graph } = readAnimationGraph({
    parameters: { speed: { name: 'speed', type: 'FLOAT', value: 0 }, go: { name: 'go', type: 'TRIGGER', value: false } },
    layers: [{
      name: 'Base',
      states: [
        { name: 'START' },
        { name: 'Move', speed: 1, loop: true, blendTree: { type: '1D', parameter: 'speed', syncAnimations: true, children: [{ name: 'a', clip: names[0], point: 0 }, { name: 'b', clip: names[1 % n], point: 1 }] } },
        { name: 'Other', clip: names[2 % n], speed: 1, loop: true },
      ],
      transitions: [{ from: 'START', to: 'Move' }, { from: 'Move', to: 'Other', time: 0.5, conditions: [{ parameterName: 'go', predicate: 'EQUAL_TO', value: true }] }],
    }],
  });
  const graphs = crowd.setAnimationGraph(new AnimationGraph(graph, crowd.model.clips))!;
  for (let k = 0; k < crowd.count; k++) graphs.setParameter(k, 'speed', (0.2 + 0.15 * k) % 1);
  for (let f = 0; f < 30; f++) {
    if (f === 20) for (let k = 0; k < crowd.count; k += 2) graphs.setParameter(k, 'go', true);
    crowd.update(1 / 60);
  }
}

/**
 * Puts baked instance k's pose into `crowd.model`'s buffers: its clip at `time`; when it blends, the blended
 * clip at its time too, and every skinning matrix, node matrix and morph weight `(1 − w)·A + w·B`.
 */
function bakedReference(crowd: Crowd, k: number, time: number): void {
  const model = crowd.model, w = crowd.blendWeights[k];
  if (w > 0) {
    model.evaluate(model.clipSample(crowd.blendClipIndices[k]).at(crowd.blendTimes[k]));
    const other = [...model.skinMatrices, model.modelMatrices, model.morphWeights].map((m) => m.slice());
    model.evaluate(model.clipSample(crowd.clipIndices[k]).at(time));
    [...model.skinMatrices, model.modelMatrices, model.morphWeights].forEach((m, i) => {
      for (let e = 0; e < m.length; e++) m[e] = (1 - w) * m[e] + w * other[i][e];
    });
  } else {
    model.evaluate(model.clipSample(crowd.clipIndices[k]).at(time));
  }
}

/** `outP = M·p`, `outN = normalise(cof(M)·n)` for the 4×4 at `m[o…o+16)`, per vertex. */
function placeRigid(outP: Float32Array, outN: Float32Array, positions: Float32Array, normals: Float32Array, m: Float32Array, o: number): void {
  const col = (c: number) => [m[o + 4 * c], m[o + 4 * c + 1], m[o + 4 * c + 2]];
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const k12 = cross(col(1), col(2)), k20 = cross(col(2), col(0)), k01 = cross(col(0), col(1));
  const sign = Math.sign(col(0)[0] * k12[0] + col(0)[1] * k12[1] + col(0)[2] * k12[2]) || 1;
  for (let v = 0; v < positions.length / 3; v++) {
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    const nx = normals[3 * v], ny = normals[3 * v + 1], nz = normals[3 * v + 2];
    const n = [0, 1, 2].map((r) => sign * (nx * k12[r] + ny * k20[r] + nz * k01[r]));
    const len = Math.hypot(n[0], n[1], n[2]) || 1;
    for (let r = 0; r < 3; r++) {
      outP[3 * v + r] = m[o + r] * x + m[o + 4 + r] * y + m[o + 8 + r] * z + m[o + 12 + r];
      outN[3 * v + r] = n[r] / len;
    }
  }
}

(window as unknown as { sinewCrowdParity: unknown }).sinewCrowdParity = { run };
(window as unknown as { sinewCrowdParityReady: boolean }).sinewCrowdParityReady = true;
