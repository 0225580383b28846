import type { RuntimeClip } from '../animation/runtime-clip.ts';
import type { KeyStream } from '../animation/key-stream.ts';
import type { HermiteStream } from '../animation/hermite-stream.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { JointBounds } from '../skinning/joint-bounds.ts';
import type { InstancePoseLayout } from '../skinning/instance-blocks.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import type { PoseSource } from '../scene/pose-source.ts';
import { EmbeddedModule, kernelAbort } from '../wasm/embedded-module.ts';
import { KernelLayout } from '../wasm/kernel-layout.ts';
import { CROWD_KERNEL_WASM_BASE64 } from './wasm/crowd-kernel-binary.ts';
import { ExtraClips } from './extra-clips.ts';

/** Bytes of one instance record (crowd-kernel.as.ts `RECORD`): the sampling kernel's block of 5 records, bound clip, cache. */
const RECORD = 160;
/** Per instance and clip slot: its sampling record and its last sampled time (8). */
const SLOT_BYTES = RECORD + 8;
/** Per instance: its box (32). */
const INSTANCE_BOX_BYTES = 32;

/**
 * Whether {@link CrowdKernel} can pose a crowd of `asset` (its compiled `clips`) drawn by `method`: four joints
 * or more, LBS (palette rows), no morph targets, and clips the sampling kernel samples whole (every kind but
 * BEZIER with handles off thirds: `RuntimeClip.portableCubic` empty).
 * Otherwise the crowd poses each instance with `AnimatedModel.evaluate`.
 */
export function crowdKernelSupports(asset: ModelAsset, clips: readonly RuntimeClip[], method: SkinningMethod, layout: InstancePoseLayout): boolean {
  // The blending kernel blends four joints at a time: skeletons of fewer are left to the per-instance path.
  return asset.skeleton.jointCount >= 4 && method.skinning === 'lbs' && layout.stride === 3 && layout.morphOffsets.every((o) => o < 0)
    && asset.meshInstances.every((m) => (m.morphWeightOffset ?? -1) < 0)
    && clips.every((clip) => clip.portableCubic.length === 0 && clip.weightChannels.count === 0);
}

/**
 * Bytes a {@link CrowdKernel} holds per instance on top of what `crowdInstanceBytes` counts: per clip slot
 * (`clipSlots`, default 2: its clip and its blended clip; more hold extra clips, `CrowdOptions.clipsPerInstance`)
 * a sampling record and cache (the largest cache any of `clips` needs) with its last sampled time, and its box.
 * (The crowd's clip, time, blend, extra clip, world, world box and order arrays and its blocks move into the
 * kernel's memory.)
 */
export function crowdKernelInstanceBytes(clips: readonly RuntimeClip[], clipSlots = 2): number {
  return INSTANCE_BOX_BYTES + clipSlots * (SLOT_BYTES + instanceCacheBytes(clips));
}

/** A clip's streams in the order of the sampling block's records (src/pose/sampling-kernel.ts). */
function streamsOf(clip: RuntimeClip): readonly (KeyStream | HermiteStream)[] {
  return [clip.vec3Stream, clip.quatStream, clip.vec3HermiteStream, clip.quatHermiteStream];
}

/** Bytes of a stream's cache per sampling context: per group 2 + 2c f32x4 (key streams), 2 + 4c (Hermite streams). */
function cacheBytes(stream: KeyStream | HermiteStream): number {
  return 16 * (2 + ('steps' in stream ? 2 : 4) * stream.components) * stream.groupCount;
}

function instanceCacheBytes(clips: readonly RuntimeClip[]): number {
  let bytes = 0;
  for (const clip of clips) bytes = Math.max(bytes, streamsOf(clip).reduce((sum, stream) => sum + cacheBytes(stream), 0));
  return bytes;
}

/** What {@link CrowdKernel} is built from: a crowd's model, pose layout and bounds (see `Crowd`). */
export interface CrowdKernelModel {
  readonly asset: ModelAsset;
  /** `asset.clips` compiled, in order (`AnimatedModel.clips`). */
  readonly clips: readonly RuntimeClip[];
  /** `Float64Array(3)`: the model origin O the matrices and boxes are relative to. */
  readonly origin: Float64Array;
  /** The pose layout (LBS, stride 3) of a block's pose part. */
  readonly layout: InstancePoseLayout;
  /** Clips an instance plays at once, ≥ 2 (default 2): its clip, its blended clip, then extra clips ({@link CrowdKernel.extraClips}). */
  readonly clipSlots?: number;
  /** Per skin, its per-joint bounds (`computeJointBounds`). */
  readonly jointBounds: readonly JointBounds[];
  /** `Float64Array(6·meshInstances)`: rigid mesh instances' boxes in their node's space (`rigidMeshBoxes`). */
  readonly rigidBoxes: Float64Array;
}

/**
 * The live crowd's CPU animation for all its instances in one WebAssembly SIMD call ({@link animate},
 * src/crowd/wasm/crowd-kernel.as.ts), with no JavaScript object per instance: per instance k, its clip
 * ({@link clipIndices}) sampled at its time ({@link times}) by the sampling kernel's code (LINEAR, STEP and the cubic
 * kinds in SIMD lanes, rotations by nlerp within θ³/54 of slerp: src/pose/sampling-kernel.ts), with a forward cursor and
 * key cache of its own (ozz-animation's per-instance `SamplingJob::Context`); model-space matrices and skinning
 * matrices as the pose kernel computes them, bit for bit (docs/explanation/skinning-formulas.md S4, S0), relative to
 * the model origin, four instances per f32x4 lane; the palette
 * rows (`packPaletteRows`) and rigid nodes' rows, and its box ({@link boxes}) from the per-joint bounds
 * (src/skinning/joint-bounds.ts; centre and extent, the union grown by 2⁻¹⁸ of its largest coordinate against
 * float32 rounding); then
 * its world box, the cull against the view volume and, for a drawn instance, its block in {@link blocks} in draw
 * order — what `Crowd.prepare` does per instance for the other paths, here with no JavaScript per instance.
 *
 * Everything lives in one fixed WebAssembly memory (never grown, so the views stay valid): the model (rest pose,
 * parents, inverse binds, bounds), each clip's key streams once, and per instance its records, caches and box
 * ({@link crowdKernelInstanceBytes}) beside the crowd's own per-instance arrays. Allocates nothing per frame.
 */
export class CrowdKernel {
  /** `Int16Array(capacity)`: per instance its clip (index into the model's clips, −1 the rest pose). */
  readonly clipIndices: Int16Array;
  /** `Float64Array(capacity)`: per instance seconds into its clip. */
  readonly times: Float64Array;
  /** `Int16Array(capacity)`: per instance the clip blended with its clip (−1 the rest pose). */
  readonly blendClipIndices: Int16Array;
  /** `Float64Array(capacity)`: per instance seconds into its blended clip. */
  readonly blendTimes: Float64Array;
  /** `Float32Array(capacity)`: per instance the blended clip's weight w ∈ [0, 1] (0: its clip alone, 1: the blended clip alone). */
  readonly blendWeights: Float32Array;
  /** Clip slots per instance S ≥ 2 (`CrowdKernelModel.clipSlots`): its clip, its blended clip, then E = S − 2 extra clips. */
  readonly clipSlots: number;
  /** Per instance its E = S − 2 extra clips, in the kernel's memory (`ExtraClips`: when w > 0 and e₀ > 0 they join the blend). */
  readonly extraClips: ExtraClips;
  /** `Float32Array(8·capacity)`: per instance its box relative to the model origin, min x y z, 0, max x y z, 0 (min > max: empty). */
  readonly boxes: Float32Array;
  /** `Float32Array(16·capacity)`: per instance its world matrix W, column-major (`Crowd.worlds`). */
  readonly worlds: Float32Array;
  /** `Float64Array(6·capacity)`: per instance its world box as the last {@link animate} found it (`Crowd.worldBounds`). */
  readonly worldBounds: Float64Array;
  /** `Int32Array(capacity)`: the instance drawn by block b, as the last {@link animate} left them (`Crowd.drawnInstances`). */
  readonly order: Int32Array;
  /** The instance blocks the renderer uploads: `Float32Array` of the length asked for, in the kernel's memory. */
  readonly blocks: Float32Array;
  /** The scratch local pose {@link localPose} writes (translations, rotations x y z w, scales). */
  readonly pose: LocalPose;
  private readonly exports: KernelExports;
  private readonly header: number;
  /** The header's i32 words (its view-projection address, block sizes, the mirrored count). */
  private readonly words: Int32Array;
  /** `Float64Array(16)`: the view-projection matrix {@link animate} culls against. */
  private readonly viewProjection: Float64Array;
  private readonly viewAt: number;

  /**
   * Use {@link createCrowdKernel}.
   * @param blockFloats length of {@link blocks}
   */
  constructor(module: WebAssembly.Module, source: CrowdKernelModel, capacity: number, blockFloats: number) {
    const { asset, clips, layout } = source;
    const slots = Math.max(2, source.clipSlots ?? 2), E = slots - 2;
    const skeleton = asset.skeleton, n = skeleton.jointCount, skins = asset.skins;
    const L = new KernelLayout();
    const header = L.words(48);
    // Translations and scales padded to whole v128s (the blending kernel reads and writes whole lanes).
    const vec3Bytes = (12 * n + 15) & ~15, poseBytes = 2 * vec3Bytes + 16 * n;
    const scratch = L.words(poseBytes >> 2), second = L.words(poseBytes >> 2), rest = L.words(poseBytes >> 2);
    const sink = L.words(4), timeSlot = L.words(2), job = L.words(12 + slots * 5), jobScratch = L.words(40);
    const extraPoses = L.words(E * (poseBytes >> 2));
    // Lane matrices, four instances per f32x4, 192 bytes each (crowd-kernel.as.ts `MATRIX`): the local matrices
    // (whole groups of four joints) and the model-space ones; per skin the skinning ones.
    const parents = L.words(n), model = L.words(48 * n), locals = L.words(48 * 4 * Math.ceil(n / 4)), staging = L.words(48 * 4 * Math.ceil(n / 4));
    // The batch's scratch (crowd-kernel.as.ts `animate`): lane boxes, lane rows, lanes and shared rows of
    // BATCH = 64 instances, the rows' bytes, then four lanes' spare rows.
    const rowBytes = 16 * layout.texels, batch = L.words(32 + 4 + 2 * 64 + 4 + 4 * (rowBytes >> 2));
    const skinTable = L.words(8 * skins.length);
    const skinSlots = skins.map((skin, s) => {
      const m = skin.joints.length;
      return { m, joints: L.words(m), inverseBinds: L.words(16 * m), bounds: L.words(8 * m), K: L.words(48 * m) };
    });
    const rigid = asset.meshInstances.flatMap((instance, i) => (layout.rigidOffsets[i] >= 0 ? [i] : []));
    const rigidTable = L.words(12 * rigid.length);
    const clipTable = L.words((slots * RECORD >> 2) * clips.length);
    const clipSlots = clips.map((clip) => streamsOf(clip).map((stream) => ({
      stream, shared: L.words((('steps' in stream ? stream.steps : stream.masks).byteLength + stream.entries.byteLength) >> 2),
      outputs: Array.from({ length: slots }, () => L.words(4 * stream.groupCount)),
    })));
    const contextBytes = instanceCacheBytes(clips);
    const clipsAt = L.words(Math.ceil(capacity / 2)), timesAt = L.words(2 * capacity), lastAt = L.words(2 * slots * capacity);
    const blendClipsAt = L.words(Math.ceil(capacity / 2)), blendTimesAt = L.words(2 * capacity), weightsAt = L.words(capacity);
    const extraClipsAt = L.words(Math.ceil((E * capacity) / 2)), extraTimesAt = L.words(2 * E * capacity), extraWeightsAt = L.words(E * capacity);
    const records = L.words((slots * RECORD >> 2) * capacity), caches = L.words((contextBytes >> 2) * slots * capacity);
    const boxesAt = L.words(8 * capacity), base = L.words(8);
    const worldsAt = L.words(16 * capacity), worldBoundsAt = L.words(12 * capacity), viewAt = L.words(2 * (16 + 24));
    const orderAt = L.words(capacity), blocksAt = L.words(blockFloats);
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(L.bytes / 65536)) });
    this.exports = new WebAssembly.Instance(module, { env: { memory, abort: kernelAbort } }).exports as unknown as KernelExports;
    const buffer = memory.buffer, words = new Int32Array(buffer), floats = new Float32Array(buffer), doubles = new Float64Array(buffer);
    const w = (at: number) => at >> 2;

    const T = scratch, R = T + vec3Bytes, S = R + 16 * n;
    this.pose = { translations: new Float32Array(buffer, T, 3 * n), rotations: new Float32Array(buffer, R, 4 * n), scales: new Float32Array(buffer, S, 3 * n) };
    const restT = rest, restR = rest + (R - T), restS = rest + (S - T);
    floats.set(asset.restPose.translations.subarray(0, 3 * n), w(restT));
    floats.set(asset.restPose.rotations.subarray(0, 4 * n), w(restR));
    floats.set(asset.restPose.scales.subarray(0, 3 * n), w(restS));
    words.set(skeleton.parents, w(parents));
    words.set([n, T, R, S, rest, poseBytes, parents, model, skins.length, skinTable, rigid.length, rigidTable,
      clipsAt, timesAt, lastAt, records, clipTable, locals, batch, boxesAt, base, timeSlot, second,
      blendClipsAt, blendTimesAt, weightsAt, worldsAt, worldBoundsAt, blocksAt, orderAt, 0, capacity, 0, 0, 0, job, staging,
      slots, extraClipsAt, extraTimesAt], w(header));
    words[w(header) + 46] = extraWeightsAt;
    words[w(header) + 47] = extraPoses;
    // The blending kernel's job for a blend: the second scratch pose over the scratch pose, weights set per instance.
    const U = second, UR = second + (R - T), US = second + (S - T);
    words.set([n, 2, 0, T, R, S, 0, 0, 0, 0, 0, jobScratch, 0, -1, T, R, S, 0, -1, U, UR, US], w(job));
    // Extra clips' layers (`manyClips` sets the count and weights): each extra pose.
    for (let j = 0; j < E; j++) {
      const X = extraPoses + j * poseBytes;
      words.set([0, -1, X, X + (R - T), X + (S - T)], w(job) + 12 + 5 * (2 + j));
    }
    doubles.set(source.origin, (header + 160) >> 3);
    words[w(batch) + 32 + 4 + 2 * 64] = rowBytes;

    skinSlots.forEach((slot, s) => {
      words.set(skins[s].joints, w(slot.joints));
      floats.set(skins[s].inverseBindMatrices.subarray(0, 16 * slot.m), w(slot.inverseBinds));
      // Per joint its box (centre, extent), the centre's fourth word 1 when it has one (an empty box: 0).
      const boxes = source.jointBounds[s].boxes;
      for (let i = 0; i < slot.m; i++) {
        if (!(boxes[6 * i] <= boxes[6 * i + 3])) continue;
        writeCentreExtent(floats, w(slot.bounds) + 8 * i, boxes, 6 * i, 0);
        words[w(slot.bounds) + 8 * i + 3] = 1;
      }
      words.set([slot.m, slot.joints, slot.inverseBinds, slot.bounds, 16 * layout.skinOffsets[s], slot.K], w(skinTable) + 8 * s);
    });
    rigid.forEach((i, r) => {
      const e = w(rigidTable) + 12 * r, b = source.rigidBoxes, has = b[6 * i] <= b[6 * i + 3];
      words.set([asset.meshInstances[i].node, 16 * layout.rigidOffsets[i], has ? 1 : 0, 0], e);
      if (has) writeCentreExtent(floats, e + 4, b, 6 * i, 0);
    });
    // The base box: every skin's vertices without weights, which stay at p₀ − O.
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const bounds of source.jointBounds) {
      for (let a = 0; a < 3; a++) {
        if (!(bounds.rest[a] <= bounds.rest[3 + a])) continue;
        lo[a] = Math.min(lo[a], roundDown(bounds.rest[a] - source.origin[a]));
        hi[a] = Math.max(hi[a], roundUp(bounds.rest[3 + a] - source.origin[a]));
      }
    }
    floats.set([...lo, 0, ...hi, 0], w(base));

    // Per clip S blocks: sampling into the scratch pose, into the second one (a blend's other clip), into each extra pose.
    const bases = [[T, R, S], [second, second + (R - T), second + (S - T)]];
    for (let j = 0; j < E; j++) bases.push([extraPoses + j * poseBytes, extraPoses + j * poseBytes + (R - T), extraPoses + j * poseBytes + (S - T)]);
    clips.forEach((_, c) => {
      let cacheAt = 0;
      clipSlots[c].forEach(({ stream, shared, outputs }, k) => {
        const groups = stream.groupCount, masks = 'steps' in stream ? stream.steps : stream.masks;
        words.set(masks, w(shared));
        new Uint8Array(buffer, shared + masks.byteLength, stream.entries.byteLength).set(new Uint8Array(stream.entries));
        for (let b = 0; b < slots; b++) {
          for (let i = 0; i < 4 * groups; i++) words[w(outputs[b]) + i] = i < stream.trackCount ? bases[b][stream.paths[i]] + 4 * stream.offsets[i] : sink;
          words.set([groups, shared + masks.byteLength, stream.count, 0, cacheAt, outputs[b], shared], w(clipTable) + (w(slots * RECORD) * c) + w(RECORD) * b + 7 * k);
        }
        cacheAt += cacheBytes(stream);
      });
    });
    for (let k = 0; k < slots * capacity; k++) {
      words[w(records + RECORD * k) + 35] = -1;
      words[w(records + RECORD * k) + 36] = caches + contextBytes * k;
    }
    this.header = header;
    this.words = new Int32Array(buffer, header, 48);
    this.viewProjection = new Float64Array(buffer, viewAt, 16);
    this.viewAt = viewAt;
    this.worlds = new Float32Array(buffer, worldsAt, 16 * capacity);
    this.worldBounds = new Float64Array(buffer, worldBoundsAt, 6 * capacity);
    this.clipIndices = new Int16Array(buffer, clipsAt, capacity);
    this.times = new Float64Array(buffer, timesAt, capacity);
    this.blendClipIndices = new Int16Array(buffer, blendClipsAt, capacity);
    this.blendTimes = new Float64Array(buffer, blendTimesAt, capacity);
    this.blendWeights = new Float32Array(buffer, weightsAt, capacity);
    this.clipSlots = slots;
    this.extraClips = new ExtraClips(E, capacity, {
      clipIndices: new Int16Array(buffer, extraClipsAt, E * capacity), times: new Float64Array(buffer, extraTimesAt, E * capacity),
      weights: new Float32Array(buffer, extraWeightsAt, E * capacity),
    });
    this.boxes = new Float32Array(buffer, boxesAt, 8 * capacity);
    this.order = new Int32Array(buffer, orderAt, capacity);
    this.blocks = new Float32Array(buffer, blocksAt, blockFloats);
  }

  /**
   * Poses, bounds, culls and packs instances 0…count−1 (the kernel's `animate`, crowd-kernel.as.ts): each one's
   * pose at its clip and time (blended with its blended clip by its weight), its box ({@link boxes}) and world
   * box ({@link worldBounds}); each drawn one's block in {@link blocks} — its world matrix W·T(O) as `worldTexels`
   * rows, then its palettes and rigid nodes' rows — and {@link order}: those that do not mirror (det W ≥ 0) first,
   * in instance order, then the mirrored ones in reverse order, as `Crowd.prepare` orders them. Consecutive
   * unblended instances with the same clip and time share one evaluation. Allocates nothing.
   * @param viewProjection world → clip, column-major (16 numbers): instances whose world box is wholly outside
   *   its view volume are not drawn (`boxOutsideFrustum`); null: all are
   * @param blockTexels texels per block
   * @returns `[drawn, mirrored]` in `out`: blocks that do not mirror, then those that do
   */
  animate(count: number, viewProjection: ArrayLike<number> | null, blockTexels: number, worldTexels: number, out: Int32Array): Int32Array {
    const words = this.words;
    if (viewProjection) for (let i = 0; i < 16; i++) this.viewProjection[i] = viewProjection[i];
    words[30] = viewProjection ? this.viewAt : 0;
    words[32] = 16 * blockTexels;
    words[33] = 16 * worldTexels;
    out[0] = this.exports.animate(this.header, count);
    out[1] = words[34];
    return out;
  }

  /** Instance k's local pose as {@link animate} samples it, into {@link pose} (returned). Allocates nothing. */
  localPose(k: number): LocalPose {
    this.exports.localPose(this.header, k);
    return this.pose;
  }
}

/** Writes the box `b[o…o+6)` (min, max) as centre and extent, four floats each (the last 0), at `floats[at]`. */
function writeCentreExtent(floats: Float32Array, at: number, b: ArrayLike<number>, o: number, pad: number): void {
  for (let a = 0; a < 3; a++) {
    const lo = b[o + a] - pad, hi = b[o + 3 + a] + pad;
    // The centre rounds to float32; the extent is rounded up from the farther side so the box still holds both ends.
    const c = Math.fround((lo + hi) / 2);
    floats[at + a] = c;
    floats[at + 4 + a] = roundUp(Math.max(hi - c, c - lo));
  }
  floats[at + 3] = 0;
  floats[at + 7] = 0;
}

/** The smallest float32 ≥ x (finite x; set-up only: it allocates). */
function roundUp(x: number): number {
  const f = new Float32Array([x]);
  if (f[0] >= x) return f[0];
  // float32 rounded down: step one unit in the last place up (bits + 1 for positives, − 1 for negatives).
  const bits = new Int32Array(f.buffer);
  if (f[0] > 0) bits[0]++;
  else if (f[0] < 0) bits[0]--;
  else bits[0] = 1;
  return f[0];
}

/** The largest float32 ≤ x. */
function roundDown(x: number): number {
  return -roundUp(-x);
}

/** The kernel module's exports (byte offsets into its memory; layout in crowd-kernel.as.ts). */
interface KernelExports {
  animate(header: number, count: number): number;
  localPose(header: number, k: number): void;
}

const compiled = new EmbeddedModule(CROWD_KERNEL_WASM_BASE64);

/**
 * A {@link CrowdKernel} for `capacity` instances of `source` with `blockFloats` floats of blocks, or null where
 * the platform cannot compile the module (the crowd then poses instances in JavaScript). Allocates its memory.
 */
export function createCrowdKernel(source: CrowdKernelModel, capacity: number, blockFloats: number, backend: 'auto' | 'js' = 'auto'): CrowdKernel | null {
  if (backend === 'js') return null;
  const module = compiled.get();
  return module ? new CrowdKernel(module, source, capacity, blockFloats) : null;
}

/**
 * A `PoseSource` (src/scene/pose-source.ts) for one instance of a {@link CrowdKernel}: its local pose as the
 * kernel samples it (`AnimatedModel.evaluate(source.of(k))`, `Crowd.evaluateInstance`). Allocates nothing.
 */
export class CrowdInstancePose implements PoseSource {
  private readonly kernel: CrowdKernel;
  private instance = 0;

  constructor(kernel: CrowdKernel) {
    this.kernel = kernel;
  }

  /** Sets the instance evaluated; returns this. */
  of(k: number): this {
    this.instance = k;
    return this;
  }

  /** `out` = the instance's local pose (the rest pose where its clip animates nothing). */
  evaluate(out: LocalPose): LocalPose {
    const pose = this.kernel.localPose(this.instance);
    out.translations.set(pose.translations);
    out.rotations.set(pose.rotations);
    out.scales.set(pose.scales);
    return out;
  }
}
