import type { LocalPose } from '../skeleton/local-pose.ts';
import { findKeyframe } from './keyframe-search.ts';
import { CUBIC_KIND, MORPH_KIND, type RuntimeClip } from './runtime-clip.ts';
import type { SamplingContext } from './sampling-context.ts';
import { bezierInterval } from './samplers/bezier.ts';
import { catmullRomInterval } from './samplers/catmull-rom.ts';
import { hermiteInterval } from './samplers/cubic-hermite.ts';
import { normalizeQuatAt, slerpQuaternions } from './samplers/linear.ts';

/**
 * Samples every channel of `clip` at `timeSeconds` into `out`, overwriting only the animated properties of
 * the animated joints: the caller first copies the rest pose (`copyLocalPose(out, asset.restPose)`) so that
 * joints the clip does not animate stay at rest. Works at any time, not only at keys (docs/explanation/skinning-formulas.md
 * S4): before a channel's first key its first value holds, after its last key the last value (glTF 2.0
 * §3.11), and in between each channel interpolates by its kind (k the interval with t_k ≤ t < t_{k+1},
 * Δ = t_{k+1} − t_k, s = (t − t_k)/Δ):
 *
 * - STEP: the value of key k.
 * - LINEAR: `(1−s)·v_k + s·v_{k+1}`, computed as `v_k + s·(v_{k+1} − v_k)`; rotations by shortest-arc slerp
 *   (glTF 2.0 Appendix C; `samplers/linear.ts`).
 * - CUBICSPLINE: cubic Hermite
 *   `p(s) = (2s³−3s²+1)·v_k + (s³−2s²+s)·Δ·b_k + (−2s³+3s²)·v_{k+1} + (s³−s²)·Δ·a_{k+1}`, b_k key k's
 *   out-tangent and a_{k+1} key k+1's in-tangent (glTF 2.0 Appendix C; `samplers/cubic-hermite.ts`).
 * - HERMITE: the same cubic with b_k = m_k and a_{k+1} = m_{k+1}, each key's explicit tangent.
 * - BEZIER: solve the time curve for its parameter, evaluate the value curve (`samplers/bezier.ts`).
 * - CATMULLROM: Hermite with tangents from the neighbouring keys, one-sided at the ends
 *   (`samplers/catmull-rom.ts`).
 *
 * Morph `weights` channels (n components, any kind) are interpolated the same way component-wise, into
 * `out.morphWeights` at the channel's `morphWeightOffset` (glTF 2.0 §3.11, Appendix C); weights are not clamped.
 *
 * Rotations of every cubic kind are normalised after. Per timeline the interval is found once from the
 * context's cursor (`findKeyframe`), then each group of `clip` runs its kernel. Allocates nothing, except
 * when `context` grows for a clip with more timelines than it has seen.
 *
 * @param out pose of at least `clip.requiredJointCount` joints and `clip.requiredMorphWeightCount` morph weights
 * @param context the caller's cursors and scratch; sampling another clip than last time rewinds them
 * @returns `out`
 * @throws RangeError when `out` has fewer joints or morph weights than the clip animates
 */
export function sampleClip(out: LocalPose, clip: RuntimeClip, timeSeconds: number, context: SamplingContext): LocalPose {
  context.clock[0] = timeSeconds;
  return sampleClipAt(out, clip, context.clock, context);
}

/**
 * {@link sampleClip} at the time `clock[0]` (seconds, a `Float64Array`): the form players use, so that no
 * floating-point value crosses a call boundary, which V8 would box on the heap (samplers/linear.ts).
 * @throws RangeError as {@link sampleClip}
 */
export function sampleClipAt(out: LocalPose, clip: RuntimeClip, clock: Float64Array, context: SamplingContext): LocalPose {
  if (context.clip !== clip) context.bind(clip);
  const n = clip.requiredJointCount;
  if (out.translations.length < 3 * n || out.rotations.length < 4 * n || out.scales.length < 3 * n) {
    throw new RangeError(`sampleClip: clip "${clip.name}" animates ${n} joints; the pose has ${out.rotations.length >> 2}`);
  }
  const morphNeeded = clip.requiredMorphWeightCount;
  if (morphNeeded > 0 && !(out.morphWeights && out.morphWeights.length >= morphNeeded)) {
    throw new RangeError(`sampleClip: clip "${clip.name}" animates ${morphNeeded} morph weights; the pose has ${out.morphWeights?.length ?? 0}`);
  }
  // A sampling back end (SamplingContext.kernel) takes every channel in the clip's streams; the timelines are
  // then searched only for the BEZIER channels it leaves (handles off thirds in time; RuntimeClip.portableTimelines).
  const byKernel = context.kernel !== null && context.kernel.sampleStreams(out, clip, clock);
  const portableTimelines = clip.portableTimelines;
  if (byKernel && portableTimelines.length === 0) return out;
  const t = clock[0];
  const timelines = clip.timelines;
  const intervals = context.cursors, holds = context.holds, ss = context.factors;
  const searched = byKernel ? portableTimelines.length : timelines.length;
  for (let i = 0; i < searched; i++) {
    const u = byKernel ? portableTimelines[i] : i;
    const times = timelines[u];
    const lastKey = times.length - 1, last = lastKey - 1;
    if (last < 0 || !(t > times[0])) {
      // Single key, before the first key (or t is NaN): the first key's value holds.
      intervals[u] = 0;
      holds[u] = 0;
      continue;
    }
    if (t >= times[lastKey]) {
      intervals[u] = last;
      holds[u] = lastKey;
      continue;
    }
    const k = findKeyframe(times, clock, intervals[u]);
    intervals[u] = k;
    holds[u] = -1;
    const t0 = times[k];
    ss[u] = (t - t0) / (times[k + 1] - t0);
  }

  if (!byKernel) sampleLinearAndStep(out, clip, context);
  const translations = out.translations, rotations = out.rotations, scales = out.scales;

  // The cubic kinds: each channel's kernel (samplers/), rotations normalised after; or the held key's value.
  const cubicTimeline = clip.cubicTimeline, cubicOffset = clip.cubicOffset, cubicPath = clip.cubicPath;
  const cubicKind = clip.cubicKind, cubicTimes = clip.cubicTimes, cubicValues = clip.cubicValues;
  const cubicStride = clip.cubicStride, cubicValueOffset = clip.cubicValueOffset;
  const cubicLeave = clip.cubicLeave, cubicArrive = clip.cubicArrive;
  const portableCubic = clip.portableCubic;
  const cubicCount = byKernel ? portableCubic.length : cubicTimeline.length;
  for (let j = 0; j < cubicCount; j++) {
    const i = byKernel ? portableCubic[j] : j;
    const path = cubicPath[i], u = cubicTimeline[i], o = cubicOffset[i], v = cubicValues[i];
    const target = path === 0 ? translations : path === 1 ? rotations : scales;
    const c = path === 1 ? 4 : 3;
    const hold = holds[u];
    if (hold >= 0) {
      const a = hold * cubicStride[i] + cubicValueOffset[i];
      for (let j = 0; j < c; j++) target[o + j] = v[a + j];
      continue;
    }
    const key = intervals[u], times = cubicTimes[i], kind = cubicKind[i];
    if (kind === CUBIC_KIND.BEZIER) {
      bezierInterval(times, v, key, clock, c, target, o);
    } else if (kind === CUBIC_KIND.CATMULLROM) {
      catmullRomInterval(times, v, key, clock, c, c === 4, target, o);
    } else {
      const stride = cubicStride[i], a = key * stride + cubicValueOffset[i], b = a + stride;
      hermiteInterval(times, v, key, clock, a, a + cubicLeave[i], b, b + cubicArrive[i], c, target, o);
    }
    if (c === 4) normalizeQuatAt(target, o);
  }
  if (clip.morphTimeline.length > 0) sampleMorphWeights(out.morphWeights!, clip, clock, context, byKernel ? clip.portableMorph : null);
  return out;
}

/** The LINEAR and STEP groups of {@link sampleClipAt}, portable (intervals already found). */
function sampleLinearAndStep(out: LocalPose, clip: RuntimeClip, context: SamplingContext): void {
  const intervals = context.cursors, holds = context.holds, ss = context.factors;
  // LINEAR rotations: shortest-arc slerp by samplers/linear.ts's kernel (s from the shared timeline). Indices
  // are written `(a + k) | 0`: int32 adds without overflow checks, fewer instructions per element in V8.
  const rotations = out.rotations;
  const slerpTimeline = clip.slerpTimeline, slerpValues = clip.slerpValues, slerpOffset = clip.slerpOffset;
  for (let i = 0; i < slerpTimeline.length; i++) {
    const u = slerpTimeline[i], q = slerpValues[i], o = slerpOffset[i];
    const hold = holds[u];
    if (hold >= 0) {
      const h = hold << 2;
      rotations[o] = q[h]; rotations[(o + 1) | 0] = q[(h + 1) | 0]; rotations[(o + 2) | 0] = q[(h + 2) | 0]; rotations[(o + 3) | 0] = q[(h + 3) | 0];
      continue;
    }
    const a = intervals[u] << 2;
    slerpQuaternions(q, a, (a + 4) | 0, ss, u, rotations, o);
  }

  // LINEAR translations and scales: `(1−s)·v_k + s·v_{k+1}` as `v_k + s·(v_{k+1} − v_k)` (lerpInterval).
  const translations = out.translations, scales = out.scales;
  const lerpTimeline = clip.lerpTimeline, lerpValues = clip.lerpValues, lerpOffset = clip.lerpOffset;
  const lerpIsScale = clip.lerpIsScale;
  for (let i = 0; i < lerpTimeline.length; i++) {
    const u = lerpTimeline[i], v = lerpValues[i], o = lerpOffset[i];
    const target = lerpIsScale[i] === 1 ? scales : translations;
    const hold = holds[u];
    if (hold >= 0) {
      const h = (3 * hold) | 0;
      target[o] = v[h]; target[(o + 1) | 0] = v[(h + 1) | 0]; target[(o + 2) | 0] = v[(h + 2) | 0];
      continue;
    }
    const s = ss[u];
    const a = (3 * intervals[u]) | 0, b = (a + 3) | 0;
    target[o] = v[a] + s * (v[b] - v[a]);
    target[(o + 1) | 0] = v[(a + 1) | 0] + s * (v[(b + 1) | 0] - v[(a + 1) | 0]);
    target[(o + 2) | 0] = v[(a + 2) | 0] + s * (v[(b + 2) | 0] - v[(a + 2) | 0]);
  }

  // STEP: the value of key k (or the held end key).
  const stepTimeline = clip.stepTimeline, stepValues = clip.stepValues, stepOffset = clip.stepOffset;
  const stepPath = clip.stepPath;
  for (let i = 0; i < stepTimeline.length; i++) {
    const u = stepTimeline[i], v = stepValues[i], o = stepOffset[i], path = stepPath[i];
    const target = path === 0 ? translations : path === 1 ? rotations : scales;
    const c = path === 1 ? 4 : 3;
    const hold = holds[u];
    const a = c * (hold >= 0 ? hold : intervals[u]);
    for (let j = 0; j < c; j++) target[o + j] = v[a + j];
  }
}

/**
 * The `weights` channels of {@link sampleClipAt}, after the joint channels (intervals already found): all, or
 * only those `only` lists (indices into the group: the ones a sampling kernel left).
 */
function sampleMorphWeights(target: Float32Array, clip: RuntimeClip, clock: Float64Array, context: SamplingContext, only: Int32Array | null): void {
  const intervals = context.cursors, holds = context.holds, ss = context.factors;
  const morphTimeline = clip.morphTimeline, morphOffset = clip.morphOffset, morphCount = clip.morphCount;
  const morphKind = clip.morphKind, morphTimes = clip.morphTimes, morphValues = clip.morphValues;
  const morphStride = clip.morphStride, morphValueOffset = clip.morphValueOffset;
  const count = only === null ? morphTimeline.length : only.length;
  for (let m = 0; m < count; m++) {
    const i = only === null ? m : only[m];
    const u = morphTimeline[i], o = morphOffset[i], c = morphCount[i], v = morphValues[i], kind = morphKind[i];
    const stride = morphStride[i];
    const hold = holds[u];
    if (hold >= 0 || kind === MORPH_KIND.STEP) {
      const a = (hold >= 0 ? hold : intervals[u]) * stride + morphValueOffset[i];
      for (let j = 0; j < c; j++) target[o + j] = v[a + j];
      continue;
    }
    const key = intervals[u];
    if (kind === MORPH_KIND.LINEAR) {
      const s = ss[u], a = key * c, b = a + c;
      for (let j = 0; j < c; j++) target[o + j] = v[a + j] + s * (v[b + j] - v[a + j]);
    } else if (kind === MORPH_KIND.BEZIER) {
      bezierInterval(morphTimes[i], v, key, clock, c, target, o);
    } else if (kind === MORPH_KIND.CATMULLROM) {
      catmullRomInterval(morphTimes[i], v, key, clock, c, false, target, o);
    } else {
      const a = key * stride + morphValueOffset[i], b = a + stride;
      hermiteInterval(morphTimes[i], v, key, clock, a, a + clip.morphLeave[i], b, b + clip.morphArrive[i], c, target, o);
    }
  }
}
