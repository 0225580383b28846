import type { ModelAsset } from '../asset/model-asset.ts';
import { packPaletteRows } from '../gl/palette-rows.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { accumulateSkinBounds, computeJointBounds, emptyBox, transformBoxInto, type JointBounds } from '../skinning/joint-bounds.ts';
import { paddedTexelFloats, WORLD_TEXELS, type BakedPalettes, type InstanceBlocks } from '../skinning/instance-blocks.ts';
import { bakeClips, type BakedClips } from './bake-palettes.ts';
import { boxOutsideFrustum } from './frustum.ts';

/** How a crowd's instances are posed: `'live'` (CPU pose per instance, O(N·J)) or `'baked'` (GPU picks baked frames, O(N)). */
export type CrowdMode = 'live' | 'baked';

/** {@link Crowd} settings. */
export interface CrowdOptions {
  /** Most instances the crowd holds (its arrays and blocks are sized for them once). */
  readonly capacity: number;
  /** Initial {@link Crowd.mode}; default `'live'`. */
  readonly mode?: CrowdMode;
  /** Frames per second clips are baked at for baked mode (on first use); default 30. */
  readonly bakeRate?: number;
}

/**
 * N instances of one model, each with its own clip, time, speed and world matrix, drawn with one instanced
 * draw per (primitive, material) by `SkinnedRenderer.drawCrowd`. {@link update} moves time (clips loop);
 * {@link prepare} culls against a view volume and writes the {@link InstanceBlocks} the renderer uploads with
 * one `texSubImage2D`:
 *
 * - live: every visible instance's pose is evaluated on the CPU (`AnimatedModel.evaluate`: sample,
 *   localToModel, palette) and packed into its block; consecutive instances with the same clip and time share
 *   one evaluation.
 * - baked: clips are baked once ({@link bakeClips}, at {@link CrowdOptions.bakeRate}); per instance only its
 *   world matrix and two frame indices with a blend factor are written, and the vertex shader blends the two
 *   baked palettes linearly. It cannot blend clips, play additive layers or crossfade (one clip per instance),
 *   and between baked frames its matrices are the linear blend of the neighbouring frames' (not the sampled
 *   pose): see README "Crowds" for the measured error.
 *
 * Bounds: per-joint boxes ({@link computeJointBounds}) are transformed per instance (live: by its palette;
 * baked: the union of the two frames' precomputed boxes), then by its world matrix: {@link worldBounds}.
 * Rigid (unskinned) meshes of the model are not drawn by crowds; the skinning method is LBS with normalised
 * weights. Allocates nothing per frame once baked mode has been used once.
 */
export class Crowd implements InstanceBlocks {
  readonly asset: ModelAsset;
  /** The evaluator: its buffers hold the last evaluated instance's pose. */
  readonly model: AnimatedModel;
  readonly capacity: number;
  /** Instances in use (0 … capacity). */
  count = 0;
  mode: CrowdMode;
  /** Skip instances whose world bounds are outside the view volume given to {@link prepare}. Default true. */
  cull = true;
  /** Per instance: its clip (index into `model.clips`, −1 the rest pose). */
  readonly clipIndices: Int16Array;
  /** Per instance: seconds into its clip, kept in [0, duration) by {@link update}. */
  readonly times: Float64Array;
  /** Per instance: playback speed (1 normal, negative backwards). */
  readonly speeds: Float32Array;
  /** `Float32Array(16·capacity)`: per instance its world matrix W (model space → world), column-major. */
  readonly worlds: Float32Array;
  /** `Float64Array(6·capacity)`: per instance the world box (min, max) found by the last {@link prepare}. */
  readonly worldBounds: Float64Array;
  /** `Int32Array(capacity)`: instance drawn by block k of the last {@link prepare}. */
  readonly drawnInstances: Int32Array;
  /** Per skin, its per-joint bounds. */
  readonly jointBounds: readonly JointBounds[];
  readonly origin: Float64Array;
  readonly skinOffsets: Int32Array;
  readonly blocks: Float32Array;
  private drawn = 0;
  private readonly liveBlockTexels: number;
  private readonly bakeRate: number;
  private bakedClips: BakedClips | null = null;
  private readonly box = new Float64Array(6);
  private readonly world = new Float64Array(16);

  /**
   * @throws RangeError for a capacity that is not a positive integer
   * @throws Error from `AnimatedModel` when a clip of `asset` is malformed
   */
  constructor(asset: ModelAsset, options: CrowdOptions) {
    const { capacity } = options;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`Crowd: capacity must be a positive integer, not ${capacity}`);
    this.asset = asset;
    this.model = new AnimatedModel(asset);
    this.origin = this.model.origin;
    this.capacity = capacity;
    this.mode = options.mode ?? 'live';
    this.bakeRate = options.bakeRate ?? 30;
    this.clipIndices = new Int16Array(capacity);
    this.times = new Float64Array(capacity);
    this.speeds = new Float32Array(capacity).fill(1);
    this.worlds = new Float32Array(16 * capacity);
    for (let k = 0; k < capacity; k++) this.worlds[16 * k] = this.worlds[16 * k + 5] = this.worlds[16 * k + 10] = this.worlds[16 * k + 15] = 1;
    this.worldBounds = new Float64Array(6 * capacity);
    this.drawnInstances = new Int32Array(capacity);
    this.jointBounds = asset.skins.map((_, s) => computeJointBounds(asset, s));
    this.skinOffsets = new Int32Array(asset.skins.length);
    let texels = WORLD_TEXELS;
    asset.skins.forEach((skin, s) => {
      this.skinOffsets[s] = texels;
      texels += 3 * skin.joints.length;
    });
    this.liveBlockTexels = texels;
    this.blocks = new Float32Array(paddedTexelFloats(Math.max(texels, WORLD_TEXELS + 1) * capacity));
  }

  /** Instances to draw, as the last {@link prepare} left them. */
  get drawCount(): number {
    return this.drawn;
  }

  /** Texels per block in the current {@link mode}. */
  get blockTexels(): number {
    return this.mode === 'live' ? this.liveBlockTexels : WORLD_TEXELS + 1;
  }

  /** The baked palettes in baked mode (baked on first use), else null. */
  get baked(): BakedPalettes | null {
    return this.mode === 'baked' ? this.bakedClipsOrBake().palettes : null;
  }

  /** The baked clips (baking them now if not yet done). */
  bakedClipsOrBake(): BakedClips {
    return (this.bakedClips ??= bakeClips(this.model, this.bakeRate, this.jointBounds));
  }

  /**
   * Adds an instance playing clip `clip` (−1: rest pose) from `time` seconds at `speed`, placed by `world`
   * (`Float32Array(16)` column-major; default identity). Returns its index.
   * @throws RangeError when the crowd is full or the clip does not exist
   */
  add(clip: number, time = 0, speed = 1, world?: ArrayLike<number>): number {
    if (this.count >= this.capacity) throw new RangeError(`Crowd: full (${this.capacity} instances)`);
    if (!Number.isInteger(clip) || clip < -1 || clip >= this.model.clips.length) throw new RangeError(`${this.asset.name}: clip ${clip} does not exist (${this.model.clips.length} clips)`);
    const k = this.count++;
    this.clipIndices[k] = clip;
    this.times[k] = this.wrap(clip, time);
    this.speeds[k] = speed;
    if (world) for (let i = 0; i < 16; i++) this.worlds[16 * k + i] = world[i];
    return k;
  }

  /** Moves every instance's time on by `dt · speed` seconds, looping within its clip. Allocates nothing. */
  update(dt: number): void {
    for (let k = 0; k < this.count; k++) this.times[k] = this.wrap(this.clipIndices[k], this.times[k] + dt * this.speeds[k]);
  }

  /**
   * Writes the blocks of every instance to draw (all, or with {@link cull} those whose world box meets the
   * view volume of `viewProjection`, world → clip, column-major; null: no culling) and their
   * {@link worldBounds}. Returns {@link drawCount}. Allocates nothing (after baked mode's first use).
   */
  prepare(viewProjection: ArrayLike<number> | null): number {
    const baked = this.mode === 'baked' ? this.bakedClipsOrBake() : null;
    const model = this.model, skins = this.asset.skins, blocks = this.blocks, box = this.box, W = this.world;
    const blockTexels = this.blockTexels, clipCount = model.clips.length;
    let drawn = 0, lastClip = -2, lastTime = NaN;
    for (let k = 0; k < this.count; k++) {
      const clip = this.clipIndices[k], time = this.times[k];
      let f0 = 0, f1 = 0, a = 0;
      emptyBox(box);
      if (baked) {
        const c = clip < 0 ? clipCount : clip, frames = baked.frameCounts[c];
        const u = frames > 1 && baked.durations[c] > 0 ? (time / baked.durations[c]) * (frames - 1) : 0;
        const i0 = Math.min(Math.floor(u), frames - 1);
        f0 = baked.firstFrame[c] + i0;
        f1 = baked.firstFrame[c] + Math.min(i0 + 1, frames - 1);
        a = u - i0;
        unionBox(box, baked.frameBounds, 6 * f0);
        unionBox(box, baked.frameBounds, 6 * f1);
      } else {
        if (clip !== lastClip || time !== lastTime) {
          model.evaluate(model.clipSample(clip).at(time));
          lastClip = clip;
          lastTime = time;
        }
        for (let s = 0; s < skins.length; s++) accumulateSkinBounds(box, this.jointBounds[s], model.skinMatrices[s], this.origin);
      }
      this.worldOf(k, W);
      const wb = this.worldBounds, o = 6 * k;
      wb[o] = wb[o + 1] = wb[o + 2] = Infinity;
      wb[o + 3] = wb[o + 4] = wb[o + 5] = -Infinity;
      if (box[0] <= box[3]) transformBoxInto(wb, box[0], box[1], box[2], box[3], box[4], box[5], W, 0, o);
      if (this.cull && viewProjection && boxOutsideFrustum(viewProjection, wb, o)) continue;
      const b = 4 * blockTexels * drawn;
      for (let r = 0; r < 3; r++) {
        blocks[b + 4 * r] = W[r]; blocks[b + 4 * r + 1] = W[4 + r]; blocks[b + 4 * r + 2] = W[8 + r]; blocks[b + 4 * r + 3] = W[12 + r];
      }
      if (baked) {
        blocks[b + 12] = f0; blocks[b + 13] = f1; blocks[b + 14] = a; blocks[b + 15] = 0;
      } else {
        for (let s = 0; s < skins.length; s++) packPaletteRows(blocks, model.skinMatrices[s], skins[s].joints.length, b + 4 * this.skinOffsets[s]);
      }
      this.drawnInstances[drawn++] = k;
    }
    this.drawn = drawn;
    return drawn;
  }

  /** `out` (`Float64Array(16)`) = W·T(O) for instance k, in f64: the matrix its block carries. Returns `out`. */
  worldOf(k: number, out: Float64Array): Float64Array {
    const w = this.worlds, o = 16 * k, O = this.origin;
    for (let i = 0; i < 16; i++) out[i] = w[o + i];
    for (let r = 0; r < 3; r++) out[12 + r] = w[o + r] * O[0] + w[o + 4 + r] * O[1] + w[o + 8 + r] * O[2] + w[o + 12 + r];
    return out;
  }

  private wrap(clip: number, time: number): number {
    const duration = clip >= 0 ? this.model.clips[clip].duration : 0;
    if (!(duration > 0)) return 0;
    const t = time - Math.floor(time / duration) * duration;
    return t < duration ? t : 0;
  }
}

function unionBox(out: Float64Array, boxes: Float64Array, o: number): void {
  for (let a = 0; a < 3; a++) {
    if (boxes[o + a] < out[a]) out[a] = boxes[o + a];
    if (boxes[o + 3 + a] > out[3 + a]) out[3 + a] = boxes[o + 3 + a];
  }
}
