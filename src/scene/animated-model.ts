import type { ModelAsset } from '../asset/model-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { cloneLocalPose, copyLocalPose } from '../skeleton/local-pose.ts';
import { localToModel } from '../skeleton/local-to-model.ts';
import { createClipCursor, sampleClip, type ClipCursor } from '../animation/sample-clip.ts';
import { computeSkinMatrices } from '../skinning/skin-matrices.ts';

/**
 * The per-frame CPU state of one model: its local pose, world matrices and one skinning palette per skin,
 * evaluated from a clip at a time. Both the GPU path (palette upload) and the CPU reference path
 * (`skinVertices`) read the palettes from here, so they see the same numbers. All buffers are allocated
 * once in the constructor; `evaluate` allocates nothing.
 */
export class AnimatedModel {
  readonly asset: ModelAsset;
  /** Current local pose (rest pose overwritten by the clip's channels). */
  readonly pose: LocalPose;
  /** `Float32Array(16·jointCount)`: world matrices, column-major, joint i at 16i. */
  readonly modelMatrices: Float32Array;
  /** Per skin s, `Float32Array(16·asset.skins[s].joints.length)`: its skinning palette. */
  readonly skinMatrices: Float32Array[];
  private clip = -1;
  private readonly cursors: ClipCursor[];

  constructor(asset: ModelAsset) {
    this.asset = asset;
    this.pose = cloneLocalPose(asset.restPose);
    this.modelMatrices = new Float32Array(16 * asset.skeleton.jointCount);
    this.skinMatrices = asset.skins.map((skin) => new Float32Array(16 * skin.joints.length));
    this.cursors = asset.clips.map(createClipCursor);
    this.clip = asset.clips.length > 0 ? 0 : -1;
    this.evaluate(0);
  }

  /**
   * Index into `asset.clips` of the clip `evaluate` samples, or −1 for the rest pose.
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
   * the caller's business.
   */
  evaluate(timeSeconds: number): void {
    copyLocalPose(this.pose, this.asset.restPose);
    if (this.clip >= 0) sampleClip(this.pose, this.asset.clips[this.clip], timeSeconds, this.cursors[this.clip]);
    localToModel(this.modelMatrices, this.asset.skeleton, this.pose);
    const skins = this.asset.skins;
    for (let s = 0; s < skins.length; s++) computeSkinMatrices(this.skinMatrices[s], this.modelMatrices, skins[s]);
  }
}
