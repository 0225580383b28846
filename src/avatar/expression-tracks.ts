import type { ExpressionTrack } from '../asset/animation-clip.ts';
import { findKeyframe } from '../animation/keyframe-search.ts';
import { hermiteInterval } from '../animation/samplers/cubic-hermite.ts';
import type { ExpressionState } from './expression-state.ts';

/**
 * A clip's expression tracks (VRM Animation `expressions`, `AnimationClip.expressionTracks`) bound to one avatar's
 * {@link ExpressionState}: each track's expression found once, by name (tracks naming an expression the avatar
 * lacks are skipped, as three-vrm's VRMA loader skips them), with its own keyframe cursor, so sampling at
 * advancing times is O(1) per track. {@link sample} writes the tracks' weights as the expressions' input weights
 * (clamped to [0, 1]; NaN as 0), as three-vrm's mixer writes an expression's weight; expressions without a track
 * keep theirs.
 * Allocates nothing after construction.
 *
 * Interpolation as glTF 2.0 Appendix C for a scalar: STEP holds the key at or before t, LINEAR lerps, CUBICSPLINE
 * is the cubic Hermite of `animation/samplers/cubic-hermite.ts`; before the first key the first value, after
 * the last the last.
 */
export class ExpressionTrackSampler {
  readonly tracks: readonly ExpressionTrack[];
  /** `Int32Array(tracks.length)`: each track's expression index in the state, or −1 (skipped). */
  readonly expressionIndices: Int32Array;
  private readonly cursors: Int32Array;
  private readonly clock = new Float64Array(1);
  private readonly value = new Float32Array(1);

  constructor(tracks: readonly ExpressionTrack[], state: ExpressionState) {
    this.tracks = tracks;
    this.expressionIndices = Int32Array.from(tracks, (track) => state.indexOf(track.expression));
    this.cursors = new Int32Array(tracks.length);
  }

  /** Whether any track drives one of the avatar's expressions. */
  get drivesAny(): boolean {
    return this.expressionIndices.some((i) => i >= 0);
  }

  /**
   * Writes every bound track's weight at the time `clock[0]` (seconds; an array, so that the call allocates
   * nothing) into `state` (the state the sampler was made for), clamped to [0, 1].
   */
  sample(state: ExpressionState, clock: Float64Array): void {
    const tracks = this.tracks, indices = this.expressionIndices, weights = state.weights, value = this.value;
    this.clock[0] = clock[0];
    for (let i = 0; i < tracks.length; i++) {
      const expression = indices[i];
      if (expression < 0) continue;
      this.sampleTrack(i, tracks[i]);
      const w = value[0];
      weights[expression] = w > 0 ? (w < 1 ? w : 1) : 0;
    }
  }

  /** Track i's value at `clock[0]` into `value[0]`. */
  private sampleTrack(i: number, track: ExpressionTrack): void {
    const { times, values, interpolation } = track;
    const t = this.clock[0], out = this.value;
    const cubic = interpolation === 'CUBICSPLINE';
    const stride = cubic ? 3 : 1, at = cubic ? 1 : 0;
    const last = times.length - 1;
    if (!(t > times[0]) || last === 0) {
      out[0] = values[at];
    } else if (t >= times[last]) {
      out[0] = values[stride * last + at];
    } else {
      const k = findKeyframe(times, this.clock, this.cursors[i]);
      this.cursors[i] = k;
      if (interpolation === 'STEP') out[0] = values[k];
      else if (interpolation === 'LINEAR') out[0] = values[k] + (values[k + 1] - values[k]) * ((t - times[k]) / (times[k + 1] - times[k]));
      // CUBICSPLINE: key j holds in-tangent 3j, value 3j + 1, out-tangent 3j + 2.
      else hermiteInterval(times, values, k, this.clock, 3 * k + 1, 3 * k + 2, 3 * k + 4, 3 * k + 3, 1, out, 0);
    }
  }
}
