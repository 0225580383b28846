import type { ModelAsset } from '../asset/model-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { cloneLocalPose, copyLocalPose } from '../skeleton/local-pose.ts';
import { localToModel } from '../skeleton/local-to-model.ts';
import { Animator } from '../animation/animator.ts';
import { compileClip, type RuntimeClip } from '../animation/runtime-clip.ts';
import { sampleClip } from '../animation/sample-clip.ts';
import { SamplingContext } from '../animation/sampling-context.ts';
import { computeSkinMatrices } from '../skinning/skin-matrices.ts';
import { SkinningContext } from '../skinning/skinning-context.ts';

/**
 * The per-frame CPU state of one model: its local pose, world matrices and one skinning palette per skin.
 * Both the GPU path (palette upload) and the CPU reference path (`skinVertices`) read the palettes from
 * here, so they see the same numbers. The pose comes from one of two sources:
 *
 * - {@link evaluate}`(timeSeconds)`: the clip {@link clipIndex} at a time (the CLI, renderer and parity
 *   tests): rest pose → sampleClip → localToModel → computeSkinMatrices;
 * - the {@link animator} (the viewer): clips with speed, loop modes, crossfades and layers, moved on by
 *   {@link advance}`(dtSeconds)`: animator.update → animator.evaluate(pose, rest) → localToModel →
 *   computeSkinMatrices.
 *
 * Whichever ran last wrote the buffers. Everything is allocated once in the constructor — the clips compiled,
 * a sampling context per clip, a skinning context per skin — so `evaluate`, `advance` and `evaluateAnimator`
 * allocate nothing.
 */
export class AnimatedModel {
  readonly asset: ModelAsset;
  /** Current local pose (rest pose overwritten by the clip's channels, or the animator's blend). */
  readonly pose: LocalPose;
  /** `Float32Array(16·jointCount)`: world matrices, column-major, joint i at 16i. */
  readonly modelMatrices: Float32Array;
  /** Per skin s, `Float32Array(16·asset.skins[s].joints.length)`: its skinning palette. */
  readonly skinMatrices: Float32Array[];
  /** Per skin s, its {@link SkinningContext}, for `computeSkinMatrices` and `skinVertices` on its palette. */
  readonly skinningContexts: readonly SkinningContext[];
  /** `asset.clips` compiled ({@link compileClip}), same order: pass these to `animator.play`. */
  readonly clips: readonly RuntimeClip[];
  /**
   * Plays the asset's clips for {@link advance} / {@link evaluateAnimator}: nothing plays until the owner
   * calls `animator.play(asset.clips[i], …)` (with nothing playing it gives the rest pose). Independent of
   * {@link clipIndex} and {@link evaluate}.
   */
  readonly animator: Animator;
  private clip = -1;
  /** Per clip, the sampling context {@link evaluate} uses (its cursors follow that clip's times). */
  private readonly contexts: SamplingContext[];

  /** @throws Error from `compileClip` when a clip of `asset` is malformed */
  constructor(asset: ModelAsset) {
    this.asset = asset;
    this.pose = cloneLocalPose(asset.restPose);
    this.modelMatrices = new Float32Array(16 * asset.skeleton.jointCount);
    this.skinMatrices = asset.skins.map((skin) => new Float32Array(16 * skin.joints.length));
    this.skinningContexts = asset.skins.map((skin) => new SkinningContext(skin));
    this.clips = asset.clips.map((clip) => compileClip(clip, asset.skeleton.jointCount));
    this.contexts = this.clips.map((clip) => new SamplingContext(clip.timelines.length));
    this.animator = new Animator(asset.skeleton.jointCount);
    this.clip = asset.clips.length > 0 ? 0 : -1;
    this.evaluate(0);
  }

  /**
   * Index into `asset.clips` of the clip `evaluate` samples, or −1 for the rest pose. The viewer also keeps
   * it on the clip its animator plays last, for {@link duration}; the animator does not read it.
   * @throws RangeError for an index outside [−1, clips.length)
   */
  get clipIndex(): number {
    return this.clip;
  }

  set clipIndex(index: number) {
    if (!Number.isInteger(index) || index < -1 || index >= this.asset.clips.length) {
      throw new RangeError(`${this.asset.name}: clip ${index} does not exist (${this.asset.clips.length} clips)`);
    }
    this.clip = index;
  }

  /** Duration in seconds of the current clip (0 at rest). */
  get duration(): number {
    return this.clip >= 0 ? this.asset.clips[this.clip].duration : 0;
  }

  /**
   * Evaluates the pipeline at `timeSeconds` of the current clip: rest pose → sampleClip → localToModel →
   * computeSkinMatrices for every skin. Time is clamped to the clip's keys by the samplers; looping is
   * the caller's business. Does not touch the {@link animator}.
   */
  evaluate(timeSeconds: number): void {
    copyLocalPose(this.pose, this.asset.restPose);
    if (this.clip >= 0) sampleClip(this.pose, this.clips[this.clip], timeSeconds, this.contexts[this.clip]);
    this.computeMatrices();
  }

  /**
   * Moves the {@link animator} on by `dtSeconds` of real time (each clip at its own speed and loop mode, every
   * crossfade by `dtSeconds`), then evaluates its pose into the buffers ({@link evaluateAnimator}).
   * Allocates nothing.
   * @param dtSeconds seconds of real time, normally ≥ 0 (0 re-evaluates without moving anything)
   */
  advance(dtSeconds: number): void {
    this.animator.update(dtSeconds);
    this.evaluateAnimator();
  }

  /**
   * Evaluates the {@link animator}'s current state without moving time: animator.evaluate(pose, rest pose) →
   * localToModel → computeSkinMatrices for every skin. Allocates nothing.
   */
  evaluateAnimator(): void {
    this.animator.evaluate(this.pose, this.asset.restPose);
    this.computeMatrices();
  }

  /** pose → modelMatrices → one palette per skin. */
  private computeMatrices(): void {
    localToModel(this.modelMatrices, this.asset.skeleton, this.pose);
    const skins = this.asset.skins;
    for (let s = 0; s < skins.length; s++) {
      computeSkinMatrices(this.skinMatrices[s], this.modelMatrices, skins[s], this.skinningContexts[s]);
    }
  }
}
