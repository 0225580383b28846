import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { RuntimeClip } from './runtime-clip.ts';
import { sampleClip } from './sample-clip.ts';
import type { SamplingContext } from './sampling-context.ts';
import { copyLocalPose } from '../skeleton/local-pose.ts';

/**
 * What the `Animator` does with the motion root's horizontal travel (docs/guide/root-motion.md; ozz-animation's
 * motion extraction sample):
 * - `off`: the pose as the clip has it;
 * - `in-place`: the root's horizontal translation (model-space X, Z; Y is up) and yaw (its turn about Y) since
 *   the clip's start are taken out of the pose: the character walks on the spot;
 * - `applied`: in place, and the travel taken out is accumulated into `Animator.placement` across loops and
 *   crossfades, for the owner to move the model by.
 */
export type RootMotionMode = 'off' | 'in-place' | 'applied';

/**
 * The joint whose travel is root motion, and the model-space frame of its parent at rest, which must not be
 * animated (for glTF rigs the nodes above the hips hold only the file's axis conversion). Made by
 * {@link findMotionRoot}.
 */
export class MotionRoot {
  readonly joint: number;
  /**
   * `Float64Array(8)`: the parent's model-space rotation quaternion (x, y, z, w), translation (x, y, z, the
   * file's units) and uniform scale (its X scale) at rest; identity for a skeleton root.
   */
  readonly parent: Float64Array;

  constructor(joint: number, parent: Float64Array) {
    this.joint = joint;
    this.parent = parent;
    Object.freeze(this);
  }
}

/**
 * The motion root: of the joints some clip translates (`clips`' translation channels), the one nearest the
 * skeleton's root (the hips), ties to the lower index; null when no clip translates a joint. Its parent's rest
 * frame is composed down the parents' rest transforms (docs/explanation/skinning-formulas.md S4, scales taken as uniform).
 * Allocates: call once per model.
 */
export function findMotionRoot(skeleton: Skeleton, restPose: LocalPose, clips: readonly RuntimeClip[]): MotionRoot | null {
  const parents = skeleton.parents;
  const depth = (j: number): number => {
    let d = 0;
    for (let p = parents[j]; p >= 0; p = parents[p]) d++;
    return d;
  };
  let best = -1;
  const consider = (offset: number): void => {
    const j = offset / 3;
    if (best < 0 || depth(j) < depth(best) || (depth(j) === depth(best) && j < best)) best = j;
  };
  for (const clip of clips) {
    clip.lerpOffset.forEach((offset, i) => clip.lerpIsScale[i] === 0 && consider(offset));
    clip.stepOffset.forEach((offset, i) => clip.stepPath[i] === 0 && consider(offset));
    clip.cubicOffset.forEach((offset, i) => clip.cubicPath[i] === 0 && consider(offset));
  }
  if (best < 0) return null;
  const chain: number[] = [];
  for (let p = parents[best]; p >= 0; p = parents[p]) chain.unshift(p);
  const frame = Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1);
  const r = restPose;
  for (const j of chain) {
    const t = rotate(frame, r.translations[3 * j], r.translations[3 * j + 1], r.translations[3 * j + 2]);
    const s = frame[7];
    frame[4] += s * t[0]; frame[5] += s * t[1]; frame[6] += s * t[2];
    multiplyInto(frame, r.rotations[4 * j], r.rotations[4 * j + 1], r.rotations[4 * j + 2], r.rotations[4 * j + 3]);
    frame[7] = s * r.scales[3 * j];
  }
  return new MotionRoot(best, frame);
}

/** `q·(x, y, z)` for the unit quaternion at q[0..3] (allocates: load time only). */
function rotate(q: Float64Array, x: number, y: number, z: number): number[] {
  const [qx, qy, qz, qw] = q;
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + qy * tz - qz * ty, y + qw * ty + qz * tx - qx * tz, z + qw * tz + qx * ty - qy * tx];
}

/** q[0..3] ← q[0..3] ⊗ (x, y, z, w), Hamilton product. */
function multiplyInto(q: Float64Array | Float32Array, x: number, y: number, z: number, w: number): void {
  const ax = q[0], ay = q[1], az = q[2], aw = q[3];
  q[0] = aw * x + ax * w + ay * z - az * y;
  q[1] = aw * y - ax * z + ay * w + az * x;
  q[2] = aw * z + ax * y - ay * x + az * w;
  q[3] = aw * w - ax * x - ay * y - az * z;
}

/**
 * Reads the root's model-space horizontal position and yaw from `pose` into `out` = [x, z, yaw] (file units,
 * radians: the twist about +Y of its model-space rotation, `2·atan2(q_y, q_w)`). Allocates nothing.
 * @param scratch `Float64Array(4)`, overwritten
 */
export function readRootMotion(out: Float64Array, root: MotionRoot, pose: LocalPose, scratch: Float64Array): void {
  const f = root.parent, j = root.joint, t = pose.translations, q = pose.rotations;
  const x = t[3 * j], y = t[3 * j + 1], z = t[3 * j + 2];
  const qx = f[0], qy = f[1], qz = f[2], qw = f[3], s = f[7];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = f[4] + s * (x + qw * tx + qy * tz - qz * ty);
  out[1] = f[6] + s * (z + qw * tz + qx * ty - qy * tx);
  scratch[0] = qx; scratch[1] = qy; scratch[2] = qz; scratch[3] = qw;
  multiplyInto(scratch, q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]);
  out[2] = 2 * Math.atan2(scratch[1], scratch[3]);
}

/**
 * Takes a planar motion out of the root of `pose`: moves its model-space horizontal position to (px, pz) and
 * turns it by −yaw about +Y (model space), keeping its height. `m` = [px, pz, yaw]. Allocates nothing.
 * @param scratch `Float64Array(4)`, overwritten
 */
export function placeRootInPlace(pose: LocalPose, root: MotionRoot, m: Float64Array, scratch: Float64Array): void {
  const f = root.parent, j = root.joint, t = pose.translations, q = pose.rotations;
  const x = t[3 * j], y = t[3 * j + 1], z = t[3 * j + 2];
  const qx = f[0], qy = f[1], qz = f[2], qw = f[3], s = f[7];
  // Model-space position p = f.t + s·f.q·t; replace its X and Z, then back: t = f.q⁻¹·(p − f.t)/s.
  let tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  const py = f[5] + s * (y + qw * ty + qz * tx - qx * tz);
  const dx = (m[0] - f[4]) / s, dy = (py - f[5]) / s, dz = (m[1] - f[6]) / s;
  tx = 2 * (-qy * dz + qz * dy); ty = 2 * (-qz * dx + qx * dz); tz = 2 * (-qx * dy + qy * dx);
  t[3 * j] = dx + qw * tx - qy * tz + qz * ty;
  t[3 * j + 1] = dy + qw * ty - qz * tx + qx * tz;
  t[3 * j + 2] = dz + qw * tz - qx * ty + qy * tx;
  // Local rotation ← f.q⁻¹ ⊗ R_y(−yaw) ⊗ f.q ⊗ local.
  const h = -m[2] / 2, sy = Math.sin(h), cy = Math.cos(h);
  scratch[0] = -qx; scratch[1] = -qy; scratch[2] = -qz; scratch[3] = qw;
  multiplyInto(scratch, 0, sy, 0, cy);
  multiplyInto(scratch, qx, qy, qz, qw);
  multiplyInto(scratch, q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]);
  q[4 * j] = scratch[0]; q[4 * j + 1] = scratch[1]; q[4 * j + 2] = scratch[2]; q[4 * j + 3] = scratch[3];
}

/**
 * Planar rigid transforms [c_x, c_z, ψ]: p ↦ R_y(ψ)·p + c on model-space (x, z), with
 * R_y(ψ)·(x, z) = (cos ψ·x + sin ψ·z, −sin ψ·x + cos ψ·z), the turn of a rotation by ψ about +Y.
 * `out` ← a ∘ b (apply b, then a); `out` may alias either. Allocates nothing.
 */
export function composeMotion(out: Float64Array, a: Float64Array, b: Float64Array): void {
  const c = Math.cos(a[2]), s = Math.sin(a[2]);
  const bx = b[0], bz = b[1], bpsi = b[2];
  out[0] = a[0] + c * bx + s * bz;
  out[1] = a[1] - s * bx + c * bz;
  out[2] = a[2] + bpsi;
}

/** `out` ← a⁻¹ for a planar transform of {@link composeMotion}; `out` may alias `a`. Allocates nothing. */
export function invertMotion(out: Float64Array, a: Float64Array): void {
  const c = Math.cos(a[2]), s = Math.sin(a[2]);
  const ax = a[0], az = a[1];
  out[0] = -(c * ax - s * az);
  out[1] = -(s * ax + c * az);
  out[2] = -a[2];
}

/**
 * `out` ← out ∘ m^k for a planar transform m of {@link composeMotion} and a whole number k of loops (k < 0:
 * m⁻¹ taken −k times; O(|k|)). `scratch` (`Float64Array(3)`, may alias `m`) receives m or m⁻¹. Allocates nothing.
 */
export function composeRepeated(out: Float64Array, m: Float64Array, k: number, scratch: Float64Array): void {
  if (k < 0) {
    invertMotion(scratch, m);
    k = -k;
  } else if (scratch !== m) {
    scratch[0] = m[0]; scratch[1] = m[1]; scratch[2] = m[2];
  }
  for (; k > 0; k--) composeMotion(out, out, scratch);
}

/**
 * Moves a whole pose by a placement [x, z, yaw] (`Animator.placement`): each skeleton root joint's local
 * transform (`roots`, the joints without a parent) becomes `T(x, 0, z)·R_y(yaw)·local`. Allocates nothing.
 */
export function applyPlacement(pose: LocalPose, roots: Int32Array, placement: Float64Array): void {
  const h = placement[2] / 2, sy = Math.sin(h), cy = Math.cos(h), c = Math.cos(placement[2]), s = Math.sin(placement[2]);
  const t = pose.translations, q = pose.rotations;
  for (let i = 0; i < roots.length; i++) {
    const j = roots[i];
    const x = t[3 * j], z = t[3 * j + 2];
    t[3 * j] = c * x + s * z + placement[0];
    t[3 * j + 2] = -s * x + c * z + placement[1];
    const qx = q[4 * j], qy = q[4 * j + 1], qz = q[4 * j + 2], qw = q[4 * j + 3];
    q[4 * j] = cy * qx + sy * qz;
    q[4 * j + 1] = cy * qy + sy * qw;
    q[4 * j + 2] = cy * qz - sy * qx;
    q[4 * j + 3] = cy * qw - sy * qy;
  }
}

/**
 * The motion transform [c_x, c_z, ψ] (`composeMotion`) that carries the root from its reading at time 0
 * (`base` = [x0, z0, yaw0]) to reading `r` = [x, z, yaw]: turn by ψ = yaw − yaw0 (wrapped to (−π, π]) about the
 * start (x0, z0), then move there: c = (x, z) − R_y(ψ)·(x0, z0). `out` may alias `r`. Allocates nothing.
 */
export function toMotion(out: Float64Array, r: Float64Array, base: Float64Array): void {
  let psi = r[2] - base[2];
  psi -= 2 * Math.PI * Math.round(psi / (2 * Math.PI));
  const c = Math.cos(psi), s = Math.sin(psi);
  out[0] = r[0] - (c * base[0] + s * base[1]);
  out[1] = r[1] - (-s * base[0] + c * base[1]);
  out[2] = psi;
}

/**
 * A clip's motion record `out` = `Float64Array(6)`: [x0, z0, yaw0], the root's reading at time 0
 * ({@link readRootMotion}), then M(D) = [c_x, c_z, ψ], its whole motion over one loop ({@link toMotion} of its
 * reading at the duration D). Samples the clip twice into `pose` (overwritten) over `restPose`. Allocates nothing.
 * @param reading `Float64Array(3)`, overwritten; @param scratch `Float64Array(4)`, overwritten
 */
export function clipMotionRecord(
  out: Float64Array, clip: RuntimeClip, root: MotionRoot, restPose: LocalPose, pose: LocalPose, context: SamplingContext,
  reading: Float64Array, scratch: Float64Array,
): Float64Array {
  copyLocalPose(pose, restPose);
  readRootMotion(out, root, sampleClip(pose, clip, 0, context), scratch);
  copyLocalPose(pose, restPose);
  readRootMotion(reading, root, sampleClip(pose, clip, clip.duration, context), scratch);
  toMotion(reading, reading, out);
  out[3] = reading[0]; out[4] = reading[1]; out[5] = reading[2];
  return out;
}

/**
 * Takes root motion out of a pose sampled from the clip of motion record `record` ({@link clipMotionRecord}):
 * writes its motion transform M(t) (the root's travel since time 0, {@link toMotion}) into `motion`, then puts
 * the root back at its time-0 horizontal position and yaw ({@link placeRootInPlace}), its height kept. The
 * Animator's `in-place` and `applied` modes and crowds share it. Allocates nothing.
 * @param reading `Float64Array(3)`, overwritten; @param scratch `Float64Array(4)`, overwritten
 */
export function takeRootMotion(
  motion: Float64Array, pose: LocalPose, root: MotionRoot, record: Float64Array, reading: Float64Array, scratch: Float64Array,
): void {
  readRootMotion(reading, root, pose, scratch);
  toMotion(motion, reading, record);
  reading[0] = record[0]; reading[1] = record[1]; reading[2] = motion[2];
  placeRootInPlace(pose, root, reading, scratch);
}

/** Reads a root-motion setting (`off`, `in-place`, `applied`); absent or empty gives `off`. */
export function parseRootMotionSetting(raw: string | null): { value: RootMotionMode | null; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: 'off', error: null };
  const v = raw.trim().toLowerCase();
  if (v === 'off' || v === 'in-place' || v === 'applied') return { value: v, error: null };
  return { value: null, error: 'expected off, in-place or applied' };
}
