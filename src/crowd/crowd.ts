import type { ModelAsset } from '../asset/model-asset.ts';
import { DEFAULT_MEMORY_BUDGET_BYTES, formatMebibytes } from '../asset/memory-budget.ts';
import { requirePositiveBytes } from '../loaders/require-positive-bytes.ts';
import { withProp } from '../asset/with-prop.ts';
import { determinant3x3 } from '../math/strided-mat4.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { computeJointBounds, emptyBox, transformBoxInto, type JointBounds } from '../skinning/joint-bounds.ts';
import { BAKED_BLOCK_TEXELS, instancePoseLayout, paddedTexelFloats, WORLD_TEXELS, type BakedPalettes, type InstanceBlocks, type InstancePoseLayout } from '../skinning/instance-blocks.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import type { RootMotionMode } from '../animation/root-motion.ts';
import { clipSlotsOf, crowdInstanceBytes, type CrowdMode, type CrowdOptions, type CrowdProp } from './crowd-options.ts';
import { bakeClips, bakedInstancePicks, writeBakedPicks, type BakedClips } from './bake-palettes.ts';
import type { PoseSource } from '../scene/pose-source.ts';
import { InstanceMotion, placeWorld } from './instance-motion.ts';
import { stepClipTime, wrapClipTime } from './clip-time.ts';
import { boxOutsideFrustum } from './frustum.ts';
import { accumulatePoseBounds, morphReach, morphTargetsOfInstances, packInstancePose, rigidMeshBoxes } from './instance-pose.ts';
import { createCrowdKernel, crowdKernelInstanceBytes, crowdKernelSupports, CrowdInstancePose, type CrowdKernel } from './crowd-kernel.ts';
import { InstanceBlend, type TimedPoseSource } from './instance-blend.ts';
import { InstanceExpressions } from './instance-expressions.ts';
import { InstanceSprings, isInstancedSpringSimulator, springStateBytes } from './instance-springs.ts';
import { CrowdAnimationGraph, type AnimationGraph } from './crowd-animation-graph.ts';
import { ExtraClips } from './extra-clips.ts';

export { crowdInstanceBytes, type CrowdMode, type CrowdOptions, type CrowdProp };

/**
 * N instances of one model, each with its own clip, time, speed and world matrix, drawn with one instanced
 * draw per (primitive, material) — two where some instances mirror — by `drawCrowd` (src/crowd/gpu/crowd-pass.ts): skinned
 * meshes by the crowd's {@link method} (LBS or DQS, any weight policy, every influence, as the single-model
 * renderer), rigid meshes placed by their node's model-space matrix in the instance's pose, then by the
 * instance's world matrix; morph targets at the instance's weights first. {@link update} moves time (clips loop);
 * {@link prepare} culls against a view volume and writes the {@link InstanceBlocks} the renderer uploads with
 * one `texSubImage2D`:
 *
 * - live: every instance's pose is evaluated on the CPU — by the {@link kernel} for all instances in one call
 *   where it can (`CrowdKernel`: sample, blend, matrices, bounds, culling, blocks), else one by one
 *   (`AnimatedModel.evaluate`: sample, localToModel, skinning matrices, packed into its block); consecutive
 *   unblended instances with the same clip and time share one evaluation.
 * - baked: clips are baked once ({@link bakeClips}, at {@link CrowdOptions.bakeRate}; skins and rigid nodes
 *   alike); per instance only its world matrix and two frame indices with a blend factor are written (and the
 *   same for its blended clip, {@link blend}), and the per-frame pass blends the baked frames: matrix rows
 *   linearly, DQS rotations by nlerp. It plays no additive layers or masks, and between baked frames its
 *   matrices are the blend of the neighbouring frames' (not the sampled pose): see docs/guide/crowds.md for the
 *   measured error.
 * - both: each instance may play a second clip at its own weight ({@link blend}, {@link crossfade}); live, more ({@link extraClips}, {@link setAnimationGraph}).
 *
 * Mirroring: instances whose world matrix has a negative determinant are gathered after the others
 * ({@link InstanceBlocks.mirroredFrom}) and drawn with the opposite `frontFace`; normals use the cofactor of
 * W (the inverse transpose up to a positive scale), right for mirrors too. A mesh mirrored within the model
 * (its skin's first skinning matrix or its rigid node, det < 0) flips once more, judged in the rest pose
 * ({@link meshMirrored}); a clip that turns a mirror on or off mid-way keeps the rest pose's winding.
 *
 * Bounds: per-joint boxes ({@link computeJointBounds}) are transformed per instance (live: by its skinning matrices;
 * baked: the union of the two frames' precomputed boxes), rigid meshes' boxes by their node, then by its world
 * matrix: {@link worldBounds}, all grown by how far the instance's morph weights may move a vertex. They hold
 * LBS with weights summing to 1; DQS and other weight policies may reach slightly outside them.
 *
 * Root motion ({@link rootMotion}, docs/guide/crowds.md): `in-place` takes the hips' horizontal travel and yaw out
 * of every instance's pose as the `Animator` does (live: `InPlaceClipSample`; baked: the clips are baked in
 * place); `applied` also moves each instance by its own accumulated travel ({@link placementOf},
 * {@link InstanceMotion}): its block's matrix and its bounds become `W·T(x, 0, z)·R_y(yaw)·T(O)`.
 *
 * Morph targets are applied at each instance's own weights (its clip's `weights` channels; baked: blended
 * linearly between frames). Allocates nothing per frame once baked mode has been used once (for each of
 * `rootMotion` off and not off: the two bake different frames).
 *
 * A crowd of one avatar (`ModelAsset.avatar`, e.g. a .vrm with retargeted .vrma clips) sets expressions per
 * instance ({@link setExpression}, {@link expressions}): live, each instance's weights go into the evaluator's
 * avatar before its pose is evaluated, so its blink, mouth and custom expressions reach its morph weights, and its
 * clip's expression tracks play as on a single model (a tracked expression follows the clip). Not per instance:
 * look-at and auto-blink (the avatar's own settings, off by default), material colour and texture transform binds
 * (the crowd pass draws the file's material values), and expressions in baked mode (a baked block carries frame
 * picks, no morph weights: baked instances show the clips' tracks alone). An avatar is posed in JavaScript, not by
 * the {@link kernel}, which does not run the avatar's jobs.
 *
 * Spring bones (`ModelAsset.secondaryMotion`), live mode only: each instance has its own state ({@link springs}),
 * stepped by {@link update}, reset by {@link add}, {@link resetSprings} and a teleport (its springs' roots moved
 * more than the teleport distance in a frame), simulated in its world ({@link springWorldOf}); such instances share
 * no evaluation and are posed in JavaScript. Node constraints run in every evaluation. Baked mode has no spring
 * bones (frames with the springs at rest, the constraints applied) and says so once ({@link onWarning}).
 */
export class Crowd implements InstanceBlocks {
  /** The model the crowd draws: the one given, with {@link CrowdOptions.props} composed in. Upload this one. */
  readonly asset: ModelAsset;
  /**
   * The evaluator: without the {@link kernel} its buffers hold the last evaluated instance's pose;
   * {@link evaluateInstance} puts any instance's pose there.
   */
  readonly model: AnimatedModel;
  /**
   * The crowd kernel that poses every live instance in one call (`CrowdKernel`; {@link CrowdOptions.backend}),
   * or null when instances are posed one by one in JavaScript. Live instances in `in-place` or `applied`
   * {@link rootMotion} are posed one by one either way.
   */
  readonly kernel: CrowdKernel | null;
  readonly capacity: number;
  /** Instances in use (0 … capacity). */
  count = 0;
  mode: CrowdMode;
  /**
   * Root motion of every instance's clip (`RootMotionMode`, {@link CrowdOptions.rootMotion}): `off` (default),
   * `in-place` or `applied`. May change between frames (baked mode bakes the in-place clips on first use).
   * A model whose clips translate no joint has none: every mode draws as `off`.
   */
  rootMotion: RootMotionMode;
  /** The instances' root motion: each one's accumulated travel and the in-place clip sources. */
  readonly motion: InstanceMotion;
  /** Skip instances whose world bounds are outside the view volume given to {@link prepare}. Default true. */
  cull = true;
  /** Per instance: its clip (index into `model.clips`, −1 the rest pose). */
  readonly clipIndices: Int16Array;
  /** Per instance: seconds into its clip, kept in [0, duration) by {@link update}. */
  readonly times: Float64Array;
  /** Per instance: playback speed (1 normal, negative backwards). */
  readonly speeds: Float32Array;
  /**
   * Per instance: the clip played with its clip, blended by {@link blendWeights} ({@link blend},
   * {@link crossfade}; −1 the rest pose).
   */
  readonly blendClipIndices: Int16Array;
  /** Per instance: seconds into its blended clip, kept in [0, duration) by {@link update}. */
  readonly blendTimes: Float64Array;
  /** Per instance: the blended clip's playback speed. */
  readonly blendSpeeds: Float32Array;
  /**
   * Per instance: the blended clip's weight w ∈ [0, 1]: 0 (default) its clip alone, 1 the blended clip alone,
   * between the two blended as the `Animator` crossfades (live: local poses, `blendLayers`; baked: the two
   * clips' baked frames, matrix rows linearly). Written by {@link blend} and {@link crossfade}, or directly.
   */
  readonly blendWeights: Float32Array;
  /** Per instance: how fast {@link update} moves its blend weight towards 1, per second (0: it stays; {@link crossfade}). */
  readonly fadeRates: Float32Array;
  /** Per instance its extra clips, {@link CrowdOptions.clipsPerInstance} − 2 of them (`ExtraClips`). */
  readonly extraClips: ExtraClips;
  /** The animation graph every instance runs ({@link setAnimationGraph}), else null. */
  animationGraph: CrowdAnimationGraph | null = null;
  /** `Float32Array(16·capacity)`: per instance its world matrix W (model space → world), column-major. */
  readonly worlds: Float32Array;
  /** `Float64Array(6·capacity)`: per instance the world box (min, max) found by the last {@link prepare}. */
  readonly worldBounds: Float64Array;
  /** `Int32Array(capacity)`: instance drawn by block k of the last {@link prepare}. */
  readonly drawnInstances: Int32Array;
  /** Per skin, its per-joint bounds. */
  readonly jointBounds: readonly JointBounds[];
  readonly origin: Float64Array;
  /** Skinning mode and weight policy ({@link CrowdOptions.method}). */
  readonly method: SkinningMethod;
  /** Where each skin and rigid node sits in one pose (live blocks after the world texels, baked frames). */
  readonly poseLayout: InstancePoseLayout;
  readonly skinOffsets: Int32Array;
  readonly rigidOffsets: Int32Array;
  readonly morphOffsets: Int32Array;
  readonly meshMirrored: Uint8Array;
  /** Per mesh instance, the box of its rigid mesh in its node's space (`rigidMeshBoxes`). */
  readonly rigidBoxes: Float64Array;
  /** Per mesh instance with morph targets, how far each target moves a vertex at most (`morphReach`). */
  readonly morphReach: readonly (Float64Array | null)[];
  readonly blocks: Float32Array;
  private drawn = 0;
  private revisionValue = 0;
  private mirroredStart = 0;
  private readonly liveBlockTexels: number;
  private readonly bakeRate: number;
  private bakedClips: BakedClips | null = null;
  private bakedInPlace: BakedClips | null = null;
  private readonly box = new Float64Array(6);
  private readonly world = new Float64Array(16);
  /** {@link prepare}'s baked frame picks: f₀, f₁, a of the instance's clip, then of its blended clip. */
  private readonly picks = new Float64Array(6);
  /** A root-motion reading M(t), [x, z, yaw]. */
  private readonly reading = new Float64Array(3);
  /** The kernel's answer: blocks that do not mirror, blocks that do. */
  private readonly counted = new Int32Array(2);
  /** The {@link kernel}'s instance pose as a `PoseSource`, for {@link evaluateInstance}. */
  private readonly kernelPose: CrowdInstancePose | null;
  /** An instance's two clips blended, on the per-instance path. */
  private readonly blended: InstanceBlend;
  /** Per-instance expression weights of a crowd of one avatar, else null ({@link setExpression}). */
  readonly expressions: InstanceExpressions | null;
  /** Per-instance spring-bone states of a model with spring bones (live mode), else null: see the class comment. */
  readonly springs: InstanceSprings | null;
  /** Where the crowd reports, once, what it cannot draw (baked mode's springs); default `console.warn`. */
  onWarning: (message: string) => void = (message) => console.warn(message);
  private warnedBakedSprings = false;

  /**
   * @throws RangeError for a capacity that is not a positive integer, a `clipsPerInstance` not an integer ≥ 2, a `memoryBudgetBytes` that is not a
   *   positive number, or a capacity whose per-instance arrays exceed the budget (`Crowd: N instances of M
   *   bytes each exceed the memory budget of B MiB`), before they are allocated
   * @throws Error from `AnimatedModel` when a clip of `asset` is malformed
   * @throws RangeError from `withProp` for a prop's unknown joint or malformed offset
   */
  constructor(character: ModelAsset, options: CrowdOptions) {
    const { capacity } = options;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`Crowd: capacity must be a positive integer, not ${capacity}`);
    let asset = character;
    for (const prop of options.props ?? []) asset = withProp(asset, prop.asset, prop.joint, prop.offset);
    this.asset = asset;
    this.model = new AnimatedModel(asset);
    this.origin = this.model.origin;
    this.capacity = capacity;
    this.mode = options.mode ?? 'live';
    this.bakeRate = options.bakeRate ?? 30;
    this.rootMotion = options.rootMotion ?? 'off';
    this.method = options.method ?? DEFAULT_SKINNING_METHOD;
    const stride = this.method.skinning === 'dqs' ? 4 : 3;
    this.poseLayout = instancePoseLayout(asset.skins.map((skin) => skin.joints.length), asset.meshInstances.map((m) => m.skin), morphTargetsOfInstances(asset), stride);
    // The world rows are padded to a whole joint, so no joint's texels straddle a row (instance-blocks.ts).
    const worldTexels = stride === 4 ? 4 : WORLD_TEXELS;
    this.skinOffsets = this.poseLayout.skinOffsets.map((o) => o + worldTexels);
    this.rigidOffsets = this.poseLayout.rigidOffsets.map((o) => (o >= 0 ? o + worldTexels : -1));
    this.morphOffsets = this.poseLayout.morphOffsets.map((o) => (o >= 0 ? o + worldTexels : -1));
    this.liveBlockTexels = worldTexels + this.poseLayout.texels;
    const blockTexels = Math.max(this.liveBlockTexels, BAKED_BLOCK_TEXELS);
    const budget = options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
    requirePositiveBytes('memoryBudgetBytes', budget);
    const secondary = this.model.secondaryMotion, springSimulator = secondary?.springs ?? null;
    const instanced = springSimulator !== null && isInstancedSpringSimulator(springSimulator) ? springSimulator : null;
    // The crowd kernel runs neither the avatar's jobs nor the secondary motion.
    const kernelWanted = options.backend !== 'js' && !asset.avatar && !secondary && crowdKernelSupports(asset, this.model.clips, this.method, this.poseLayout);
    const slots = clipSlotsOf(options), E = slots - 2, instanceBytes = crowdInstanceBytes(blockTexels, E) + (kernelWanted ? crowdKernelInstanceBytes(this.model.clips, slots) : 0) + (instanced ? springStateBytes(instanced) : 0);
    if (capacity * instanceBytes > budget) {
      throw new RangeError(`Crowd: ${capacity} instances of ${instanceBytes} bytes each exceed the memory budget of ${formatMebibytes(budget)}`);
    }
    this.motion = new InstanceMotion(this.model, capacity);
    this.jointBounds = asset.skins.map((_, s) => computeJointBounds(asset, s));
    this.rigidBoxes = rigidMeshBoxes(asset);
    const blockFloats = paddedTexelFloats(blockTexels * capacity);
    const kernel = kernelWanted
      ? createCrowdKernel({ asset, clips: this.model.clips, origin: this.origin, layout: this.poseLayout, jointBounds: this.jointBounds, rigidBoxes: this.rigidBoxes, clipSlots: slots }, capacity, blockFloats)
      : null;
    this.kernel = kernel;
    this.kernelPose = kernel ? new CrowdInstancePose(kernel) : null;
    this.clipIndices = kernel?.clipIndices ?? new Int16Array(capacity);
    this.times = kernel?.times ?? new Float64Array(capacity);
    this.blendClipIndices = kernel?.blendClipIndices ?? new Int16Array(capacity);
    this.blendTimes = kernel?.blendTimes ?? new Float64Array(capacity);
    this.blendWeights = kernel?.blendWeights ?? new Float32Array(capacity);
    this.blendSpeeds = new Float32Array(capacity).fill(1);
    this.fadeRates = new Float32Array(capacity);
    this.extraClips = kernel?.extraClips ?? new ExtraClips(E, capacity);
    this.blended = new InstanceBlend(asset.skeleton.jointCount, this.model.morphWeights.length, E, (clip) => this.timedSource(clip));
    this.expressions = this.model.avatar ? new InstanceExpressions(this.model.avatar, capacity) : null;
    this.springs = instanced && secondary ? new InstanceSprings(asset, secondary, capacity) : null;
    this.speeds = new Float32Array(capacity).fill(1);
    this.worlds = kernel?.worlds ?? new Float32Array(16 * capacity);
    for (let k = 0; k < capacity; k++) this.worlds[16 * k] = this.worlds[16 * k + 5] = this.worlds[16 * k + 10] = this.worlds[16 * k + 15] = 1;
    this.worldBounds = kernel?.worldBounds ?? new Float64Array(6 * capacity);
    this.drawnInstances = kernel?.order ?? new Int32Array(capacity);
    this.morphReach = morphReach(asset);
    this.blocks = kernel?.blocks ?? new Float32Array(blockFloats);
    const model = this.model;
    model.evaluate(model.clipSample(-1));
    this.meshMirrored = Uint8Array.from(asset.meshInstances, (m) =>
      (m.skin >= 0 ? asset.skins[m.skin].joints.length > 0 && determinant3x3(model.skinMatrices[m.skin], 0) < 0 : determinant3x3(model.modelMatrices, 16 * m.node) < 0) ? 1 : 0);
  }

  /** Blocks from here to {@link drawCount} mirror (det W < 0), as the last {@link prepare} left them. */
  get mirroredFrom(): number {
    return this.mirroredStart;
  }

  /** Bumped by every {@link prepare} (`InstanceBlocks.revision`). */
  get revision(): number {
    return this.revisionValue;
  }

  /** Instances to draw, as the last {@link prepare} left them. */
  get drawCount(): number {
    return this.drawn;
  }

  /** Texels per block in the current {@link mode}. */
  get blockTexels(): number {
    return this.mode === 'live' ? this.liveBlockTexels : BAKED_BLOCK_TEXELS;
  }

  /** The baked palettes in baked mode (baked on first use), else null. */
  get baked(): BakedPalettes | null {
    return this.mode === 'baked' ? this.bakedClipsOrBake().palettes : null;
  }

  /** The baked clips (baking them now if not yet done): in place when {@link rootMotion} is not `off`. */
  bakedClipsOrBake(): BakedClips {
    const ready = this.inPlace ? this.bakedInPlace : this.bakedClips;
    if (ready) return ready;
    this.expressions?.unload();
    if (this.springs && !this.warnedBakedSprings) {
      this.warnedBakedSprings = true;
      this.onWarning(`${this.asset.name}: a baked crowd has no spring bones (they run per instance in live mode only); its frames hold the clips with the springs at rest`);
    }
    const bake = (): BakedClips => this.inPlace
      ? (this.bakedInPlace = bakeClips(this.model, this.bakeRate, this.poseLayout, this, this.motion.inPlace))
      : (this.bakedClips = bakeClips(this.model, this.bakeRate, this.poseLayout, this));
    return this.springs ? this.springs.atRest(bake) : bake();
  }

  /** Whether poses are drawn in place: {@link rootMotion} is not `off` and the model has a motion root. */
  private get inPlace(): boolean {
    return this.rootMotion !== 'off' && this.motion.root !== null;
  }

  /**
   * Instance k's accumulated root motion now, [x, z, yaw] into `out` (`Float64Array(3)`; model units, radians;
   * the `Animator.placement` of the same playback): its clip's travel from the time it was added at (or
   * {@link resetPlacement}) to its current time, whole loops included (negative speeds run it backwards), as
   * `T(x, 0, z)·R_y(yaw)` in model space. Exact (the clip sampled now, O(J)), whatever {@link rootMotion} is;
   * in `applied` mode baked instances are drawn at it interpolated between baked frames. Zeros for the rest
   * pose or a model without root motion. Assumes the instance's clip has not been changed since. Allocates nothing.
   * @returns `out`
   */
  placementOf(k: number, out: Float64Array): Float64Array {
    return this.motion.placementAt(out, k, this.clipIndices[k], this.times[k]);
  }

  /** Restarts instance k's accumulated root motion from its current time ({@link placementOf} zero). */
  resetPlacement(k: number): void {
    this.motion.start(k, this.clipIndices[k], this.times[k]);
  }

  /**
   * Puts instance k's pose at its clip and time, as live mode draws it, into {@link model}'s buffers (its
   * local pose, model-space and skinning matrices): the {@link kernel}'s sampling, or the clip sampled as
   * `AnimatedModel.clipSample` does (in place when {@link rootMotion} is not `off`). The CPU reference of an
   * instance (`skinVertices` on `model`). Allocates nothing.
   * @throws RangeError for an instance outside [0, count)
   */
  evaluateInstance(k: number): void {
    this.checkInstance(k);
    const model = this.model;
    this.expressions?.load(k);
    if (this.springs) this.loadSprings(k);
    if (this.kernelPose && !this.inPlace) model.evaluate(this.kernelPose.of(k));
    else model.evaluate(this.sourceOf(k));
  }

  /**
   * Instance k's springs start again from the pose of its next evaluation, at rest (a cut, a respawn). Nothing
   * for a model without spring bones.
   * @throws RangeError for an instance outside [0, count)
   */
  resetSprings(k: number): void {
    this.checkInstance(k);
    this.springs?.reset(k);
  }

  /** The evaluator's springs run instance k's state in its world ({@link springWorldOf} into `model.world`). */
  private loadSprings(k: number): void {
    this.springs!.load(k);
    this.springWorldOf(k, this.model.world);
  }

  /**
   * `out` (`Float64Array(16)`) = instance k's world matrix W, in `applied` root motion W·P with its placement P as
   * the last {@link prepare} drew it: the world its springs simulate in (model space → world). Returns `out`.
   */
  springWorldOf(k: number, out: Float64Array): Float64Array {
    const w = this.worlds, o = 16 * k;
    for (let i = 0; i < 16; i++) out[i] = w[o + i];
    if (this.inPlace && this.rootMotion === 'applied' && this.motion.moves(this.clipIndices[k])) placeWorld(out, this.motion.placements, 3 * k);
    return out;
  }

  /**
   * Instance k's pose source on the per-instance path: its clip (in place when {@link rootMotion} is not
   * `off`) at its time, or blended with its blended clip ({@link InstanceBlend}). Allocates nothing.
   */
  private sourceOf(k: number): PoseSource {
    const clip = this.clipIndices[k], w = this.blendWeights[k];
    const a = this.timedSource(clip);
    if (!(w > 0)) return a.at(this.times[k]);
    return this.blended.set(a, this.timedSource(this.blendClipIndices[k]), this, k);
  }

  private timedSource(clip: number): TimedPoseSource {
    return this.inPlace && this.motion.moves(clip) ? this.motion.inPlace[clip] : this.model.clipSample(clip);
  }

  /**
   * Instance k plays clip `clip` (−1: the rest pose) from `time` seconds at `speed` together with its clip,
   * blended by `weight` ∈ [0, 1] ({@link blendWeights}; 0.5 half each), held until changed. Root motion follows
   * the instance's own clip alone. Allocates nothing.
   * @throws RangeError for an instance or clip that does not exist, or a weight outside [0, 1]
   */
  blend(k: number, clip: number, time = 0, weight = 0.5, speed = 1): void {
    this.checkInstance(k);
    this.checkClip(clip);
    if (!(weight >= 0 && weight <= 1)) throw new RangeError(`Crowd: blend weight ${weight} is outside [0, 1]`);
    this.blendClipIndices[k] = clip;
    this.blendTimes[k] = wrapClipTime(this.durationOf(clip), time);
    this.blendSpeeds[k] = speed;
    this.blendWeights[k] = weight;
    this.fadeRates[k] = 0;
  }

  /**
   * Instance k crossfades to clip `clip` (−1: the rest pose), which starts at `time` seconds at `speed`: its
   * {@link blendWeights} rises linearly from 0 to 1 over `seconds` of {@link update} (the `Animator`'s
   * crossfade), then `clip` becomes the instance's clip and the blend ends; its root motion goes on from where
   * it stands ({@link placementOf}). `seconds` ≤ 0 switches at once. Allocates nothing.
   * @throws RangeError for an instance or clip that does not exist
   */
  crossfade(k: number, clip: number, seconds: number, time = 0, speed = 1): void {
    this.blend(k, clip, time, 0, speed);
    if (seconds > 0) this.fadeRates[k] = 1 / seconds;
    else this.finishFade(k);
  }

  /** The blended clip becomes instance k's clip (its travel so far kept); the blend ends. */
  private finishFade(k: number): void {
    const clip = this.blendClipIndices[k], time = this.blendTimes[k];
    this.motion.switchClip(k, this.clipIndices[k], this.times[k], clip, time);
    this.clipIndices[k] = clip;
    this.times[k] = time;
    this.speeds[k] = this.blendSpeeds[k];
    this.blendWeights[k] = 0;
    this.fadeRates[k] = 0;
  }

  /**
   * Every instance runs `graph` (compiled against {@link model}'s clips) with its own parameters and state from
   * `START`, its clips set by each {@link update} (`CrowdAnimationGraph`); null: they play their clips again.
   * Returns the per-instance access (`setParameter(k, name, value)`, `activeState(k)`) or null. @throws RangeError from `CrowdAnimationGraph`
   */
  setAnimationGraph(graph: AnimationGraph | null): CrowdAnimationGraph | null {
    return (this.animationGraph = graph ? new CrowdAnimationGraph(graph, this, this.model.clips, this.capacity) : null);
  }

  /**
   * Sets instance k's weight of expression `name` (a preset or custom name of the avatar; clamped to [0, 1]),
   * drawn from the next live {@link prepare} on; every instance starts with all at 0 ({@link add}). A
   * clip's expression track of the same name overrides it while that clip plays. Allocates nothing.
   * @throws RangeError for an instance that does not exist, a model that is not an avatar, an unknown name or a
   *   weight that is not finite
   */
  setExpression(k: number, name: string, weight: number): void {
    this.checkInstance(k);
    this.avatarExpressions().set(k, name, weight);
  }

  /** Instance k's weight of expression `name`. @throws RangeError as {@link setExpression} */
  getExpression(k: number, name: string): number {
    this.checkInstance(k);
    return this.avatarExpressions().get(k, name);
  }

  private avatarExpressions(): InstanceExpressions {
    if (!this.expressions) throw new RangeError(`${this.asset.name}: not an avatar (no VRM expressions)`);
    return this.expressions;
  }

  private checkInstance(k: number): void {
    if (!Number.isInteger(k) || k < 0 || k >= this.count) throw new RangeError(`Crowd: instance ${k} does not exist (${this.count} instances)`);
  }

  private checkClip(clip: number): void {
    if (!Number.isInteger(clip) || clip < -1 || clip >= this.model.clips.length) throw new RangeError(`${this.asset.name}: clip ${clip} does not exist (${this.model.clips.length} clips)`);
  }

  /**
   * Adds an instance playing clip `clip` (−1: rest pose) from `time` seconds at `speed`, placed by `world`
   * (`Float32Array(16)` column-major; default identity). Returns its index. When the model has root motion
   * (`InstanceMotion.root`) its accounting starts here ({@link placementOf}): the clip is sampled once (O(J)).
   * @throws RangeError when the crowd is full or the clip does not exist
   */
  add(clip: number, time = 0, speed = 1, world?: ArrayLike<number>): number {
    if (this.count >= this.capacity) throw new RangeError(`Crowd: full (${this.capacity} instances)`);
    this.checkClip(clip);
    const k = this.count++;
    this.blendClipIndices[k] = -1;
    this.blendTimes[k] = 0;
    this.blendSpeeds[k] = 1;
    this.blendWeights[k] = 0;
    this.fadeRates[k] = 0;
    this.clipIndices[k] = clip;
    this.times[k] = wrapClipTime(this.durationOf(clip), time);
    this.speeds[k] = speed;
    if (world) for (let i = 0; i < 16; i++) this.worlds[16 * k + i] = world[i];
    this.motion.start(k, clip, this.times[k]);
    this.expressions?.clear(k);
    this.springs?.reset(k);
    this.animationGraph?.reset(k);
    return k;
  }

  /**
   * Moves every instance's time on by `dt · speed` seconds, looping within its clip; each wrap adds its
   * clip's whole travel to the instance's root motion ({@link placementOf}). A blending instance's blended clip
   * moves on by `dt ·` its speed alike, and a crossfade's weight by `dt ·` its rate, ending the fade at 1
   * ({@link crossfade}). Live, each instance's {@link springs} advance by `dt` at its next evaluation; baked, they
   * are reset (live mode starts them again at rest). With an {@link animationGraph}, its `update` instead. Allocates nothing.
   */
  update(dt: number): void {
    const motion = this.motion, weights = this.blendWeights, rates = this.fadeRates;
    this.springs?.stepAll(this.count, this.mode === 'live' ? dt : NaN);
    if (this.animationGraph) return this.animationGraph.update(dt);
    for (let k = 0; k < this.count; k++) {
      const clip = this.clipIndices[k], wraps = stepClipTime(this.times, this.speeds, this.durationOf(clip), k, dt);
      if (wraps !== 0 && motion.moves(clip)) motion.wrapped(k, clip, wraps);
      if (!(weights[k] > 0 || rates[k] > 0)) continue;
      stepClipTime(this.blendTimes, this.blendSpeeds, this.durationOf(this.blendClipIndices[k]), k, dt);
      if (rates[k] > 0) {
        // Within 2⁻²⁰ of 1 ends it: the float32 weight summed frame by frame may stop a rounding short of 1.
        weights[k] = Math.min(1, weights[k] + dt * rates[k]);
        if (weights[k] >= 1 - 2 ** -20) this.finishFade(k);
      }
    }
  }

  /**
   * Writes the blocks of every instance to draw (all, or with {@link cull} those whose world box meets the
   * view volume of `viewProjection`, world → clip, column-major; null: no culling) and their
   * {@link worldBounds}: the instances that do not mirror first, in instance order, then those that do
   * ({@link mirroredFrom}), in reverse order. Returns {@link drawCount}. Allocates nothing (after baked mode's
   * first use).
   */
  prepare(viewProjection: ArrayLike<number> | null): number {
    const baked = this.mode === 'baked' ? this.bakedClipsOrBake() : null;
    const model = this.model, asset = this.asset, blocks = this.blocks, box = this.box, W = this.world;
    const blockTexels = this.blockTexels, clipCount = model.clips.length, worldTexels = this.liveBlockTexels - this.poseLayout.texels;
    const motion = this.motion, inPlace = this.inPlace, applied = inPlace && this.rootMotion === 'applied';
    const kernel = baked || inPlace ? null : this.kernel;
    if (kernel) {
      const counted = kernel.animate(this.count, this.cull ? viewProjection : null, blockTexels, worldTexels, this.counted);
      const plain = counted[0], mirrored = counted[1];
      this.mirroredStart = plain;
      this.drawn = plain + mirrored;
      this.revisionValue++;
      return this.drawn;
    }
    // Blocks that do not mirror fill from the front, mirrored ones from the back; the latter move after the former at the end.
    let drawn = 0, back = this.capacity, lastClip = -2, lastTime = NaN, lastInstance = -1;
    const expressions = this.expressions, springs = this.springs;
    for (let k = 0; k < this.count; k++) {
      const clip = this.clipIndices[k], time = this.times[k];
      const w = this.blendWeights[k], picks = this.picks;
      emptyBox(box);
      if (baked) {
        bakedInstancePicks(picks, box, baked, clipCount, this, k);
        if (applied && motion.moves(clip)) motion.placeBaked(k, baked.motion!, picks[0], picks[1], picks[2]);
      } else {
        const moves = inPlace && motion.moves(clip);
        // Instances with springs share no evaluation: each has its own state and world.
        if (w > 0 || springs !== null || clip !== lastClip || time !== lastTime || (expressions !== null && !expressions.same(lastInstance, k))) {
          expressions?.load(k);
          if (springs) this.loadSprings(k);
          model.evaluate(this.sourceOf(k));
          lastInstance = k;
          // A blended instance shares its evaluation with none.
          lastClip = w > 0 ? -2 : clip;
          lastTime = time;
        }
        // Root motion follows the instance's own clip (sampled alone when the blend left it out).
        if (applied && moves) motion.place(k, w >= 1 ? motion.motionAt(this.reading, clip, time) : motion.inPlace[clip].motion);
        accumulatePoseBounds(box, model, asset, this, this.origin);
      }
      this.worldOf(k, W);
      const wb = this.worldBounds, o = 6 * k;
      wb[o] = wb[o + 1] = wb[o + 2] = Infinity;
      wb[o + 3] = wb[o + 4] = wb[o + 5] = -Infinity;
      if (box[0] <= box[3]) transformBoxInto(wb, box, 0, 0, W, 0, o);
      if (this.cull && viewProjection && boxOutsideFrustum(viewProjection, wb, o)) continue;
      const mirrored = determinant3x3(W, 0) < 0;
      const slot = mirrored ? --back : drawn++;
      const b = 4 * blockTexels * slot;
      for (let r = 0; r < 3; r++) {
        blocks[b + 4 * r] = W[r]; blocks[b + 4 * r + 1] = W[4 + r]; blocks[b + 4 * r + 2] = W[8 + r]; blocks[b + 4 * r + 3] = W[12 + r];
      }
      if (baked) writeBakedPicks(blocks, b, picks, this.blendWeights, k);
      else packInstancePose(blocks, slot * blockTexels + worldTexels, model, asset, this.poseLayout);
      this.drawnInstances[slot] = k;
    }
    const mirroredCount = this.capacity - back;
    if (mirroredCount > 0 && back > drawn) {
      blocks.copyWithin(4 * blockTexels * drawn, 4 * blockTexels * back, 4 * blockTexels * this.capacity);
      this.drawnInstances.copyWithin(drawn, back, this.capacity);
    }
    this.mirroredStart = drawn;
    this.drawn = drawn + mirroredCount;
    this.revisionValue++;
    return this.drawn;
  }

  /**
   * `out` (`Float64Array(16)`) = W·T(O) for instance k, in f64: the matrix its block carries; in `applied`
   * root motion W·P·T(O), P = `T(x, 0, z)·R_y(yaw)` its placement as the last {@link prepare} drew it. Returns `out`.
   */
  worldOf(k: number, out: Float64Array): Float64Array {
    const O = this.origin;
    this.springWorldOf(k, out);
    for (let r = 0; r < 3; r++) out[12 + r] += out[r] * O[0] + out[4 + r] * O[1] + out[8 + r] * O[2];
    return out;
  }

  /** Seconds of clip `clip` (0 for −1, the rest pose). */
  private durationOf(clip: number): number {
    return clip >= 0 ? this.model.clips[clip].duration : 0;
  }
}
