import type { SpringBoneAsset } from '../asset/secondary-motion-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { invertAffine } from '../math/affine-mat4.ts';
import { quatMultiplyAt } from '../math/quaternion.ts';
import { multiplyTrsAt, quatFromUnitVectorsAt } from './secondary-math.ts';
import { compileSpringBoneLayout, type SpringBoneLayout } from './spring-bone-layout.ts';
import { collideTail } from './spring-collision.ts';
import type { SpringSimulator } from './spring-simulator.ts';
import { SpringState } from './spring-state.ts';

/** {@link SpringBoneJobOptions.maxDt}'s default: 1/20 s, so a stalled frame does not fling the hair. */
export const DEFAULT_SPRING_MAX_DT = 1 / 20;
/** {@link SpringBoneJobOptions.teleportDistance}'s default: 1 world unit (a metre for VRM) in one apply. */
export const DEFAULT_SPRING_TELEPORT_DISTANCE = 1;
/** Most fixed steps one apply runs at a {@link SpringBoneJobOptions.springHz} rate; time beyond them is dropped. */
export const MAX_SPRING_STEPS_PER_APPLY = 4;

/** How a {@link SpringBoneJob} moves time. */
export interface SpringBoneJobOptions {
  /**
   * A fixed simulation rate, steps per second: each apply runs the whole steps of 1 / springHz the time stepped
   * holds (at most {@link MAX_SPRING_STEPS_PER_APPLY}; more is dropped), the rest waits for the next apply, so the
   * motion is the same at any frame rate. Unset or 0: one step per apply of the time stepped, clamped to `maxDt`
   * (three-vrm's `update(delta)`).
   */
  readonly springHz?: number;
  /** Longest single step without `springHz`, seconds (default {@link DEFAULT_SPRING_MAX_DT}). */
  readonly maxDt?: number;
  /**
   * A spring's first joint moving more than this in world space (the model's units) from one apply to the next is
   * a teleport: the springs reset there instead of whipping (default {@link DEFAULT_SPRING_TELEPORT_DISTANCE}).
   */
  readonly teleportDistance?: number;
}

/**
 * The portable spring-bone job (VRMC_springBone 1.0, "Algorithm"), the reference the WebAssembly kernel is held to:
 * three-vrm 3.5.5's VRMSpringBoneJoint and VRMSpringBoneManager in f64, in the same order (joints sorted after the
 * joints they depend on, colliders in collider-group order) and the same formulas (the tail's Verlet step in the
 * spring's center space, stiffness toward the bone axis through the initial local matrix, gravity, the world-space
 * bone length, collisions, the initial local rotation times the from-to rotation onto the tail).
 *
 * Each apply computes, in scratch and parents first, the world matrices (`world` · model space) of only the joints
 * the springs read (the chains' ancestors, the tails, the colliders' nodes, the centers) from the local pose,
 * updates a joint's matrix and its dependants' right after it is simulated (so its children see it), and writes
 * the joints' rotations into `pose.rotations` (f32). The tails live in a caller-owned {@link SpringState}.
 *
 * Where three-vrm and the specification differ Sinew follows three-vrm: the gravity and stiffness terms scale by
 * dt but the inertia term does not (frame-rate dependent unless `springHz` is set); collider radii are not scaled
 * by the node's scale; a joint's rotation from the clip is replaced (initial local rotation · from-to); and a
 * joint's bone length is measured to its tail joint's world position at the end of the previous apply (three-vrm
 * reads the tail joint's world matrix before the frame updates it), so a chain whose ancestors move keeps
 * three-vrm's tails to the bit of the formula (tests/unit/secondary/three-vrm-springs.test.ts).
 */
export class SpringBoneJob implements SpringSimulator {
  readonly world = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  readonly external = new Float64Array(3);
  enabled = true;
  /** The layout compiled from the asset (shared with the WebAssembly kernel). */
  readonly layout: SpringBoneLayout;
  /** Fixed rate in steps per second, 0 for one step per apply. */
  readonly springHz: number;
  /** Longest step without a fixed rate, seconds. */
  readonly maxDt: number;
  /** World distance a chain root may move in one apply before the springs reset. */
  readonly teleportDistance: number;
  private current: SpringState;
  /** `Float64Array(16n)`: world matrices of the needed joints, column-major at 16j (others unused). */
  private readonly matrices: Float64Array;
  /** `Float64Array(4J)`: the rotation each entry set, f64. */
  private readonly rotations: Float64Array;
  private readonly parentScratch = new Float64Array(16);
  private readonly inverse = new Float64Array(16);
  private readonly next = new Float64Array(3);
  private readonly vec = new Float64Array(3);
  private readonly push = new Float64Array(3);
  private readonly quat = new Float64Array(4);
  private readonly dtBox = new Float64Array(1);

  /**
   * @param springBone the model's spring bones (`ModelAsset.secondaryMotion.springBone`)
   * @param skeleton the model's skeleton; `restPose` its rest pose (three-vrm's initial state)
   * @throws RangeError from {@link compileSpringBoneLayout} for out-of-range joints, or for a springHz, maxDt or
   *   teleportDistance that is negative or not finite
   */
  constructor(springBone: SpringBoneAsset, skeleton: Skeleton, restPose: LocalPose, options: SpringBoneJobOptions = {}) {
    const { springHz = 0, maxDt = DEFAULT_SPRING_MAX_DT, teleportDistance = DEFAULT_SPRING_TELEPORT_DISTANCE } = options;
    for (const [name, v] of [['springHz', springHz], ['maxDt', maxDt], ['teleportDistance', teleportDistance]] as const) {
      if (!Number.isFinite(v) || v < 0) throw new RangeError(`SpringBoneJob: ${name} ${v} is not a finite number ≥ 0`);
    }
    this.springHz = springHz;
    this.maxDt = maxDt;
    this.teleportDistance = teleportDistance;
    this.layout = compileSpringBoneLayout(springBone, skeleton, restPose);
    this.matrices = new Float64Array(16 * skeleton.jointCount);
    this.rotations = new Float64Array(4 * this.layout.jointCount);
    this.current = this.createState();
  }

  /** A new state for this job's layout (not ready: its first apply resets it). */
  createState(): SpringState {
    return new SpringState(this.layout.jointCount, this.layout.springCount);
  }

  /** The state the next apply reads and writes; assign another instance's to run it (a crowd). */
  get state(): SpringState {
    return this.current;
  }

  /** @throws RangeError when `state` was made for another layout */
  set state(state: SpringState) {
    if (state.jointCount !== this.layout.jointCount || state.springCount !== this.layout.springCount) {
      throw new RangeError(`SpringBoneJob: a state of ${state.jointCount} joints / ${state.springCount} springs for a job of ${this.layout.jointCount} / ${this.layout.springCount}`);
    }
    this.current = state;
  }

  step(dt: number): void {
    if (dt > 0 && Number.isFinite(dt)) this.current.pendingSeconds += dt;
  }

  reset(): void {
    this.current.ready = false;
  }

  apply(pose: LocalPose, skeleton: Skeleton): void {
    const state = this.current;
    if (!this.enabled) {
      // Off: the clip's pose stands; turned on again, the springs start from the pose they are given.
      state.ready = false;
      state.pendingSeconds = 0;
      return;
    }
    let steps = 0;
    const hz = this.springHz, dt = this.dtBox;
    if (hz > 0) {
      steps = Math.floor(state.pendingSeconds * hz + 1e-6);
      if (steps > MAX_SPRING_STEPS_PER_APPLY) { steps = MAX_SPRING_STEPS_PER_APPLY; state.pendingSeconds = 0; } else state.pendingSeconds = Math.max(0, state.pendingSeconds - steps / hz);
      dt[0] = 1 / hz;
    } else {
      steps = state.pendingSeconds > 0 ? 1 : 0;
      dt[0] = Math.min(state.pendingSeconds, this.maxDt);
      state.pendingSeconds = 0;
    }
    this.computeNeeded(pose, skeleton);
    if (!state.ready || this.teleported(state)) {
      this.resetTails(pose, skeleton, state);
      state.ready = true;
      state.pendingSeconds = 0;
    } else if (steps === 0) {
      this.reposeFromTails(pose, skeleton, state);
    } else {
      for (let k = 0; k < steps; k++) {
        if (k > 0) this.computeNeeded(pose, skeleton);
        this.simulate(pose, skeleton, state, dt);
      }
    }
    this.storeRoots(state);
    this.storeChildren(state);
  }

  /** World matrices of the needed joints from the pose, parents first. */
  private computeNeeded(pose: LocalPose, skeleton: Skeleton): void {
    const needed = this.layout.needed, parents = skeleton.parents, m = this.matrices;
    for (let i = 0; i < needed.length; i++) {
      const j = needed[i], p = parents[j];
      multiplyTrsAt(m, 16 * j, p < 0 ? this.world : m, p < 0 ? 0 : 16 * p, pose.translations, 3 * j, pose.rotations, 4 * j, pose.scales, 3 * j);
    }
  }

  /** Whether a chain root moved more than the teleport distance since the last apply. */
  private teleported(state: SpringState): boolean {
    const L = this.layout, roots = state.roots, m = this.matrices, limitSq = this.teleportDistance * this.teleportDistance;
    for (let s = 0; s < L.springCount; s++) {
      const o = 16 * L.nodes[L.springRoots[s]];
      const dx = m[o + 12] - roots[3 * s], dy = m[o + 13] - roots[3 * s + 1], dz = m[o + 14] - roots[3 * s + 2];
      if (!(dx * dx + dy * dy + dz * dz <= limitSq)) return true;
    }
    return false;
  }

  private storeRoots(state: SpringState): void {
    const L = this.layout, roots = state.roots, m = this.matrices;
    for (let s = 0; s < L.springCount; s++) {
      const o = 16 * L.nodes[L.springRoots[s]];
      roots[3 * s] = m[o + 12]; roots[3 * s + 1] = m[o + 13]; roots[3 * s + 2] = m[o + 14];
    }
  }

  /** Joint `j`'s matrix again from its parent's (the world matrix for a root) and the pose. */
  private refreshJoint(pose: LocalPose, skeleton: Skeleton, j: number): void {
    const p = skeleton.parents[j], m = this.matrices;
    multiplyTrsAt(m, 16 * j, p < 0 ? this.world : m, p < 0 ? 0 : 16 * p, pose.translations, 3 * j, pose.rotations, 4 * j, pose.scales, 3 * j);
  }

  /** Sets entry e's rotation (f64 in {@link rotations}, f32 in the pose), its matrix, and its dependants' matrices. */
  private setRotation(pose: LocalPose, skeleton: Skeleton, e: number): void {
    const L = this.layout, j = L.nodes[e], r = this.rotations, p = skeleton.parents[j], m = this.matrices;
    const pr = pose.rotations, q4 = 4 * j, e4 = 4 * e;
    pr[q4] = r[e4]; pr[q4 + 1] = r[e4 + 1]; pr[q4 + 2] = r[e4 + 2]; pr[q4 + 3] = r[e4 + 3];
    multiplyTrsAt(m, 16 * j, p < 0 ? this.world : m, p < 0 ? 0 : 16 * p, pose.translations, 3 * j, r, e4, pose.scales, 3 * j);
    for (let i = L.refreshStarts[e], end = L.refreshStarts[e + 1]; i < end; i++) this.refreshJoint(pose, skeleton, L.refresh[i]);
  }

  /** `parentScratch` = the parent's world matrix (the world matrix for a root). */
  private parentMatrix(skeleton: Skeleton, j: number): Float64Array {
    const p = skeleton.parents[j], out = this.parentScratch;
    if (p < 0) out.set(this.world);
    else for (let k = 0; k < 16; k++) out[k] = this.matrices[16 * p + k];
    return out;
  }

  /** three-vrm's `reset`: each joint at its initial local rotation, its tail at the child's initial position, at rest. */
  private resetTails(pose: LocalPose, skeleton: Skeleton, state: SpringState): void {
    const L = this.layout, order = L.order, m = this.matrices, tails = state.tails, prev = state.previousTails, cp = L.childPositions;
    for (let i = 0; i < order.length; i++) {
      const e = order[i], j = L.nodes[e], o = 16 * j, e3 = 3 * e;
      for (let k = 0; k < 4; k++) this.rotations[4 * e + k] = L.initialRotations[4 * e + k];
      this.setRotation(pose, skeleton, e);
      const x = cp[e3], y = cp[e3 + 1], z = cp[e3 + 2], next = this.next;
      next[0] = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
      next[1] = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
      next[2] = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
      this.toCenter(L.centers[e], next);
      tails[e3] = prev[e3] = next[0]; tails[e3 + 1] = prev[e3 + 1] = next[1]; tails[e3 + 2] = prev[e3 + 2] = next[2];
    }
  }

  /** No time to move: each joint turned toward its current tail, in order. */
  private reposeFromTails(pose: LocalPose, skeleton: Skeleton, state: SpringState): void {
    const L = this.layout, order = L.order, tails = state.tails, next = this.next;
    for (let i = 0; i < order.length; i++) {
      const e = order[i], e3 = 3 * e;
      this.refreshJoint(pose, skeleton, L.nodes[e]);
      next[0] = tails[e3]; next[1] = tails[e3 + 1]; next[2] = tails[e3 + 2];
      this.fromCenter(L.centers[e], next);
      this.aimAt(pose, skeleton, e, next);
    }
  }

  /** One step of dt[0] seconds for every joint, in order (three-vrm's `VRMSpringBoneJoint.update`). */
  private simulate(pose: LocalPose, skeleton: Skeleton, state: SpringState, dt: Float64Array): void {
    const L = this.layout, order = L.order, m = this.matrices, tails = state.tails, prev = state.previousTails;
    const st = L.settings, next = this.next, ext = this.external, h = dt[0], lists = L.colliderLists;
    for (let i = 0; i < order.length; i++) {
      const e = order[i], j = L.nodes[e], o = 16 * j, e3 = 3 * e, e8 = 8 * e;
      this.refreshJoint(pose, skeleton, j);
      const bx = m[o + 12], by = m[o + 13], bz = m[o + 14];
      const length = this.boneLength(state, e);
      // The bone axis in world space: the rest direction through the parent's matrix, normalised.
      const P = this.parentMatrix(skeleton, j), ra = L.restAxes;
      let ax = P[0] * ra[e3] + P[4] * ra[e3 + 1] + P[8] * ra[e3 + 2];
      let ay = P[1] * ra[e3] + P[5] * ra[e3 + 1] + P[9] * ra[e3 + 2];
      let az = P[2] * ra[e3] + P[6] * ra[e3 + 1] + P[10] * ra[e3 + 2];
      const al = Math.sqrt(ax * ax + ay * ay + az * az) || 1;
      ax /= al; ay /= al; az /= al;
      // Verlet in center space: the tail keeps (1 − drag) of its last step's motion.
      const keep = 1 - st[e8 + 6];
      next[0] = tails[e3] + (tails[e3] - prev[e3]) * keep;
      next[1] = tails[e3 + 1] + (tails[e3 + 1] - prev[e3 + 1]) * keep;
      next[2] = tails[e3 + 2] + (tails[e3 + 2] - prev[e3 + 2]) * keep;
      this.fromCenter(L.centers[e], next);
      const stiff = st[e8 + 1] * h, grav = st[e8 + 2] * h;
      next[0] += ax * stiff + st[e8 + 3] * grav + ext[0] * h;
      next[1] += ay * stiff + st[e8 + 4] * grav + ext[1] * h;
      next[2] += az * stiff + st[e8 + 5] * grav + ext[2] * h;
      this.constrainLength(next, bx, by, bz, length, ax, ay, az);
      for (let c = L.colliderStarts[e], end = L.colliderStarts[e + 1]; c < end; c++) {
        const distance = collideTail(this.push, L, lists[c], m, next, st, e8);
        if (distance < 0) {
          const push = this.push;
          next[0] -= push[0] * distance; next[1] -= push[1] * distance; next[2] -= push[2] * distance;
          this.constrainLength(next, bx, by, bz, length, ax, ay, az);
        }
      }
      prev[e3] = tails[e3]; prev[e3 + 1] = tails[e3 + 1]; prev[e3 + 2] = tails[e3 + 2];
      const vec = this.vec;
      vec[0] = next[0]; vec[1] = next[1]; vec[2] = next[2];
      this.toCenter(L.centers[e], vec);
      tails[e3] = vec[0]; tails[e3 + 1] = vec[1]; tails[e3 + 2] = vec[2];
      this.aimAt(pose, skeleton, e, next);
    }
  }

  /**
   * `next` moved onto the sphere of radius `length` about the joint (bx, by, bz); a tail at the joint itself goes
   * along the bone axis (a), where three.js's normalize would leave it at the joint and the rotation undefined.
   */
  private constrainLength(next: Float64Array, bx: number, by: number, bz: number, length: number, ax: number, ay: number, az: number): void {
    const dx = next[0] - bx, dy = next[1] - by, dz = next[2] - bz;
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (l > 0 && Number.isFinite(l)) {
      const f = length / l;
      next[0] = bx + dx * f; next[1] = by + dy * f; next[2] = bz + dz * f;
    } else {
      next[0] = bx + ax * length; next[1] = by + ay * length; next[2] = bz + az * length;
    }
  }

  /**
   * The world distance from entry e's joint to its tail (three-vrm's `_calcWorldSpaceBoneLength`): to the tail
   * joint's world position at the end of the last apply (`SpringState.childPositions`), as three-vrm reads the tail
   * joint's world matrix before this frame has updated it, or to the virtual tail through the joint's matrix now.
   */
  private boneLength(state: SpringState, e: number): number {
    const L = this.layout, m = this.matrices, o = 16 * L.nodes[e], e3 = 3 * e;
    let dx: number, dy: number, dz: number;
    if (L.children[e] >= 0) {
      const c = state.childPositions;
      dx = c[e3] - m[o + 12]; dy = c[e3 + 1] - m[o + 13]; dz = c[e3 + 2] - m[o + 14];
    } else {
      const x = L.childPositions[e3], y = L.childPositions[e3 + 1], z = L.childPositions[e3 + 2];
      dx = m[o] * x + m[o + 4] * y + m[o + 8] * z; dy = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z; dz = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z;
    }
    return Math.sqrt(dx * dx + dy * dy + dz * dz);
  }

  /** Each tail joint's world position now, for the next step's bone lengths. */
  private storeChildren(state: SpringState): void {
    const L = this.layout, m = this.matrices, c = state.childPositions;
    for (let e = 0; e < L.jointCount; e++) {
      const child = L.children[e];
      if (child < 0) continue;
      const o = 16 * child;
      c[3 * e] = m[o + 12]; c[3 * e + 1] = m[o + 13]; c[3 * e + 2] = m[o + 14];
    }
  }

  /**
   * Entry e's rotation turning its bone axis toward the world point `tail`: the initial local rotation · the from-to
   * rotation from the bone axis to the tail in the space of (parent's world matrix · initial local matrix).
   */
  private aimAt(pose: LocalPose, skeleton: Skeleton, e: number, tail: Float64Array): void {
    const L = this.layout, P = this.parentMatrix(skeleton, L.nodes[e]), A = this.inverse;
    multiplyAt(A, P, L.initialMatrices, 16 * e);
    const v = this.vec;
    if (invertAffine(A, A)) {
      const x = tail[0], y = tail[1], z = tail[2];
      v[0] = A[0] * x + A[4] * y + A[8] * z + A[12];
      v[1] = A[1] * x + A[5] * y + A[9] * z + A[13];
      v[2] = A[2] * x + A[6] * y + A[10] * z + A[14];
      const l = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (l > 0 && Number.isFinite(l)) { v[0] /= l; v[1] /= l; v[2] /= l; } else { v[0] = L.boneAxes[3 * e]; v[1] = L.boneAxes[3 * e + 1]; v[2] = L.boneAxes[3 * e + 2]; }
    } else {
      v[0] = L.boneAxes[3 * e]; v[1] = L.boneAxes[3 * e + 1]; v[2] = L.boneAxes[3 * e + 2];
    }
    quatFromUnitVectorsAt(this.quat, 0, L.boneAxes, 3 * e, v, 0);
    quatMultiplyAt(this.rotations, 4 * e, L.initialRotations, 4 * e, this.quat, 0);
    this.setRotation(pose, skeleton, e);
  }

  /** A world point into center joint `center`'s space (no change for −1). */
  private toCenter(center: number, p: Float64Array): void {
    if (center < 0) return;
    const inv = this.inverse;
    for (let k = 0; k < 16; k++) inv[k] = this.matrices[16 * center + k];
    if (!invertAffine(inv, inv)) return;
    const x = p[0], y = p[1], z = p[2];
    p[0] = inv[0] * x + inv[4] * y + inv[8] * z + inv[12];
    p[1] = inv[1] * x + inv[5] * y + inv[9] * z + inv[13];
    p[2] = inv[2] * x + inv[6] * y + inv[10] * z + inv[14];
  }

  /** A point in center joint `center`'s space into world space (no change for −1). */
  private fromCenter(center: number, p: Float64Array): void {
    if (center < 0) return;
    const m = this.matrices, o = 16 * center, x = p[0], y = p[1], z = p[2];
    p[0] = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
    p[1] = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
    p[2] = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
  }
}

/** `out = a · b[bo…bo+16)` for affine column-major matrices; `out` must not be `a` or `b`. */
function multiplyAt(out: Float64Array, a: Float64Array, b: Float64Array, bo: number): void {
  for (let c = 0; c < 16; c += 4) {
    const x = b[bo + c], y = b[bo + c + 1], z = b[bo + c + 2], w = b[bo + c + 3];
    out[c] = a[0] * x + a[4] * y + a[8] * z + a[12] * w;
    out[c + 1] = a[1] * x + a[5] * y + a[9] * z + a[13] * w;
    out[c + 2] = a[2] * x + a[6] * y + a[10] * z + a[14] * w;
    out[c + 3] = w;
  }
}
