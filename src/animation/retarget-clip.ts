import type { AnimationChannel, AnimationClip } from '../asset/animation-clip.ts';
import { keyStride, keyValueOffset } from '../asset/animation-clip.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { HumanoidMap } from '../asset/avatar-asset.ts';
import { cloneLocalPose, type LocalPose } from '../skeleton/local-pose.ts';
import { compileClip } from './runtime-clip.ts';
import { sampleClip } from './sample-clip.ts';
import { SamplingContext } from './sampling-context.ts';
import { matchJoints, type HumanoidPair, type JointMatch } from './match-joints.ts';
import { computeModelFrames, createModelFrames } from './retarget-frames.ts';
import { quatConjugateMultiplyAt, quatConjugateRotateAt, quatMultiplyAt, quatRotateAt } from '../math/quaternion.ts';

export { matchJoints, bareJointName, type JointMatch, type HumanoidPair } from './match-joints.ts';

/**
 * One side of a retargeting: a skeleton and its rest pose (local TRS, the file's units). `upAxis` (default
 * `'y'`): the model-space up axis, the axis hips heights are measured along; when the two sides differ
 * (an MD5 `'z'` source onto a glTF `'y'` target) the source's model space is turned onto the target's by
 * ±90° about X, the turn the viewer gives Z-up models (src/view/loaded-model.ts). `humanoid`: its humanoid
 * bones (a VRM's `ModelAsset.avatar.humanoid`, or `matchHumanoid(skeleton).humanoid` for another rig); when
 * both sides have one, joints match by humanoid bone before name ({@link matchJoints}).
 */
export interface RetargetSide {
  readonly skeleton: Skeleton;
  readonly restPose: LocalPose;
  readonly upAxis?: 'y' | 'z';
  readonly humanoid?: HumanoidMap;
}

/** The two sides' humanoid maps when both have one ({@link RetargetSide.humanoid}), for {@link matchJoints}. */
export function humanoidPairOf(source: { readonly humanoid?: HumanoidMap }, target: { readonly humanoid?: HumanoidMap }): HumanoidPair | undefined {
  return source.humanoid && target.humanoid ? { source: source.humanoid, target: target.humanoid } : undefined;
}

/**
 * Options of {@link retargetClip}.
 * - `map`: target joint name → source joint name, overriding name matching ({@link matchJoints}).
 * - `translation`: what translation channels of joints other than the hips become: `'rest'` (default) the
 *   target's rest translations (its bone lengths: no channel), `'scaled'` a channel of the target's rest
 *   translation plus the source's change from its rest translation (turned into the target parent's frame)
 *   times the hips height ratio, for every matched joint whose source joint has a translation channel.
 */
export interface RetargetOptions {
  readonly map?: Readonly<Record<string, string>>;
  readonly translation?: 'rest' | 'scaled';
}

/**
 * Thrown by {@link retargetClip} for a retargeting that has no answer: no target joint matches
 * (`kind: 'no-match'`), or the hips' rest height is 0 on either side or the two differ in sign
 * (`kind: 'degenerate-rest-pose'`, the ratio would be 0, infinite or negative).
 */
export class RetargetError extends Error {
  constructor(readonly kind: 'no-match' | 'degenerate-rest-pose', message: string) {
    super(message);
    this.name = 'RetargetError';
  }
}

/** Rate the keys are resampled at where a source channel is not LINEAR (STEP or a cubic kind), keys per second. */
export const RETARGET_RESAMPLE_RATE = 60;

/**
 * Plays `clip`, made for `source`, on `target` (docs/explanation/skinning-formulas.md R1; the rule of three.js
 * `SkeletonUtils.retarget` and Babylon.js animation retargeting): per matched joint (by {@link matchJoints}:
 * `options.map`, then humanoid bone when both sides carry `humanoid`, then name) in
 * model space `Q_target(t) = Q_source(t) · Q_source,rest⁻¹ · Q_target,rest`, turned into a local rotation
 * through the target parent's current model rotation. Unmatched target joints keep their rest pose.
 *
 * Translation: the hips — the topmost matched target joint whose source joint has a translation channel whose
 * values change — move by the source hips' model-space displacement from its rest position times
 * `h_target / h_source`, each `h` the hips' rest position's component along the up axis (`RetargetSide.upAxis`,
 * default Y) in model space; other animated translations follow `options.translation`. Source `scale` and
 * `weights` channels are ignored (one warning).
 *
 * Keys: one LINEAR key per time of the union of the key times of every channel of the matched source joints
 * and their source ancestors (plus the clip's duration), and, where such a channel is not LINEAR, every
 * 1 / {@link RETARGET_RESAMPLE_RATE} s between. Between LINEAR source keys a target joint whose parent is the
 * source parent's match rotates by a fixed left and right factor of the source's slerp, so it follows the
 * source exactly; elsewhere within the sampling error of the densest key spacing. A matched joint whose every
 * key is its rest rotation gets no channel (the sampler holds the rest pose). The result is an ordinary clip
 * for the target (compileClip it once), named as the source clip; the clip's `expressionTracks` and
 * `lookAtTrack` (VRM Animation) and its `markers` are carried over unchanged.
 *
 * Allocates (load time, not per frame).
 * @param warnings receives one line per finding (scale or weights channels ignored); none on a full match
 * @throws RetargetError `no-match`, or `degenerate-rest-pose`
 * @throws Error from compileClip when `clip` does not fit `source.skeleton` (a channel's joint out of range, …)
 */
export function retargetClip(clip: AnimationClip, source: RetargetSide, target: RetargetSide, options: RetargetOptions = {}, warnings?: string[]): AnimationClip {
  const match = matchJoints(source.skeleton, target.skeleton, options.map, humanoidPairOf(source, target));
  return retargetMatchedClip(clip, { source, target, match }, options, warnings);
}

/** A source and a target with their joints matched (`matchJoints`): what {@link retargetMatchedClip} maps between. */
export interface MatchedSides {
  readonly source: RetargetSide;
  readonly target: RetargetSide;
  readonly match: JointMatch;
}

/**
 * {@link retargetClip} with the joint match made already (a library retargets many clips with one match).
 * @throws as retargetClip
 */
export function retargetMatchedClip(clip: AnimationClip, sides: MatchedSides, options: RetargetOptions = {}, warnings?: string[]): AnimationClip {
  const { source, target, match } = sides;
  if (match.matched.length === 0) throw new RetargetError('no-match', 'no target joint matches a source joint by name or humanoid bone');
  const ns = source.skeleton.jointCount, nt = target.skeleton.jointCount;
  const sourceOf = match.sourceOf;
  const sParents = source.skeleton.parents, tParents = target.skeleton.parents;

  const used = clip.channels.filter((c) => c.path === 'rotation' || c.path === 'translation');
  const dropped = clip.channels.length - used.length;
  if (dropped > 0 && warnings) warnings.push(`clip "${clip.name}": ${dropped} scale or weights channels ignored by retargeting`);
  const runtime = compileClip({ name: clip.name, duration: clip.duration, channels: used }, ns);

  // Source joints whose motion reaches a matched joint: the matched ones and their source ancestors.
  const involved = new Uint8Array(ns);
  for (let j = 0; j < nt; j++) for (let s = sourceOf[j]; s >= 0 && !involved[s]; s = sParents[s]) involved[s] = 1;
  // 1: a translation channel; 2: one whose values change (a hips candidate).
  const translationAnimated = new Uint8Array(ns);
  for (const c of used) if (c.path === 'translation') translationAnimated[c.joint] = Math.max(translationAnimated[c.joint], changes(c) ? 2 : 1);

  const up = target.upAxis === 'z' ? 2 : 1;
  const root = upTurn(source.upAxis ?? 'y', target.upAxis ?? 'y');
  const identity = [0, 0, 0, 1];
  const sRest = computeModelFrames(createModelFrames(ns), source.skeleton, source.restPose, root);
  const tRest = computeModelFrames(createModelFrames(nt), target.skeleton, target.restPose, identity);

  const hips = findHips(target.skeleton, sourceOf, translationAnimated);
  let ratio = 1;
  if (hips >= 0) {
    const hs = sRest.p[3 * sourceOf[hips] + up], ht = tRest.p[3 * hips + up];
    ratio = ht / hs;
    if (!(Number.isFinite(ratio) && ratio > 0 && Math.abs(hs) > 1e-6 * extent(sRest.p) && Math.abs(ht) > 1e-6 * extent(tRest.p))) {
      throw new RetargetError('degenerate-rest-pose', `hips rest heights (${'xyz'[up]}) ${ht} (target joint "${target.skeleton.names[hips]}") and ${hs} (source joint "${source.skeleton.names[sourceOf[hips]]}") give no scale: each must be non-zero and of one sign`);
    }
  }
  const scaled = options.translation === 'scaled';

  const times = keyTimes(used, involved, clip.duration);
  const k = times.length;
  const rotationKeys = new Map<number, Float32Array>();
  const translationKeys = new Map<number, Float32Array>();
  for (let j = 0; j < nt; j++) {
    const s = sourceOf[j];
    if (s < 0) continue;
    rotationKeys.set(j, new Float32Array(4 * k));
    if (j === hips || (scaled && translationAnimated[s])) translationKeys.set(j, new Float32Array(3 * k));
  }

  const pose = cloneLocalPose(source.restPose);
  const context = new SamplingContext();
  const sNow = createModelFrames(ns), tNow = createModelFrames(nt);
  const tr = target.restPose.translations, rr = target.restPose.rotations, ts = target.restPose.scales;
  const local = new Float64Array(4), d = new Float64Array(3), w = new Float64Array(3);
  for (let key = 0; key < k; key++) {
    sampleClip(pose, runtime, times[key], context);
    computeModelFrames(sNow, source.skeleton, pose, root);
    for (let j = 0; j < nt; j++) {
      const p = tParents[j], s = sourceOf[j];
      const j3 = 3 * j, j4 = 4 * j, p3 = 3 * p, p4 = 4 * p;
      const pq = p < 0 ? identity : tNow.q, pqo = p < 0 ? 0 : p4;
      // Rotation: model-space rule, then local through the parent's current rotation.
      if (s >= 0) {
        quatConjugateMultiplyAt(tNow.q, j4, sRest.q, 4 * s, tRest.q, j4);
        quatMultiplyAt(tNow.q, j4, sNow.q, 4 * s, tNow.q, j4);
        quatConjugateMultiplyAt(local, 0, pq, pqo, tNow.q, j4);
        const out = rotationKeys.get(j)!;
        const o = 4 * key;
        const flip = key > 0 && out[o - 4] * local[0] + out[o - 3] * local[1] + out[o - 2] * local[2] + out[o - 1] * local[3] < 0 ? -1 : 1;
        for (let c = 0; c < 4; c++) out[o + c] = flip * local[c];
      } else {
        quatMultiplyAt(tNow.q, j4, pq, pqo, rr, j4);
      }
      // Translation, local: the rest one unless this joint carries the hips' or a scaled change.
      let lx = tr[j3], ly = tr[j3 + 1], lz = tr[j3 + 2];
      const sx = p < 0 ? 1 : tNow.s[p3], sy = p < 0 ? 1 : tNow.s[p3 + 1], sz = p < 0 ? 1 : tNow.s[p3 + 2];
      const px = p < 0 ? 0 : tNow.p[p3], py = p < 0 ? 0 : tNow.p[p3 + 1], pz = p < 0 ? 0 : tNow.p[p3 + 2];
      const keys = translationKeys.get(j);
      if (keys) {
        const s3 = 3 * s;
        if (j === hips) {
          // Wanted model position: rest + ratio · source displacement; into the parent's frame.
          w[0] = tRest.p[j3] + ratio * (sNow.p[s3] - sRest.p[s3]) - px;
          w[1] = tRest.p[j3 + 1] + ratio * (sNow.p[s3 + 1] - sRest.p[s3 + 1]) - py;
          w[2] = tRest.p[j3 + 2] + ratio * (sNow.p[s3 + 2] - sRest.p[s3 + 2]) - pz;
          quatConjugateRotateAt(d, 0, pq, pqo, w, 0);
          lx = d[0] / sx; ly = d[1] / sy; lz = d[2] / sz;
        } else {
          // The source's local change, in model space through its parent's frame, into the target parent's.
          const sp = sParents[s], st = pose.translations, s0 = source.restPose.translations;
          const fx = st[s3] - s0[s3], fy = st[s3 + 1] - s0[s3 + 1], fz = st[s3 + 2] - s0[s3 + 2];
          if (sp < 0) {
            w[0] = fx; w[1] = fy; w[2] = fz;
            quatRotateAt(w, 0, root, 0, w, 0);
          } else {
            w[0] = sNow.s[3 * sp] * fx; w[1] = sNow.s[3 * sp + 1] * fy; w[2] = sNow.s[3 * sp + 2] * fz;
            quatRotateAt(w, 0, sNow.q, 4 * sp, w, 0);
          }
          quatConjugateRotateAt(d, 0, pq, pqo, w, 0);
          lx += ratio * d[0] / sx; ly += ratio * d[1] / sy; lz += ratio * d[2] / sz;
        }
        keys[3 * key] = lx; keys[3 * key + 1] = ly; keys[3 * key + 2] = lz;
      }
      tNow.p[j3] = sx * lx; tNow.p[j3 + 1] = sy * ly; tNow.p[j3 + 2] = sz * lz;
      quatRotateAt(tNow.p, j3, pq, pqo, tNow.p, j3);
      tNow.p[j3] += px; tNow.p[j3 + 1] += py; tNow.p[j3 + 2] += pz;
      tNow.s[j3] = sx * ts[j3]; tNow.s[j3 + 1] = sy * ts[j3 + 1]; tNow.s[j3 + 2] = sz * ts[j3 + 2];
    }
  }

  const channels: AnimationChannel[] = [];
  for (const [joint, values] of translationKeys) channels.push({ joint, path: 'translation', interpolation: 'LINEAR', times, values });
  for (const [joint, values] of rotationKeys) {
    // A joint the clip leaves at rest needs no channel: the sampler holds the rest pose, and a clip from
    // another file then costs per frame what the native one does (bench: pose.retargeted_over_native.Fox).
    if (!holdsRotation(values, rr, 4 * joint)) channels.push({ joint, path: 'rotation', interpolation: 'LINEAR', times, values });
  }
  // Expression and look-at tracks name expressions and the gaze, not joints, and markers name clip times: they
  // pass through unchanged.
  return {
    name: clip.name, duration: times[k - 1], channels,
    ...(clip.markers ? { markers: clip.markers } : {}),
    ...(clip.expressionTracks ? { expressionTracks: clip.expressionTracks } : {}),
    ...(clip.lookAtTrack ? { lookAtTrack: clip.lookAtTrack } : {}),
  };
}

/** The rotation that takes the source's model space onto the target's: ±90° about X between Z-up and Y-up. */
function upTurn(from: 'y' | 'z', to: 'y' | 'z'): number[] {
  if (from === to) return [0, 0, 0, 1];
  const h = Math.SQRT1_2;
  // Z-up → Y-up: −90° about X ((x, y, z) → (x, z, −y)), as src/view/loaded-model.ts shows Z-up models.
  return from === 'z' ? [-h, 0, 0, h] : [h, 0, 0, h];
}

/** The topmost (least deep, then first) matched target joint whose source joint's translation changes (2), or −1. */
function findHips(target: Skeleton, sourceOf: Int32Array, translationAnimated: Uint8Array): number {
  const depth = new Int32Array(target.jointCount);
  let best = -1;
  for (let j = 0; j < target.jointCount; j++) {
    const p = target.parents[j];
    depth[j] = p < 0 ? 0 : depth[p] + 1;
    const s = sourceOf[j];
    if (s >= 0 && translationAnimated[s] === 2 && (best < 0 || depth[j] < depth[best])) best = j;
  }
  return best;
}

/** Whether a channel's key values differ from its first key's (beyond float32 noise). */
function changes(channel: AnimationChannel): boolean {
  const c = 3, stride = keyStride(channel.interpolation, c), at = keyValueOffset(channel.interpolation, c);
  const v = channel.values;
  for (let key = 1; key < channel.times.length; key++) {
    for (let i = 0; i < c; i++) {
      const a = v[at + i], b = v[key * stride + at + i];
      if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a))) return true;
    }
  }
  return false;
}

/** Largest absolute coordinate of a set of positions (at least the smallest normal double). */
function extent(p: Float64Array): number {
  let m = Number.MIN_VALUE;
  for (let i = 0; i < p.length; i++) m = Math.max(m, Math.abs(p[i]));
  return m;
}

/** The output key times, seconds: see {@link retargetClip}. */
function keyTimes(channels: readonly AnimationChannel[], involved: Uint8Array, duration: number): Float32Array {
  const set = new Set<number>();
  let dense = false;
  for (const c of channels) {
    if (!involved[c.joint]) continue;
    for (const t of c.times) set.add(t);
    if (c.interpolation !== 'LINEAR' && c.times.length > 1) dense = true;
  }
  if (duration > 0) set.add(Math.fround(duration));
  if (set.size === 0) set.add(0);
  let times = [...set].sort((a, b) => a - b);
  if (dense) {
    const step = 1 / RETARGET_RESAMPLE_RATE, out: number[] = [];
    for (let i = 0; i < times.length; i++) {
      out.push(times[i]);
      if (i + 1 < times.length) {
        const gap = times[i + 1] - times[i], n = Math.ceil(gap / step);
        for (let m = 1; m < n; m++) out.push(times[i] + (gap * m) / n);
      }
    }
    times = out;
  }
  const result = Float32Array.from(times);
  // float32 rounding may merge neighbours: keep strictly increasing times.
  let n = 0;
  for (let i = 0; i < result.length; i++) if (n === 0 || result[i] > result[n - 1]) result[n++] = result[i];
  return result.slice(0, n);
}

/** Largest quaternion component difference from the rest rotation that still counts as rest: 4 float32 ulps at 1. */
const REST_ROTATION_TOLERANCE = 4 * 2 ** -24;

/**
 * Whether every key of `values` (x, y, z, w per key) is the rotation at `rest[r…r+3]` (either sign) within
 * {@link REST_ROTATION_TOLERANCE} per component.
 */
function holdsRotation(values: Float32Array, rest: Float32Array, r: number): boolean {
  for (let o = 0; o < values.length; o += 4) {
    const sign = values[o] * rest[r] + values[o + 1] * rest[r + 1] + values[o + 2] * rest[r + 2] + values[o + 3] * rest[r + 3] < 0 ? -1 : 1;
    for (let c = 0; c < 4; c++) if (Math.abs(values[o + c] - sign * rest[r + c]) > REST_ROTATION_TOLERANCE) return false;
  }
  return true;
}
