import type { LocalPose } from '../skeleton/local-pose.ts';
import { copyLocalPose, createLocalPose } from '../skeleton/local-pose.ts';
import {
  clipMotionRecord, composeMotion, composeRepeated, invertMotion, readRootMotion, takeRootMotion, toMotion, type MotionRoot, type RootMotionMode,
} from './root-motion.ts';
import type { ClipSlot } from './clip-slot.ts';
import type { RuntimeClip } from './runtime-clip.ts';
import { sampleClip } from './sample-clip.ts';
import { SamplingContext } from './sampling-context.ts';

/**
 * An `Animator`'s root motion (docs/guide/root-motion.md): takes the hips' travel out of the base layer's
 * clips as each is sampled and, in `applied` mode, accumulates the clips' fade-weighted deltas into
 * {@link placement}. The formulas are src/animation/root-motion.ts's; this holds the per-clip records (the root
 * at time 0 and the clip's whole motion), the placement and the scratch, so the evaluate loop allocates nothing.
 */
export class AnimatorRootMotion {
  /** The animator's `placement` ([x, z, yaw]; `Animator.placement`). */
  readonly placement = new Float64Array(3);
  /** Per clip: [x0, z0, yaw0] of the root at time 0, then the clip's whole motion M(D) ([c_x, c_z, ψ]). */
  private readonly clipMotion = new Map<RuntimeClip, Float64Array>();
  private motionPose: LocalPose | null = null;
  private motionContext: SamplingContext | null = null;
  /** Scratch: a root reading, the current transform, a delta, the blend's weighted sum (+ weight), a quaternion. */
  private readonly reading = new Float64Array(3);
  private readonly current = new Float64Array(3);
  private readonly delta = new Float64Array(3);
  private readonly whole = new Float64Array(3);
  private readonly motionSum = new Float64Array(4);
  private readonly quaternion = new Float64Array(4);

  /**
   * @param root the joint whose travel is taken out (`AnimatorOptions.motionRoot`); null: root motion is off
   * @param jointCount joints of the poses sampled
   * @param morphWeightCount morph weights of the poses sampled
   */
  constructor(readonly root: MotionRoot | null, private readonly jointCount: number, private readonly morphWeightCount: number) {}

  /** Starts a base-layer evaluate: clears the blend's weighted sum of deltas. */
  begin(): void {
    this.motionSum.fill(0);
  }

  /**
   * Root motion of one base-layer clip sampled into `pose`: reads its motion transform M(t) (the root's travel
   * since time 0 as a planar rigid transform about its start), in `applied` mode adds the delta since the
   * last evaluate, M_prev⁻¹ ∘ M(D)^(wraps) ∘ M(t), weighted by the fade weight, to the blend's sum; then
   * takes the travel out of the pose.
   */
  take(slot: ClipSlot, pose: LocalPose, restPose: LocalPose, mode: RootMotionMode): void {
    const player = slot.player!, root = this.root!, base = this.motionOf(player.clip, restPose);
    const cur = this.current;
    takeRootMotion(cur, pose, root, base, this.reading, this.quaternion);
    if (mode === 'applied') {
      if (!slot.motionPrimed) {
        // The clip at the time it started (the playhead has moved on since `play`).
        const start = this.motionPose!;
        copyLocalPose(start, restPose);
        readRootMotion(slot.motionPrev, root, sampleClip(start, player.clip, slot.motionStartTime, this.motionContext!), this.quaternion);
        toMotion(slot.motionPrev, slot.motionPrev, base);
        slot.motionCycles = 0;
        slot.motionPrimed = true;
      }
      {
        const delta = this.delta, whole = this.whole;
        invertMotion(delta, slot.motionPrev);
        whole[0] = base[3]; whole[1] = base[4]; whole[2] = base[5];
        composeRepeated(delta, whole, player.cycles - slot.motionCycles, whole);
        composeMotion(delta, delta, cur);
        const w = slot.weight, sum = this.motionSum;
        sum[0] += w * delta[0]; sum[1] += w * delta[1]; sum[2] += w * delta[2]; sum[3] += w;
      }
      slot.motionPrev.set(cur);
      slot.motionCycles = player.cycles;
    }
  }

  /** Moves {@link placement} by the fade-weighted mean of the base layer's clips' deltas. */
  apply(mode: RootMotionMode): void {
    const sum = this.motionSum;
    if (mode !== 'applied' || !(sum[3] > 0)) return;
    const delta = this.delta;
    delta[0] = sum[0] / sum[3]; delta[1] = sum[1] / sum[3]; delta[2] = sum[2] / sum[3];
    composeMotion(this.placement, this.placement, delta);
  }

  /**
   * The clip's root at time 0 and its whole motion M(D), computed on its first evaluate (allocates once per
   * clip: a pose and cursors for this, the record).
   */
  private motionOf(clip: RuntimeClip, restPose: LocalPose): Float64Array {
    let m = this.clipMotion.get(clip);
    if (m) return m;
    m = new Float64Array(6);
    const pose = (this.motionPose ??= createLocalPose(this.jointCount, this.morphWeightCount));
    const context = (this.motionContext ??= new SamplingContext());
    clipMotionRecord(m, clip, this.root!, restPose, pose, context, this.reading, this.quaternion);
    this.clipMotion.set(clip, m);
    return m;
  }

  /**
   * Writes {@link placement} as a 4×4 column-major matrix `T(x, 0, z)·R_y(yaw)` into `out[offset … offset+15]`.
   * @returns `out`
   */
  placementMatrix(out: Float32Array, offset: number): Float32Array {
    const c = Math.cos(this.placement[2]), s = Math.sin(this.placement[2]);
    out.fill(0, offset, offset + 16);
    out[offset] = c; out[offset + 2] = -s; out[offset + 5] = 1; out[offset + 8] = s; out[offset + 10] = c;
    out[offset + 12] = this.placement[0]; out[offset + 14] = this.placement[1]; out[offset + 15] = 1;
    return out;
  }
}
