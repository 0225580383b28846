import type { ModelAsset } from '../asset/model-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { copyLocalPose } from '../skeleton/local-pose.ts';
import { PoseKernel, type PoseKernelOptions } from '../pose/pose-kernel.ts';
import { animatorSampling, samplingArenaBytes } from '../pose/sampling-kernel.ts';
import type { PoseBuffers } from '../skeleton/pose-buffers.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import { didYouMeanJoint, findJoint } from '../skeleton/skeleton.ts';
import { Animator } from '../animation/animator.ts';
import { compileClip, type RuntimeClip } from '../animation/runtime-clip.ts';
import { applyPlacement, findMotionRoot } from '../animation/root-motion.ts';
import { SkinningContext } from '../skinning/skinning-context.ts';
import { morphWeightJoints } from '../skinning/morph-targets.ts';
import { animatedSubtrees } from '../asset/animated-nodes.ts';
import { AvatarController } from '../avatar/avatar-controller.ts';
import { SecondaryMotion } from '../secondary/secondary-motion.ts';
import { createSpringKernel, springKernelArenaBytes } from '../pose/spring-kernel.ts';
import { ClipSample } from './clip-sample.ts';
import { computeModelOrigin } from './model-origin.ts';
import type { PoseSource } from './pose-source.ts';

/**
 * The per-frame CPU state of one model: its local pose and the {@link PoseBuffers} drawn and skinned from it
 * (model-space matrices, one set of skinning matrices per skin). The renderer (`SkinnedRenderer.draw(gpuModel, this, …)`)
 * and the CPU reference path (`skinVertices` with {@link skinningContexts}) read the same buffers, so they
 * see the same numbers.
 *
 * The buffers have one writer, {@link evaluate}`(source)`, and the caller names the source each time:
 *
 * - `model.evaluate(model.clipSample(i).at(t))`: clip i at t seconds (−1: the rest pose), as `sinew eval`
 *   and the parity tests do;
 * - `model.evaluate(model.animator)`: whatever the {@link animator} plays (speed, loop modes, crossfades,
 *   layers), as the viewer does after moving it on with `animator.update(dt)`.
 *
 * Everything is allocated once in the constructor — the clips compiled, a {@link ClipSample} (with its
 * keyframe cursors) per clip, a skinning context per skin — so `evaluate` allocates nothing.
 */
export class AnimatedModel implements PoseBuffers {
  readonly asset: ModelAsset;
  /** The local pose of the last {@link evaluate}. */
  readonly pose: LocalPose;
  /**
   * `Float64Array(3)`: the model's origin O (model space, the file's units; {@link computeModelOrigin}), fixed
   * at load. {@link modelMatrices} and {@link skinMatrices} are relative to it; (0, 0, 0) unless the model lies
   * far from model space's origin.
   */
  readonly origin: Float64Array;
  /** `Float32Array(16·jointCount)`: model-space matrix of every joint relative to {@link origin} (`T(−O)·M`), column-major, joint i at 16i. */
  readonly modelMatrices: Float32Array;
  /** Per skin s, `Float32Array(16·asset.skins[s].joints.length)`: its skinning matrices relative to {@link origin} (`T(−O)·M·B⁻¹`, docs/explanation/skinning-formulas.md S0). */
  readonly skinMatrices: Float32Array[];
  /**
   * `Float32Array(w)`: the morph target weights of the last {@link evaluate} ({@link pose}'s `morphWeights`, the
   * rest pose's when nothing animates them), instance i's at `asset.meshInstances[i].morphWeightOffset`.
   */
  readonly morphWeights: Float32Array;
  /** Per skin s, its {@link SkinningContext}, for `computeSkinMatrices` and `skinVertices` on its skinning matrices. */
  readonly skinningContexts: readonly SkinningContext[];
  /** `asset.clips` compiled ({@link compileClip}), same order: pass these to `animator.play`. */
  readonly clips: readonly RuntimeClip[];
  /**
   * This model's animator, a {@link PoseSource}: nothing plays until the owner calls
   * `animator.play(model.clips[i], …)` (with nothing playing it gives the rest pose). Time moves only by
   * `animator.update(dt)`; {@link evaluate} reads it without moving it. Its motion root is the hips
   * (`findMotionRoot`), so `animator.rootMotion` works on this model's clips. With the WebAssembly backend
   * it samples every channel but BEZIER off thirds and blends (crossfades, masked and additive layers;
   * docs/explanation/animation-blending.md) in SIMD in {@link kernel}'s memory (`animatorSampling`): rotations by nlerp, within θ³/54 of slerp for keys θ apart
   * (docs/explanation/animation-sampling.md); {@link clipSample} and `backend: 'js'` keep glTF's slerp exactly.
   */
  readonly animator: Animator;
  /** Computes {@link modelMatrices} and {@link skinMatrices} from {@link pose}; its buffers are this model's. */
  readonly kernel: PoseKernel;
  /**
   * `Float64Array(16)`, column-major: where the model stands in the world (model space → world space), identity
   * by default. Nothing here draws with it: {@link jointMatrix} and the features built on it (attachments,
   * hotspots, picking rays) read it, and a view sets it to what it draws the model with (`ModelView`: its
   * display matrix). Root motion in `applied` mode is already in the pose, not here.
   */
  readonly world: Float64Array = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  /**
   * Jobs run by {@link evaluate} on the local pose after the source wrote it and before the matrix stages, in
   * order (inverse kinematics: `TwoBoneIkJob`, `AimIkJob`). Add and remove them at will; empty by default.
   */
  readonly poseJobs: PoseJob[] = [];
  /**
   * The avatar's expressions, look-at and automatic blink (`AvatarController`), for an asset with an avatar
   * (`ModelAsset.avatar`), else null. {@link evaluate} samples the playing clip's expression tracks into it and
   * runs it after {@link poseJobs}, so its morph weights and eye rotations reach both the GPU and the CPU path;
   * its `materialValues` are what a `RenderItem` draws the materials with.
   */
  readonly avatar: AvatarController | null;
  /**
   * The model's spring bones and node constraints (`SecondaryMotion`), for an asset with them
   * (`ModelAsset.secondaryMotion`), else null. {@link evaluate} runs it after the {@link avatar} (constraints, then
   * springs) and before the matrix stages, with {@link world} copied into its `world` first, so the GPU palette and
   * the CPU reference see the moved joints. Time moves only by `secondaryMotion.step(dt)` (a view steps it by each
   * frame's dt, as three-vrm's `vrm.update(delta)`); an evaluate without a step re-poses the springs unmoved.
   * The first evaluate (the constructor's, at the rest pose) sets the springs at rest.
   */
  readonly secondaryMotion: SecondaryMotion | null;
  /** Per clip, the sample {@link clipSample} hands out; then one for the rest pose. */
  private readonly samples: ClipSample[];
  /** The skeleton's root joints (no parent): where `applied` root motion places the pose. */
  private readonly roots: Int32Array;
  /**
   * Whether the last {@link evaluate} moved nodes outside the animated subtrees (root motion placed the roots,
   * or pose jobs ran): the next one then recomputes every matrix, as this one did.
   */
  private movedAll = true;
  /** Scratch: a clip sample's time, for the avatar's expression tracks. */
  private readonly clipClock = new Float64Array(1);

  /**
   * Evaluates the rest pose.
   * @param options how {@link kernel} computes (default: WebAssembly SIMD where available)
   * @throws Error from `compileClip` when a clip of `asset` is malformed, or when the rest pose's morph weights
   *   do not match the mesh instances' ranges
   */
  constructor(asset: ModelAsset, options: PoseKernelOptions = {}) {
    this.asset = asset;
    this.origin = computeModelOrigin(asset);
    this.clips = asset.clips.map((clip) => compileClip(clip, asset.skeleton.jointCount));
    const springBone = asset.secondaryMotion?.springBone ?? null;
    const springBytes = springBone ? springKernelArenaBytes(springBone, asset.skeleton, asset.restPose) : 0;
    const arenaBytes = options.backend === 'js' ? 0 : samplingArenaBytes(this.clips, asset.skeleton.jointCount) + springBytes;
    this.kernel = new PoseKernel(asset.skeleton, asset.skins, this.origin, { ...options, arenaBytes });
    this.morphWeights = asset.restPose.morphWeights ? asset.restPose.morphWeights.slice() : new Float32Array(0);
    this.pose = { ...this.kernel.pose, morphWeights: this.morphWeights };
    copyLocalPose(this.pose, asset.restPose);
    this.modelMatrices = this.kernel.modelMatrices;
    this.skinMatrices = this.kernel.skinMatrices;
    this.skinningContexts = asset.skins.map((skin) => new SkinningContext(skin, this.origin));
    // The clip samples evaluate a clip at any time as glTF defines it (slerp): `sinew eval`, bounds, framing.
    this.samples = [...this.clips.map((clip) => new ClipSample(clip)), new ClipSample(null)];
    // The animator plays: its sampling kernels (nlerp, within the bound of src/pose/sampling-kernel.ts) and
    // blending kernel follow the pose kernel's backend and work in its arena, writing the pose in place.
    const sampling = animatorSampling(this.kernel, this.kernel.backend === 'js' ? 'js' : 'auto');
    const morphJoints = morphWeightJoints(asset);
    if (morphJoints.length !== this.morphWeights.length) {
      throw new Error(`${asset.name}: the rest pose has ${this.morphWeights.length} morph weights, the mesh instances ${morphJoints.length}`);
    }
    const motionRoot = findMotionRoot(asset.skeleton, asset.restPose, this.clips);
    this.animator = new Animator(asset.skeleton.jointCount, {
      morphWeightJoints: morphJoints, motionRoot, ...sampling,
    });
    this.roots = rootJoints(asset.skeleton.parents);
    this.avatar = asset.avatar ? new AvatarController(asset) : null;
    const secondary = asset.secondaryMotion ? new SecondaryMotion(asset) : null;
    this.secondaryMotion = secondary?.present ? secondary : null;
    // The springs follow the pose kernel's backend: on WebAssembly, the spring kernel in its arena, on the pose in
    // place (the portable job where the kernel does not fit the springs: createSpringKernel's null).
    if (secondary?.springs && springBone && this.kernel.backend !== 'js') {
      secondary.springs = createSpringKernel(springBone, asset.skeleton, asset.restPose, { arena: this.kernel.arena }) ?? secondary.springs;
    }
    this.kernel.listJoints(animatedSubtrees(asset));
    this.evaluate(this.clipSample(-1));
  }

  /**
   * This model's {@link ClipSample} of clip `clipIndex` (−1: the rest pose): the same object on every call,
   * so its cursors follow that clip's times; set its time with `at(t)`.
   * @throws RangeError for an index outside [−1, clips.length)
   */
  clipSample(clipIndex: number): ClipSample {
    if (!Number.isInteger(clipIndex) || clipIndex < -1 || clipIndex >= this.clips.length) {
      throw new RangeError(`${this.asset.name}: clip ${clipIndex} does not exist (${this.clips.length} clips)`);
    }
    return this.samples[clipIndex < 0 ? this.clips.length : clipIndex];
  }

  /**
   * The one writer of the buffers: `source` writes {@link pose} (with its morph weights, {@link morphWeights})
   * over the rest pose, then localToModel (relative
   * to {@link origin}) → {@link modelMatrices} (docs/explanation/skinning-formulas.md S4) → computeSkinMatrices → skinning matrices per skin (S0).
   * With the {@link animator} as source in `applied` root motion, the pose is first moved by its `placement`
   * (`applyPlacement`), so everything drawn and skinned walks with it. Moves no time. Allocates nothing
   * (given a source that does not).
   *
   * Only the animated subtrees' matrices are recomputed (the clips' target nodes, the skin joints and their
   * descendants: `animatedSubtrees`; docs/guide/large-scenes.md): a source writes the rest pose for every other node,
   * whose matrices therefore stay as computed. When root motion places the roots, pose jobs or secondary motion run or the source is
   * neither {@link animator} nor a {@link ClipSample} (it may write any node), every matrix is recomputed, then
   * and on the next evaluate. So the animator plays {@link clips} (a clip from elsewhere joins the asset first:
   * `addClipsToModel`, which makes a new model).
   */
  evaluate(source: PoseSource): void {
    source.evaluate(this.pose, this.asset.restPose);
    const placed = source === this.animator && this.animator.rootMotion === 'applied';
    if (placed) applyPlacement(this.pose, this.roots, this.animator.placement);
    const jobs = this.poseJobs, skeleton = this.asset.skeleton;
    for (let i = 0; i < jobs.length; i++) jobs[i].apply(this.pose, skeleton);
    const avatar = this.avatar;
    if (avatar) {
      this.sampleExpressionTracks(avatar, source);
      avatar.apply(this.pose, skeleton);
    }
    const secondary = this.secondaryMotion;
    const moving = secondary !== null && secondary.enabled;
    if (secondary) {
      secondary.world.set(this.world);
      secondary.apply(this.pose, skeleton);
    }
    // Sources of this model's clips write the rest pose outside them; another source may write any node.
    const movesAll = placed || jobs.length > 0 || moving || (avatar !== null && avatar.movesJoints) || !(source === this.animator || source instanceof ClipSample);
    if (movesAll || this.movedAll) this.kernel.update();
    else this.kernel.updateListed();
    this.movedAll = movesAll;
  }

  /**
   * The expression tracks of the clip `source` plays (a {@link ClipSample}'s clip at its time; the animator's
   * newest clip on layer 0 at its player's time, crossfades not blended) into the avatar's expression weights.
   */
  private sampleExpressionTracks(avatar: AvatarController, source: PoseSource): void {
    if (source instanceof ClipSample) {
      if (!source.clip) return;
      this.clipClock[0] = source.time;
      avatar.sampleClip(this.clips.indexOf(source.clip), this.clipClock);
    } else if (source === this.animator) {
      const player = this.animator.player(0);
      if (player) avatar.sampleClip(this.clips.indexOf(player.clip), player.clock);
    }
  }

  /**
   * Index of joint `joint` of the skeleton: an index is checked and returned, a name looked up (the first joint
   * so named). Linear in the joint count for a name: resolve once at set-up, not per frame.
   * @throws RangeError naming the model and the joint when there is no such joint
   */
  jointIndex(joint: number | string): number {
    const skeleton = this.asset.skeleton;
    const index = typeof joint === 'number' ? joint : findJoint(skeleton, joint);
    if (!Number.isInteger(index) || index < 0 || index >= skeleton.jointCount) {
      const known = skeleton.names.filter((n) => n).slice(0, 8).join(', ');
      throw new RangeError(`${this.asset.name}: no joint ${typeof joint === 'number' ? joint : JSON.stringify(joint)} (${didYouMeanJoint(skeleton, joint)}${skeleton.jointCount} joints${known ? `: ${known}${skeleton.jointCount > 8 ? ', …' : ''}` : ''})`);
    }
    return index;
  }

  /**
   * Joint `joint`'s matrix for the pose of the last {@link evaluate}, in world space: `world · T(O) · Mⱼ`, with
   * Mⱼ its model-space matrix relative to the {@link origin} O ({@link modelMatrices}; docs/explanation/skinning-formulas.md
   * S4) and O added back in f64. With the default identity {@link world} that is the joint's model-space matrix
   * (the scene root's frame), what `sinew eval --joints` prints. Allocates nothing.
   * @param joint a joint index, or a name (resolved by {@link jointIndex}; pass the index per frame)
   * @param out `Float64Array(16)` or `Float32Array(16)`, column-major; written and returned
   * @throws RangeError when there is no such joint
   */
  jointMatrix<T extends Float64Array | Float32Array>(joint: number | string, out: T): T {
    const j = typeof joint === 'number' && Number.isInteger(joint) && joint >= 0 && joint < this.asset.skeleton.jointCount ? joint : this.jointIndex(joint);
    const m = this.modelMatrices, o = 16 * j, w = this.world, origin = this.origin;
    // Read everything before writing, so `out` may be `world`.
    const m0 = m[o], m1 = m[o + 1], m2 = m[o + 2], m3 = m[o + 3], m4 = m[o + 4], m5 = m[o + 5], m6 = m[o + 6], m7 = m[o + 7];
    const m8 = m[o + 8], m9 = m[o + 9], m10 = m[o + 10], m11 = m[o + 11];
    const m12 = m[o + 12] + origin[0], m13 = m[o + 13] + origin[1], m14 = m[o + 14] + origin[2], m15 = m[o + 15];
    for (let r = 0; r < 4; r++) {
      const w0 = w[r], w1 = w[4 + r], w2 = w[8 + r], w3 = w[12 + r];
      const a = w0 * m0 + w1 * m1 + w2 * m2 + w3 * m3;
      const b = w0 * m4 + w1 * m5 + w2 * m6 + w3 * m7;
      const c = w0 * m8 + w1 * m9 + w2 * m10 + w3 * m11;
      const d = w0 * m12 + w1 * m13 + w2 * m14 + w3 * m15;
      out[r] = a; out[4 + r] = b; out[8 + r] = c; out[12 + r] = d;
    }
    return out;
  }
}

/** The joints without a parent, in joint order: `parents` has length `jointCount`, −1 for a root. */
function rootJoints(parents: ArrayLike<number>): Int32Array {
  let count = 0;
  for (let j = 0; j < parents.length; j++) if (parents[j] < 0) count++;
  const roots = new Int32Array(count);
  for (let j = 0, r = 0; j < parents.length; j++) if (parents[j] < 0) roots[r++] = j;
  return roots;
}
