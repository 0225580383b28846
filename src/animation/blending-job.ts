import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Total weight below which a joint takes the rest pose in (`BlendingJob.restPose`), ozz-animation's
 * `BlendingJob::threshold` default.
 */
export const DEFAULT_BLEND_THRESHOLD = 0.1;

/** One input of a {@link BlendingJob}: a pose and how much of it each joint takes. */
export interface BlendingLayer {
  /**
   * The layer's pose, `jointCount` joints (morph weights optional). Additive layers: the pose whose
   * difference to {@link reference} is added.
   */
  pose: LocalPose;
  /**
   * Layer weight. Normal layers: ≥ 0, need not sum to 1 (a joint's weights are normalised by their sum); a
   * weight ≤ 0 contributes nothing. Additive layers: any, 1 adds the whole delta, a negative one subtracts it.
   */
  weight: number;
  /**
   * `Float32Array(jointCount)`: per-joint factors multiplied into {@link weight} (ozz `joint_weights`, a
   * mask), or null for all 1. Morph weight i takes the factor of joint `BlendingJob.morphWeightJoints[i]`.
   * For `BlendingJob.kernel` to run the job, made by its `createJointWeights` (in its memory).
   */
  jointWeights: Float32Array | null;
  /** Additive layers: the pose the delta is taken relative to (`pose − reference`); unused by normal layers. */
  reference: LocalPose | null;
}

/**
 * A back end for {@link blendLayers}: the pose room's `BlendingKernel` (WebAssembly SIMD, float32), which runs a
 * whole job — every normal layer with its per-joint weights, the rest-pose pass, the normalisation and the
 * additive layers — in one call on poses in its memory.
 */
export interface BlendingBackend {
  /**
   * The joints of {@link blendLayers}: `out`'s joints [0, `jointCount`) from `job`'s layers, by the formulas
   * given there; morph weights are left to the caller. Returns false, having written nothing, when it cannot
   * (a pose or a per-joint weight array is not where it works, too few joints, too many layers), and the
   * portable loops run instead. Allocates nothing.
   */
  blend(out: LocalPose, job: BlendingJob, jointCount: number): boolean;
  /**
   * A `Float32Array(jointCount)` (zeros) where {@link blend} reads per-joint weights in place — for a
   * `BlendingLayer.jointWeights` the back end should see — or null when it has no room left. Allocates: at
   * set-up, not per frame.
   */
  createJointWeights(jointCount: number): Float32Array | null;
}

/**
 * The inputs of {@link blendLayers}, after ozz-animation's `BlendingJob`: normal layers (the first
 * `layerCount` of `layers`), additive layers applied on top of their blend (the first `additiveLayerCount` of
 * `additiveLayers`), an optional rest pose for joints whose total weight is under `threshold`. Caller-owned
 * and reusable: set poses and weights in the records each frame, no allocation. The poses it references are
 * not copied.
 */
export class BlendingJob {
  /** Normal layers, blended as a per-joint normalised weighted sum. */
  readonly layers: BlendingLayer[] = [];
  /** How many of `layers` are blended (the rest are kept as records to reuse). */
  layerCount = 0;
  /** Additive layers, applied in order on top of the normal layers' blend. */
  readonly additiveLayers: BlendingLayer[] = [];
  /** How many of `additiveLayers` are applied. */
  additiveLayerCount = 0;
  /**
   * Blended in, with weight `threshold − W`, at each joint whose normal layers' total weight W is below
   * `threshold` (ozz: so a joint no layer animates goes to the rest pose, not to an arbitrary one). Null: a
   * joint with W = 0 keeps `out`'s value, and any W > 0 is normalised as it is.
   */
  restPose: LocalPose | null = null;
  /** See {@link restPose}; > 0. Default {@link DEFAULT_BLEND_THRESHOLD}. */
  threshold = DEFAULT_BLEND_THRESHOLD;
  /**
   * `Int32Array(morphWeightCount)`: the joint carrying each morph weight (its mesh instance's node), so per-joint
   * weights apply to it; null: morph weights take the layers' weights alone.
   */
  morphWeightJoints: Int32Array | null = null;
  /** The back end that runs the whole job where it can (its poses in its memory), or null for the portable loops. */
  kernel: BlendingBackend | null = null;
  /** Per-joint f64 sums of the normal layers, {@link blendLayers}' scratch; grown to the largest pose run. */
  private scratch = new Float64Array(0);

  /**
   * The scratch for `jointCount` joints (`Float64Array(≥ 12·jointCount)`: per joint the weighted sums of
   * translation, scale and rotation, W and the input count), allocated only when larger than any before:
   * call it once at setup so that no run allocates.
   */
  scratchFor(jointCount: number): Float64Array {
    if (this.scratch.length < ACC_STRIDE * jointCount) this.scratch = new Float64Array(ACC_STRIDE * jointCount);
    return this.scratch;
  }

  /** Appends a normal layer record and counts it in (allocates: for setting a job up). @returns the record */
  addLayer(pose: LocalPose, weight = 1, jointWeights: Float32Array | null = null): BlendingLayer {
    const layer: BlendingLayer = { pose, weight, jointWeights, reference: null };
    this.layers.push(layer);
    this.layerCount = this.layers.length;
    return layer;
  }

  /** Appends an additive layer record and counts it in (allocates: for setting a job up). @returns the record */
  addAdditiveLayer(pose: LocalPose, reference: LocalPose, weight = 1, jointWeights: Float32Array | null = null): BlendingLayer {
    const layer: BlendingLayer = { pose, weight, jointWeights, reference };
    this.additiveLayers.push(layer);
    this.additiveLayerCount = this.additiveLayers.length;
    return layer;
  }
}

/**
 * Runs a {@link BlendingJob} into `out`, ozz-animation's `BlendingJob` (normal passes, rest-pose pass,
 * normalisation, additive passes). For joint j, layer l weighs `w_l = weight_l · jointWeights_l[j]`:
 *
 * - translations, scales: `Σ w_l·x_l / W`, W = Σ w_l over the layers with w_l > 0;
 * - rotations: nlerp, normalised `Σ ±w_l·q_l`, each q_l negated when its dot product with the sum so far is
 *   negative (hemisphere correction, so q and −q, the same rotation, do not cancel). Not constant-speed like
 *   slerp, but for two poses it follows the same arc and it is commutative over N (J. Blow, "Understanding
 *   slerp, then not using it", 2004);
 * - W < `threshold` with a `restPose`: the rest pose joins with weight `threshold − W`; W = 0 without one:
 *   `out`'s joint as it is; one contributing input: `w·x / w`, that input's joint exactly, not renormalised
 *   (so a crossfade at 0 or 1, or a mask of 0, gives its endpoint bit for bit);
 * - then each additive layer with `a = weight·jointWeights[j]` ≠ 0 (ozz `AdditiveAnimationBuilder` deltas):
 *   translation `+ a·(pose − reference)`; scale `⊙ (1 + a·(pose ⊘ reference − 1))` (a zero reference scale
 *   counts as ratio 1); rotation `· nlerp(1, Δ, a)`, Δ = `reference⁻¹ · pose` taken with w ≥ 0, so the
 *   delta is applied in the joint's own frame after the blended rotation;
 * - morph weights (when `out` has them) alike, linearly: the normal layers' weighted mean (a layer whose pose
 *   has fewer morph weights than `out` is left out of it), then `+ a·(pose − reference)` per additive layer
 *   whose poses have them; a morph weight takes its joint's factor (`morphWeightJoints`).
 *
 * A crossfade from A to B at α is two layers, A at `1 − α` and B at α (per joint: jointWeights `1 − α·m_j`
 * and `α·m_j`); the `Animator` lays each layer over the result so far that way. docs/explanation/animation-blending.md
 * gives these formulas with their sources. With a `job.kernel` the joints run there, the whole job in one
 * call, when its poses and per-joint weights are in the kernel's memory (in float32: within the bound of
 * tests/unit/pose/blending-kernel.test.ts); these loops run otherwise, and are its reference. Sums are taken in f64 (the
 * job's scratch holds those of layers before the last two) and each joint is read before it is written, so
 * `out` may be the pose of a normal layer or the rest pose (not an additive layer's pose or reference).
 * Allocates nothing once the scratch fits the joint count (three layers or more).
 *
 * @param out pose of the inputs' joint count, overwritten
 * @returns `out`
 */
export function blendLayers(out: LocalPose, job: BlendingJob): LocalPose {
  const ot = out.translations, or = out.rotations, os = out.scales;
  const n = (ot.length / 3) | 0;
  if (job.kernel !== null && job.kernel.blend(out, job, n)) {
    if (out.morphWeights && out.morphWeights.length > 0) blendMorphWeights(out.morphWeights, job);
    return out;
  }
  const layers = job.layers, layerCount = job.layerCount;
  // Layers before the last two are summed into the f64 scratch a layer per pass; the last two (all of them,
  // for a crossfade) are read in the joint loop that normalises, so two layers cost one pass.
  const summed = layerCount > 2 ? layerCount - 2 : 0;
  const acc = job.scratchFor(summed > 0 ? n : 0);
  for (let l = 0; l < summed; l++) {
    const layer = layers[l], mask = layer.jointWeights, weight = layer.weight;
    const p = layer.pose, pt = p.translations, pr = p.rotations, ps = p.scales;
    if (l === 0) acc.fill(0, 0, ACC_STRIDE * n);
    for (let j = 0; j < n; j++) {
      const w = weight * (mask !== null ? mask[j] : 1); // not `mask ? w·m : w`: V8 would box that phi
      if (!(w > 0)) continue;
      // Inline, not a helper: a computed double passed to a call that V8 does not inline is boxed on the heap.
      const o = (ACC_STRIDE * j) | 0, i3 = (3 * j) | 0, i4 = j << 2;
      acc[o] += w * pt[i3]; acc[(o + 1) | 0] += w * pt[(i3 + 1) | 0]; acc[(o + 2) | 0] += w * pt[(i3 + 2) | 0];
      acc[(o + 3) | 0] += w * ps[i3]; acc[(o + 4) | 0] += w * ps[(i3 + 1) | 0]; acc[(o + 5) | 0] += w * ps[(i3 + 2) | 0];
      const x = pr[i4], y = pr[(i4 + 1) | 0], z = pr[(i4 + 2) | 0], qw = pr[(i4 + 3) | 0];
      // Hemisphere: q joins on the side of the sum so far.
      const ws = acc[(o + 6) | 0] * x + acc[(o + 7) | 0] * y + acc[(o + 8) | 0] * z + acc[(o + 9) | 0] * qw < 0 ? -w : w;
      acc[(o + 6) | 0] += ws * x; acc[(o + 7) | 0] += ws * y; acc[(o + 8) | 0] += ws * z; acc[(o + 9) | 0] += ws * qw;
      acc[(o + 10) | 0] += w;
      acc[(o + 11) | 0] += 1;
    }
  }
  const a = layerCount >= 2 ? layers[layerCount - 2] : null, b = layerCount >= 1 ? layers[layerCount - 1] : null;
  const aWeight = a !== null ? a.weight : 0, aMask = a !== null ? a.jointWeights : null, ap = a !== null ? a.pose : out;
  const at = ap.translations, ar = ap.rotations, as = ap.scales;
  const bWeight = b !== null ? b.weight : 0, bMask = b !== null ? b.jointWeights : null, bp = b !== null ? b.pose : out;
  const bt = bp.translations, br = bp.rotations, bs = bp.scales;
  const rest = job.restPose, threshold = job.threshold;
  if (summed === 0 && aMask === null && bMask === null && aWeight > 0 && bWeight > 0 && (rest === null || aWeight + bWeight >= threshold)) {
    // Two layers without per-joint weights (a crossfade, an unmasked layer): every joint takes both at the
    // same normalised weights, so they are computed once here instead of per joint (bench:
    // `pose.stage_ns_per_joint.*.blend.sample`).
    // Layers passed, not weights: a computed double argument is a heap number.
    blendTwo(out, a!, b!, n);
  } else for (let j = 0; j < n; j++) {
    const i3 = (3 * j) | 0, i4 = j << 2, o = (ACC_STRIDE * j) | 0;
    let tx = 0, ty = 0, tz = 0, sx = 0, sy = 0, sz = 0, qx = 0, qy = 0, qz = 0, qw = 0, total = 0, count = 0;
    if (summed > 0) {
      tx = acc[o]; ty = acc[(o + 1) | 0]; tz = acc[(o + 2) | 0];
      sx = acc[(o + 3) | 0]; sy = acc[(o + 4) | 0]; sz = acc[(o + 5) | 0];
      qx = acc[(o + 6) | 0]; qy = acc[(o + 7) | 0]; qz = acc[(o + 8) | 0]; qw = acc[(o + 9) | 0];
      total = acc[(o + 10) | 0]; count = acc[(o + 11) | 0] | 0;
    }
    const wa = aWeight * (aMask !== null ? aMask[j] : 1);
    if (wa > 0) {
      tx += wa * at[i3]; ty += wa * at[(i3 + 1) | 0]; tz += wa * at[(i3 + 2) | 0];
      sx += wa * as[i3]; sy += wa * as[(i3 + 1) | 0]; sz += wa * as[(i3 + 2) | 0];
      const x = ar[i4], y = ar[(i4 + 1) | 0], z = ar[(i4 + 2) | 0], w = ar[(i4 + 3) | 0];
      const ws = count !== 0 && qx * x + qy * y + qz * z + qw * w < 0 ? -wa : wa; // no sum yet: no side to take
      qx += ws * x; qy += ws * y; qz += ws * z; qw += ws * w;
      total += wa; count = (count + 1) | 0;
    }
    const wb = bWeight * (bMask !== null ? bMask[j] : 1);
    if (wb > 0) {
      tx += wb * bt[i3]; ty += wb * bt[(i3 + 1) | 0]; tz += wb * bt[(i3 + 2) | 0];
      sx += wb * bs[i3]; sy += wb * bs[(i3 + 1) | 0]; sz += wb * bs[(i3 + 2) | 0];
      const x = br[i4], y = br[(i4 + 1) | 0], z = br[(i4 + 2) | 0], w = br[(i4 + 3) | 0];
      const ws = qx * x + qy * y + qz * z + qw * w < 0 ? -wb : wb;
      qx += ws * x; qy += ws * y; qz += ws * z; qw += ws * w;
      total += wb; count = (count + 1) | 0;
    }
    if (rest !== null && total < threshold) {
      const wr = threshold - total, rt = rest.translations, rr = rest.rotations, rs = rest.scales;
      tx += wr * rt[i3]; ty += wr * rt[(i3 + 1) | 0]; tz += wr * rt[(i3 + 2) | 0];
      sx += wr * rs[i3]; sy += wr * rs[(i3 + 1) | 0]; sz += wr * rs[(i3 + 2) | 0];
      const x = rr[i4], y = rr[(i4 + 1) | 0], z = rr[(i4 + 2) | 0], w = rr[(i4 + 3) | 0];
      const ws = qx * x + qy * y + qz * z + qw * w < 0 ? -wr : wr;
      qx += ws * x; qy += ws * y; qz += ws * z; qw += ws * w;
      total = threshold; count = (count + 1) | 0;
    }
    if (count === 0) continue;
    const inv = 1 / total;
    ot[i3] = tx * inv; ot[(i3 + 1) | 0] = ty * inv; ot[(i3 + 2) | 0] = tz * inv;
    os[i3] = sx * inv; os[(i3 + 1) | 0] = sy * inv; os[(i3 + 2) | 0] = sz * inv;
    // One input: w·q / w is q exactly; renormalising would move a stored unit quaternion by an ulp.
    const len2 = qx * qx + qy * qy + qz * qz + qw * qw;
    const s = count === 1 ? inv : len2 > 0 ? 1 / Math.sqrt(len2) : 0;
    or[i4] = qx * s; or[(i4 + 1) | 0] = qy * s; or[(i4 + 2) | 0] = qz * s; or[(i4 + 3) | 0] = qw * s;
  }
  const additives = job.additiveLayers, additiveCount = job.additiveLayerCount;
  for (let l = 0; l < additiveCount; l++) addDelta(out, additives[l], n);
  if (out.morphWeights && out.morphWeights.length > 0) blendMorphWeights(out.morphWeights, job);
  return out;
}

/**
 * {@link blendLayers} for two layers without per-joint weights, both weights > 0, normalised once to `ka + kb = 1`:
 * translations and scales `ka·a + kb·b`, rotations normalised `ka·qa ± kb·qb` (hemisphere). `out` may be
 * either layer's pose.
 */
function blendTwo(out: LocalPose, a: BlendingLayer, b: BlendingLayer, n: number): void {
  const ka = a.weight / (a.weight + b.weight), kb = b.weight / (a.weight + b.weight);
  const ot = out.translations, or = out.rotations, os = out.scales;
  const at = a.pose.translations, ar = a.pose.rotations, as = a.pose.scales;
  const bt = b.pose.translations, br = b.pose.rotations, bs = b.pose.scales;
  for (let j = 0; j < n; j++) {
    const i3 = (3 * j) | 0, i4 = j << 2, i31 = (i3 + 1) | 0, i32 = (i3 + 2) | 0;
    ot[i3] = ka * at[i3] + kb * bt[i3]; ot[i31] = ka * at[i31] + kb * bt[i31]; ot[i32] = ka * at[i32] + kb * bt[i32];
    os[i3] = ka * as[i3] + kb * bs[i3]; os[i31] = ka * as[i31] + kb * bs[i31]; os[i32] = ka * as[i32] + kb * bs[i32];
    const ax = ar[i4], ay = ar[(i4 + 1) | 0], az = ar[(i4 + 2) | 0], aw = ar[(i4 + 3) | 0];
    const bx = br[i4], by = br[(i4 + 1) | 0], bz = br[(i4 + 2) | 0], bw = br[(i4 + 3) | 0];
    const kbs = ax * bx + ay * by + az * bz + aw * bw < 0 ? -kb : kb;
    const x = ka * ax + kbs * bx, y = ka * ay + kbs * by, z = ka * az + kbs * bz, w = ka * aw + kbs * bw;
    const len2 = x * x + y * y + z * z + w * w;
    const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
    or[i4] = x * inv; or[(i4 + 1) | 0] = y * inv; or[(i4 + 2) | 0] = z * inv; or[(i4 + 3) | 0] = w * inv;
  }
}

/** Floats per joint in the scratch: weighted sums of translation (3), scale (3), rotation (4); W; count. */
const ACC_STRIDE = 12;

/** {@link blendLayers}' additive pass of one layer, on `out` in place. */
function addDelta(out: LocalPose, layer: BlendingLayer, n: number): void {
  const mask = layer.jointWeights, weight = layer.weight;
  const at = layer.pose.translations, ar = layer.pose.rotations, as = layer.pose.scales;
  const reference = layer.reference!, rt = reference.translations, rr = reference.rotations, rs = reference.scales;
  const ot = out.translations, or = out.rotations, os = out.scales;
  for (let j = 0; j < n; j++) {
    const a = weight * (mask !== null ? mask[j] : 1);
    if (a === 0) continue;
    const i3 = (3 * j) | 0, i4 = j << 2;
    for (let k = 0; k < 3; k++) {
      const i = (i3 + k) | 0;
      ot[i] += a * (at[i] - rt[i]);
      const r = rs[i];
      os[i] *= 1 + a * ((r !== 0 ? as[i] / r : 1) - 1);
    }
    // Δ = conj(r) · q for unit r = (rx, ry, rz, rw): Hamilton product with (−rx, −ry, −rz, rw).
    const rx = -rr[i4], ry = -rr[(i4 + 1) | 0], rz = -rr[(i4 + 2) | 0], rw = rr[(i4 + 3) | 0];
    const px = ar[i4], py = ar[(i4 + 1) | 0], pz = ar[(i4 + 2) | 0], pw = ar[(i4 + 3) | 0];
    let dx = rw * px + rx * pw + ry * pz - rz * py;
    let dy = rw * py - rx * pz + ry * pw + rz * px;
    let dz = rw * pz + rx * py - ry * px + rz * pw;
    let dw = rw * pw - rx * px - ry * py - rz * pz;
    if (dw < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    // nlerp(identity, Δ, a).
    dx *= a; dy *= a; dz *= a; dw = 1 - a + a * dw;
    const len2 = dx * dx + dy * dy + dz * dz + dw * dw;
    const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
    dx *= inv; dy *= inv; dz *= inv; dw *= inv;
    // out = out · Δ_a.
    const bx = or[i4], by = or[(i4 + 1) | 0], bz = or[(i4 + 2) | 0], bw = or[(i4 + 3) | 0];
    or[i4] = bw * dx + bx * dw + by * dz - bz * dy;
    or[(i4 + 1) | 0] = bw * dy - bx * dz + by * dw + bz * dx;
    or[(i4 + 2) | 0] = bw * dz + bx * dy - by * dx + bz * dw;
    or[(i4 + 3) | 0] = bw * dw - bx * dx - by * dy - bz * dz;
  }
}

/** {@link blendLayers}' morph weights pass: the same weights, linear. `out` may be an input's. */
function blendMorphWeights(out: Float32Array, job: BlendingJob): void {
  const layers = job.layers, layerCount = job.layerCount;
  const additives = job.additiveLayers, additiveCount = job.additiveLayerCount;
  const rest = job.restPose, threshold = job.threshold, joints = job.morphWeightJoints;
  const m = out.length;
  const rm = rest !== null && rest.morphWeights && rest.morphWeights.length >= m ? rest.morphWeights : null;
  for (let i = 0; i < m; i++) {
    let sum = 0, total = 0, count = 0;
    let single: Float32Array | null = null;
    for (let l = 0; l < layerCount; l++) {
      const layer = layers[l], pm = layer.pose.morphWeights, mask = layer.jointWeights;
      if (!pm || pm.length < m) continue;
      const w = layer.weight * (mask !== null && joints !== null ? mask[joints[i]] : 1);
      if (!(w > 0)) continue;
      sum += w * pm[i];
      total += w;
      count++;
      single = pm;
    }
    if (rm !== null && total < threshold) {
      sum += (threshold - total) * rm[i];
      total = threshold;
      count++;
      single = rm;
    }
    let v = count === 0 ? out[i] : count === 1 ? single![i] : sum / total;
    for (let l = 0; l < additiveCount; l++) {
      const layer = additives[l], am = layer.pose.morphWeights, refm = layer.reference!.morphWeights, mask = layer.jointWeights;
      // Poses without morph weights (a caller's reference pose) leave them as they are.
      if (!am || !refm || am.length < m || refm.length < m) continue;
      const a = layer.weight * (mask !== null && joints !== null ? mask[joints[i]] : 1);
      v += a * (am[i] - refm[i]);
    }
    out[i] = v;
  }
}
