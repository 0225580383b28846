import {
  clipMotionRecord, composeMotion, composeRepeated, findMotionRoot, invertMotion, takeRootMotion, type MotionRoot,
} from '../animation/root-motion.ts';
import { SamplingContext } from '../animation/sampling-context.ts';
import { createLocalPose, type LocalPose } from '../skeleton/local-pose.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { ClipSample } from '../scene/clip-sample.ts';
import type { PoseSource } from '../scene/pose-source.ts';

/**
 * A {@link PoseSource} for one clip played in place (docs/guide/root-motion.md): the clip's pose at {@link time}
 * with the motion root's horizontal travel and yaw since time 0 taken out by `takeRootMotion`, the path the
 * `Animator` takes in its `in-place` and `applied` modes. Each evaluate leaves that travel, the motion
 * transform M(t) = [c_x, c_z, ψ] (`composeMotion`; file units, radians), in {@link motion}. Allocates nothing.
 */
export class InPlaceClipSample implements PoseSource {
  /** `Float64Array(3)`: M(t) of the last {@link evaluate}. */
  readonly motion = new Float64Array(3);
  readonly sample: ClipSample;
  private readonly root: MotionRoot;
  /** The clip's motion record (`clipMotionRecord`): its root at time 0, then M(D). */
  private readonly record: Float64Array;
  private readonly reading = new Float64Array(3);
  private readonly scratch = new Float64Array(4);

  constructor(sample: ClipSample, root: MotionRoot, record: Float64Array) {
    this.sample = sample;
    this.root = root;
    this.record = record;
  }

  /** Sets the time sampled (seconds); returns this, for `model.evaluate(source.at(t))`. */
  at(time: number): this {
    this.sample.at(time);
    return this;
  }

  /** The clip at its time over `restPose` into `out`, then in place. */
  evaluate(out: LocalPose, restPose: LocalPose): LocalPose {
    this.sample.evaluate(out, restPose);
    takeRootMotion(this.motion, out, this.root, this.record, this.reading, this.scratch);
    return out;
  }
}

/**
 * Root motion of a crowd's instances (`CrowdOptions.rootMotion`). An instance that started clip c at time t₀
 * and has since wrapped n times (n < 0 backwards) has travelled
 *
 *   P = M(t₀)⁻¹ ∘ M(D)ⁿ ∘ M(t)      (planar transforms of `composeMotion`; t ∈ [0, D) its time now)
 *
 * — the Animator's `placement` for the same playback, which sums the deltas M_prev⁻¹ ∘ M(D)^wraps ∘ M(t)
 * frame by frame (the sum telescopes to P). Per instance the prefix `M(t₀)⁻¹ ∘ M(D)ⁿ` is kept and updated only
 * when the instance wraps ({@link wrapped}), so each frame costs one `composeMotion` per instance ({@link place}).
 * M(t) comes from the pose being drawn: live, the exact reading of the evaluated pose (`InPlaceClipSample`);
 * baked, the readings at the two baked frames, interpolated as the frames are ({@link placeBaked}).
 */
export class InstanceMotion {
  /** The model's motion root (`findMotionRoot`), or null when no clip translates a joint (no root motion). */
  readonly root: MotionRoot | null;
  /** Per clip, its in-place source (empty without a {@link root}). */
  readonly inPlace: readonly InPlaceClipSample[];
  /** `Float64Array(6·clips)`: per clip its motion record (`clipMotionRecord`: [x0, z0, yaw0], then M(D)). */
  readonly records: Float64Array;
  /** `Float64Array(3·capacity)`: per instance the prefix M(t₀)⁻¹ ∘ M(D)ⁿ. */
  readonly prefixes: Float64Array;
  /** `Float64Array(3·capacity)`: per instance the placement [x, z, yaw] the last `Crowd.prepare` drew it at. */
  readonly placements: Float64Array;
  private readonly model: AnimatedModel;
  private readonly pose: LocalPose;
  private readonly context = new SamplingContext();
  private readonly reading = new Float64Array(3);
  private readonly current = new Float64Array(3);
  private readonly whole = new Float64Array(3);
  private readonly scratch = new Float64Array(4);

  /** Finds the motion root and each clip's motion record (allocates: load time only). */
  constructor(model: AnimatedModel, capacity: number) {
    const asset = model.asset, clips = model.clips;
    this.model = model;
    this.root = findMotionRoot(asset.skeleton, asset.restPose, clips);
    this.pose = createLocalPose(asset.skeleton.jointCount, asset.restPose.morphWeights?.length ?? 0);
    this.records = new Float64Array(6 * clips.length);
    const root = this.root;
    this.inPlace = root
      ? clips.map((clip, c) => {
        const record = clipMotionRecord(this.records.subarray(6 * c, 6 * c + 6), clip, root, asset.restPose, this.pose, this.context, this.reading, this.scratch);
        return new InPlaceClipSample(model.clipSample(c), root, record);
      })
      : [];
    this.prefixes = new Float64Array(3 * capacity);
    this.placements = new Float64Array(3 * capacity);
  }

  /** Whether clip `clip` (−1: rest pose) has root motion to take out. */
  moves(clip: number): boolean {
    return this.root !== null && clip >= 0;
  }

  /** Writes M(time) of clip `clip` into `out` (`Float64Array(3)`), sampling the clip into a scratch pose (O(J)). */
  motionAt(out: Float64Array, clip: number, time: number): Float64Array {
    if (!this.moves(clip)) {
      out.fill(0);
      return out;
    }
    const source = this.inPlace[clip];
    const saved = source.sample.time;
    source.at(time).evaluate(this.pose, this.model.asset.restPose);
    source.sample.at(saved);
    out.set(source.motion);
    return out;
  }

  /** Instance k (re)starts its accounting at `time` of clip `clip`: prefix M(time)⁻¹, placement zero. */
  start(k: number, clip: number, time: number): void {
    const m = this.motionAt(this.current, clip, time), p = this.prefixes, o = 3 * k;
    invertMotion(m, m);
    p[o] = m[0]; p[o + 1] = m[1]; p[o + 2] = m[2];
    this.placements.fill(0, o, o + 3);
  }

  /**
   * Instance k switches from clip `from` at `fromTime` to clip `to` at `toTime` (a crossfade's end) and keeps
   * the travel it has: with P = prefix ∘ M_from(fromTime) its placement now, the prefix becomes
   * P ∘ M_to(toTime)⁻¹, so that its placement at `toTime` of `to` is still P. Samples both clips (O(J)).
   * Allocates nothing.
   */
  switchClip(k: number, from: number, fromTime: number, to: number, toTime: number): void {
    const p = this.prefixes, o = 3 * k, placed = this.whole, m = this.current;
    this.placementAt(placed, k, from, fromTime);
    this.motionAt(m, to, toTime);
    invertMotion(m, m);
    composeMotion(m, placed, m);
    p[o] = m[0]; p[o + 1] = m[1]; p[o + 2] = m[2];
    this.placements[o] = placed[0]; this.placements[o + 1] = placed[1]; this.placements[o + 2] = placed[2];
  }

  /** Instance k playing clip `clip` wrapped `n` times (n < 0: backwards): prefix ← prefix ∘ M(D)ⁿ. O(|n|). */
  wrapped(k: number, clip: number, n: number): void {
    if (!n || !this.moves(clip)) return; // also NaN: a clip of duration 0 never wraps
    const r = this.records, w = this.whole, o = 6 * clip, p = this.prefixes, q = 3 * k, m = this.current;
    w[0] = r[o + 3]; w[1] = r[o + 4]; w[2] = r[o + 5];
    m[0] = p[q]; m[1] = p[q + 1]; m[2] = p[q + 2];
    composeRepeated(m, w, n, w);
    p[q] = m[0]; p[q + 1] = m[1]; p[q + 2] = m[2];
  }

  /**
   * Placement of instance k whose pose at its time has motion `motion` (M(t), `Float64Array(3)`):
   * `placements[k]` ← prefix ∘ M(t). Allocates nothing.
   */
  place(k: number, motion: Float64Array): void {
    const o = 3 * k, p = this.prefixes, out = this.placements, m = this.current;
    m[0] = p[o]; m[1] = p[o + 1]; m[2] = p[o + 2];
    composeMotion(m, m, motion);
    out[o] = m[0]; out[o + 1] = m[1]; out[o + 2] = m[2];
  }

  /**
   * {@link place} with M(t) blended from the baked frames' motions: `track` (`BakedClips.motion`, 3 per frame)
   * at frames f0 and f1, linearly by `a` (the yaw along the shorter arc), as the baked poses are blended.
   */
  placeBaked(k: number, track: Float64Array, f0: number, f1: number, a: number): void {
    const m = this.reading, i = 3 * f0, j = 3 * f1;
    let dpsi = track[j + 2] - track[i + 2];
    dpsi -= 2 * Math.PI * Math.round(dpsi / (2 * Math.PI));
    m[0] = track[i] + a * (track[j] - track[i]);
    m[1] = track[i + 1] + a * (track[j + 1] - track[i + 1]);
    m[2] = track[i + 2] + a * dpsi;
    this.place(k, m);
  }

  /**
   * Instance k's exact accumulated placement [x, z, yaw] at time `time` of clip `clip` into `out`
   * (`Float64Array(3)`): prefix ∘ M(time), M sampled now (O(J)). Allocates nothing.
   */
  placementAt(out: Float64Array, k: number, clip: number, time: number): Float64Array {
    const p = this.prefixes, o = 3 * k;
    this.motionAt(this.current, clip, time);
    out[0] = p[o]; out[1] = p[o + 1]; out[2] = p[o + 2];
    composeMotion(out, out, this.current);
    return out;
  }
}

/**
 * `W` (column-major, in place) ← W·T(x, 0, z)·R_y(ψ) for the placement [x, z, ψ] at `p[o]`; R_y as
 * `Animator.placementMatrix`: columns (cos ψ, 0, −sin ψ), (0, 1, 0), (sin ψ, 0, cos ψ).
 */
export function placeWorld(W: Float64Array, p: Float64Array, o: number): void {
  const x = p[o], z = p[o + 1], c = Math.cos(p[o + 2]), s = Math.sin(p[o + 2]);
  for (let r = 0; r < 4; r++) {
    const a = W[r], b = W[8 + r];
    W[12 + r] += x * a + z * b;
    W[r] = c * a - s * b;
    W[8 + r] = s * a + c * b;
  }
}
