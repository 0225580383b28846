import type { AvatarAsset } from '../asset/avatar-asset.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { morphWeightCount } from '../skinning/morph-targets.ts';
import { applyExpressions, checkExpressionBinds } from './apply-expressions.ts';
import { writeAutoBlinkWeight } from './auto-blink.ts';
import { ExpressionGroup, ExpressionState } from './expression-state.ts';
import { ExpressionTrackSampler } from './expression-tracks.ts';
import { LookAtController } from './look-at.ts';
import { LookAtTrackSampler } from './look-at-track.ts';
import { MaterialValues } from './material-values.ts';

/**
 * An avatar's run-time jobs on one model instance, as one {@link PoseJob} run after clip sampling and the other
 * pose jobs and before the matrix stages (`AnimatedModel.evaluate`), so the GPU path and the CPU reference
 * (`skinVertices`, `sinew eval`) see the same morph weights and eye rotations. Each {@link apply}, in three-vrm's
 * update order (look-at, then expressions):
 * 1. look-at finds yaw and pitch from the posed head ({@link lookAt}); the `expression` type sets the look
 *    expressions' weights;
 * 2. with {@link autoBlink}, the `blink` weight at the time {@link clock} holds (`autoBlinkWeight`);
 * 3. the expressions resolve (`isBinary`, overrides; {@link expressions});
 * 4. the `bone` type turns the eyes, scaled by the look-at multiplier;
 * 5. the binds are written: morph weights into the pose, colours and texture transforms into {@link materialValues},
 *    which the draw reads (`RenderItem.materialValues`).
 * Clip expression and look-at tracks are sampled by {@link sampleClip}, which the model's evaluate calls before the jobs.
 * Caller-owned, one per instance; allocates nothing after construction.
 */
export class AvatarController implements PoseJob {
  readonly avatar: AvatarAsset;
  readonly expressions: ExpressionState;
  /** The per-frame material values the expressions write and the draw reads. */
  readonly materialValues: MaterialValues;
  /** Look-at, or null when the avatar has none (or no head). */
  readonly lookAt: LookAtController | null;
  /** Whether {@link apply} sets the `blink` weight from the automatic schedule at {@link clock}. Off by default. */
  autoBlink = false;
  /** `Float64Array(1)`: seconds on the automatic blink's clock at index 0; the owner advances it (e.g. by each frame's dt). */
  readonly clock = new Float64Array(1);
  /** Per clip of the asset, its expression tracks bound to {@link expressions}, or null when it has none that apply. */
  private readonly clipTracks: readonly (ExpressionTrackSampler | null)[];
  /** Per clip of the asset, its look-at track, or null (none, or the avatar has no look-at). */
  private readonly lookAtTracks: readonly (LookAtTrackSampler | null)[];
  private readonly blink: number;

  /**
   * @throws Error when `asset` has no avatar
   * @throws RangeError when an expression bind names a morph weight or material the model lacks
   */
  constructor(asset: ModelAsset) {
    const avatar = asset.avatar;
    if (!avatar) throw new Error(`${asset.name}: not an avatar (no VRM humanoid, expressions or look-at)`);
    this.avatar = avatar;
    checkExpressionBinds(avatar.expressions, morphWeightCount(asset), asset.materials.length);
    this.expressions = new ExpressionState(avatar.expressions);
    this.materialValues = new MaterialValues(asset.materials);
    this.lookAt = avatar.lookAt && avatar.humanoid.bones.head !== undefined
      ? new LookAtController(avatar.lookAt, avatar.humanoid, asset.skeleton, asset.restPose, this.expressions)
      : null;
    this.clipTracks = asset.clips.map((clip) => {
      const sampler = clip.expressionTracks?.length ? new ExpressionTrackSampler(clip.expressionTracks, this.expressions) : null;
      return sampler?.drivesAny ? sampler : null;
    });
    this.lookAtTracks = asset.clips.map((clip) => (clip.lookAtTrack && this.lookAt ? new LookAtTrackSampler(clip.lookAtTrack) : null));
    this.blink = this.expressions.indexOf('blink');
  }

  /** Sets expression `name`'s weight ([0, 1], clamped). @throws RangeError for an unknown name or a weight that is not finite */
  setExpression(name: string, weight: number): void {
    this.expressions.setExpression(name, weight);
  }

  /** Expression `name`'s input weight. @throws RangeError for an unknown name */
  getExpression(name: string): number {
    return this.expressions.getExpression(name);
  }

  /**
   * Writes clip `clipIndex`'s expression tracks (`AnimationClip.expressionTracks` of the asset's clip) at the
   * time `clock[0]` (seconds; e.g. a `ClipPlayer.clock`) into the expression weights, and its look-at track
   * (`lookAtTrack`) into the look-at's yaw and pitch (`LookAtTrackSampler`: not while it looks at a point); a clip
   * without tracks, or an index out of range, writes nothing. Allocates nothing.
   */
  sampleClip(clipIndex: number, clock: Float64Array): void {
    if (!(clipIndex >= 0 && clipIndex < this.clipTracks.length)) return;
    const sampler = this.clipTracks[clipIndex], lookAt = this.lookAtTracks[clipIndex];
    if (sampler) sampler.sample(this.expressions, clock);
    if (lookAt) lookAt.sample(this.lookAt!, clock);
  }

  /**
   * Takes over what the caller set on `other` (the same avatar on another model instance, e.g. the model rebuilt
   * with more clips): the input weights, auto-blink and its clock, the look-at mode, target and angles.
   * @throws Error when `other` has a different number of expressions
   */
  copyFrom(other: AvatarController): void {
    if (other.expressions.weights.length !== this.expressions.weights.length) throw new Error('copyFrom: the avatars have different expressions');
    this.expressions.weights.set(other.expressions.weights);
    this.autoBlink = other.autoBlink;
    this.clock[0] = other.clock[0];
    const from = other.lookAt, to = this.lookAt;
    if (from && to) {
      to.target.set(from.target);
      to.mode = from.mode;
      to.yaw = from.yaw;
      to.pitch = from.pitch;
    }
  }

  /** Whether {@link apply} writes joint rotations (bone look-at while looking): every matrix must then be recomputed. */
  get movesJoints(): boolean {
    return this.lookAt?.movesJoints ?? false;
  }

  /** Runs the steps of the class comment on `pose`. Allocates nothing. */
  apply(pose: LocalPose, skeleton: Skeleton): void {
    const expressions = this.expressions, lookAt = this.lookAt;
    if (lookAt) {
      lookAt.update(pose, skeleton);
      lookAt.applyExpressions(expressions);
    }
    if (this.autoBlink && this.blink >= 0) writeAutoBlinkWeight(expressions.weights, this.blink, this.clock);
    expressions.resolve();
    if (lookAt) lookAt.applyBones(pose, expressions.multipliers, ExpressionGroup.LookAt);
    applyExpressions(expressions, pose.morphWeights, this.materialValues);
  }
}
