import type { SpringBoneAsset } from '../asset/secondary-motion-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { SpringSimulator } from '../secondary/spring-simulator.ts';
import { SpringState } from '../secondary/spring-state.ts';
import { DEFAULT_SPRING_MAX_DT, DEFAULT_SPRING_TELEPORT_DISTANCE, MAX_SPRING_STEPS_PER_APPLY, type SpringBoneJobOptions } from '../secondary/spring-bone-job.ts';
import { EmbeddedModule } from '../wasm/embedded-module.ts';
import { KernelArena } from './kernel-arena.ts';
import { layoutSpringKernel, SPRING_RECORD_BYTES, SPRING_STATE_BYTES, WORLD_SLOT, type SpringKernelLayout } from './spring-kernel-layout.ts';
import { SPRING_KERNEL_WASM_BASE64 } from './wasm/spring-kernel-binary.ts';

/** {@link createSpringKernel} settings: the portable job's time options (`springHz`, `maxDt`, `teleportDistance`, the same defaults), and: */
export interface SpringKernelOptions extends SpringBoneJobOptions {
  /** `'auto'` (default): WebAssembly SIMD where the platform compiles it, else none (null); `'js'`: none. */
  readonly backend?: 'auto' | 'js';
  /** The character's pose kernel's arena (`PoseKernel.arena`); absent or full: a memory of its own. */
  readonly arena?: KernelArena | null;
}

/** Scratch bytes the kernel's stage needs. */
const SCRATCH_BYTES = 576;

/**
 * The WebAssembly SIMD back end of the spring bones (src/pose/wasm/spring-kernel.as.ts): the same algorithm as
 * the portable `SpringBoneJob` (three-vrm 3.5.5's VRMSpringBoneJoint and VRMSpringBoneManager, after
 * VRMC_springBone 1.0's README, "Algorithm"), in f64 like it, two chains per f64x2 stepped depth by depth
 * (layout: `layoutSpringKernel`). A {@link SpringSimulator}: `AnimatedModel` puts it in place of the portable
 * job when its pose kernel runs WebAssembly. Lays out once, in the pose kernel's arena when given one (the pose
 * it is applied to is then read and written in place; any other pose is copied in and its rotations out);
 * allocates nothing per frame.
 *
 * Per frame (`apply`): `prepare` (the world matrices of the nodes the springs read, from the local pose, and
 * the colliders in world space), then `springs` (one call per fixed step; {@link runStage} is that stage alone,
 * a separately callable step). State: a caller-owned `SpringState` per instance, as the portable job's
 * ({@link state}; swap it to run another instance), copied into the kernel's block ({@link stateBytes} bytes at
 * {@link stateAt}, lane order) before the stage and back after.
 *
 * Where three-vrm and the specification differ it follows what the portable job follows (three-vrm; see
 * `SpringBoneJob`). Its schedule differs from the job's order in one way that cannot change a result: colliders
 * and centres are posed once per step before the springs move, which {@link springKernelApplies} checks (no
 * collider or centre below a spring joint, no node in two springs). Lanes are f64, not float32: the tails are
 * integrated over the run, and rounding them to float32 alone already moves a walking character's joints by more
 * than the 1e-6-of-the-diagonal agreement with the job that tests/unit/pose/spring-kernel*.test.ts hold it to.
 */
export class SpringKernel implements SpringSimulator {
  readonly world = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  readonly external = new Float64Array(3);
  enabled = true;
  /** The layout's joints in state order (per record, lane 0 then 1; null for padding). */
  readonly layout: SpringKernelLayout;
  /** Bytes of one instance's state block. */
  readonly stateBytes: number;
  private readonly exports: KernelExports;
  private readonly memory: WebAssembly.Memory;
  private readonly springHz: number;
  private readonly maxDt: number;
  private readonly teleport2: number;
  /** Byte offsets: matrices, program, colliders in/out, groups, scratch, the state block, the staging pose. */
  private readonly at: { mats: number; program: number; ops: number; colliders: number; colliderCount: number; out: number; groups: number; groupCount: number; scratch: number; params: number; t: number; r: number; s: number };
  /** Byte offset of the kernel's state block (the current {@link state} is copied in and out around each apply). */
  readonly stateAt: number;
  /** Byte offset of the block the stage runs on: {@link stateAt}, or the one {@link bindBlock} bound. */
  private activeAt: number;
  private readonly mats: Float64Array;
  /** In kernel memory: dt, the external vector, the roots' travel² (doubles passed to or from a call would be boxed). */
  private readonly params: Float64Array;
  private readonly block: Float64Array;
  private readonly staging: { t: Float32Array; r: Float32Array; s: Float32Array };
  /** Per record and lane (2r + lane): the `SpringState` entry it simulates, −1 for padding; the spring it starts (index 0), else −1. */
  private readonly entryOf: Int32Array;
  private readonly springOf: Int32Array;
  /** Per record and lane: 1 where the joint's tail is a joint (its world position is kept for the bone length). */
  private readonly hasChild: Uint8Array;
  private readonly jointCount: number;
  private readonly springCount: number;
  private current: SpringState;

  /** Use {@link createSpringKernel}. */
  constructor(module: WebAssembly.Module, asset: SpringBoneAsset, skeleton: Skeleton, rest: LocalPose, options: SpringKernelOptions = {}) {
    const layout = layoutSpringKernel(asset, skeleton, rest), n = skeleton.jointCount;
    this.layout = layout;
    this.springHz = options.springHz ?? 0;
    this.maxDt = options.maxDt ?? DEFAULT_SPRING_MAX_DT;
    const teleport = options.teleportDistance ?? DEFAULT_SPRING_TELEPORT_DISTANCE;
    this.teleport2 = teleport * teleport;
    const groupCount = layout.groups.length / 4, colliderCount = layout.colliders.length / 10, entryCount = layout.entries.length / 2;
    this.stateBytes = SPRING_STATE_BYTES * layout.recordCount;
    const bytes = layoutBytes(layout, n);
    let arena = options.arena ?? null;
    if (arena === null || arena.free < bytes) {
      const size = Math.ceil(bytes / 65536) * 65536;
      arena = new KernelArena(new WebAssembly.Memory({ initial: size / 65536 }), 0, size);
    }
    this.memory = arena.memory;
    this.exports = arena.exportsOf(module) as unknown as KernelExports;
    const buffer = arena.memory.buffer;
    const mats = arena.allocate(96 * layout.slots), program = arena.allocate(4 * layout.program.length);
    const colliders = arena.allocate(80 * colliderCount), out = arena.allocate(80 * colliderCount);
    const groups = arena.allocate(16 * groupCount), entries = arena.allocate(32 * entryCount);
    const records = arena.allocate(layout.records.byteLength), state = arena.allocate(this.stateBytes);
    const scratch = arena.allocate(SCRATCH_BYTES), params = arena.allocate(48);
    const t = arena.allocate(12 * n), r = arena.allocate(16 * n), s = arena.allocate(12 * n);
    this.mats = new Float64Array(buffer, mats, 12 * layout.slots);
    for (const slot of [0, 1, WORLD_SLOT]) this.mats.set([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 12 * slot);
    new Int32Array(buffer, program, layout.program.length).set(layout.program);
    new Float64Array(buffer, colliders, layout.colliders.length).set(layout.colliders);
    const words = new Int32Array(buffer);
    for (let g = 0; g < groupCount; g++) {
      const o = (groups >> 2) + 4 * g, src = layout.groups.subarray(4 * g, 4 * g + 4);
      words.set([src[0], records + SPRING_RECORD_BYTES * src[1], entries + 32 * src[2], src[3]], o);
    }
    for (let e = 0; e < entryCount; e++) {
      const o = (entries >> 2) + 8 * e, lanes = layout.entries[2 * e + 1];
      words.set([layout.entries[2 * e], 0, 0, 0, lanes & 1 ? -1 : 0, lanes & 1 ? -1 : 0, lanes & 2 ? -1 : 0, lanes & 2 ? -1 : 0], o);
    }
    new Uint8Array(buffer, records, layout.records.byteLength).set(new Uint8Array(layout.records));
    this.stateAt = state;
    this.activeAt = state;
    this.block = new Float64Array(buffer, state, this.stateBytes >> 3);
    const starts: number[] = [];
    let simulated = 0;
    for (const spring of asset.springs) {
      starts.push(simulated);
      simulated += spring.virtualTail ? spring.joints.length : Math.max(0, spring.joints.length - 1);
    }
    this.jointCount = simulated;
    this.springCount = asset.springs.length;
    this.entryOf = Int32Array.from(layout.lanes, (joint) => joint === null ? -1 : starts[joint.spring] + joint.index);
    this.springOf = Int32Array.from(layout.lanes, (joint) => joint === null || joint.index > 0 ? -1 : joint.spring);
    this.current = this.createState();
    this.at = { mats, program, ops: layout.program.length / 4, colliders, colliderCount, out, groups, groupCount, scratch, params, t, r, s };
    this.params = new Float64Array(buffer, params, 6);
    this.hasChild = Uint8Array.from(layout.lanes, (joint) => joint !== null && asset.springs[joint.spring].joints.length > joint.index + 1 ? 1 : 0);
    this.staging = { t: new Float32Array(buffer, t, 3 * n), r: new Float32Array(buffer, r, 4 * n), s: new Float32Array(buffer, s, 3 * n) };
  }

  /** A new state for this kernel's springs (not ready: its first apply resets it); the portable job's layout. */
  createState(): SpringState {
    return new SpringState(this.jointCount, this.springCount);
  }

  /** The state the next apply reads and writes (`SpringState`, as the portable job's); assign another instance's to run it. */
  get state(): SpringState {
    return this.current;
  }

  /** @throws RangeError when `state` was made for other springs */
  set state(state: SpringState) {
    if (state.jointCount !== this.jointCount || state.springCount !== this.springCount) {
      throw new RangeError(`SpringKernel: a state of ${state.jointCount} joints / ${state.springCount} springs for a kernel of ${this.jointCount} / ${this.springCount}`);
    }
    this.current = state;
  }

  step(dt: number): void {
    if (dt > 0 && Number.isFinite(dt)) this.current.pendingSeconds += dt;
  }

  /**
   * Runs the next applies on the state block at byte offset `at` of the kernel's memory ({@link stateBytes} bytes,
   * 16-aligned; an instance's block a crowd keeps there, e.g. from the arena the kernel was made in) in place, with
   * no copy: {@link state} then carries only its `ready` flag and pending seconds, its arrays are neither read nor
   * written. −1: the kernel's own block again, copied from and to {@link state}. A block is valid after an apply
   * with a state that was not ready (a reset writes all of it). Allocates nothing.
   * @throws RangeError for an offset outside the kernel's memory or not 16-aligned
   */
  bindBlock(at: number): void {
    if (at === -1) { this.activeAt = this.stateAt; return; }
    if (!Number.isInteger(at) || at < 0 || (at & 15) !== 0 || at + this.stateBytes > this.memory.buffer.byteLength) {
      throw new RangeError(`SpringKernel: a state block at byte ${at} is not a 16-aligned block of ${this.stateBytes} bytes in the kernel's memory`);
    }
    this.activeAt = at;
  }

  reset(): void {
    this.current.ready = false;
  }

  /**
   * `SpringSimulator.apply`: the spring joints' rotations in `pose` from the simulation advanced by the pending
   * time, as the portable job's `apply` (the same steps, resets and teleport check). The skeleton is the one the
   * kernel was made for (its layout holds what it needs).
   */
  apply(pose: LocalPose, _skeleton?: Skeleton): void {
    const state = this.current;
    if (!this.enabled) {
      state.ready = false;
      state.pendingSeconds = 0;
      return;
    }
    let steps = 0, dt = 0;
    const hz = this.springHz;
    if (hz > 0) {
      steps = Math.floor(state.pendingSeconds * hz + 1e-6);
      if (steps > MAX_SPRING_STEPS_PER_APPLY) { steps = MAX_SPRING_STEPS_PER_APPLY; state.pendingSeconds = 0; } else state.pendingSeconds = Math.max(0, state.pendingSeconds - steps / hz);
      dt = 1 / hz;
    } else {
      steps = state.pendingSeconds > 0 ? 1 : 0;
      dt = Math.min(state.pendingSeconds, this.maxDt);
      state.pendingSeconds = 0;
    }
    const buffer = this.memory.buffer, at = this.at;
    const inside = pose.translations.buffer === buffer && pose.rotations.buffer === buffer && pose.scales.buffer === buffer;
    let t = at.t, r = at.r, s = at.s;
    if (inside) {
      t = pose.translations.byteOffset; r = pose.rotations.byteOffset; s = pose.scales.byteOffset;
    } else {
      this.staging.t.set(pose.translations);
      this.staging.r.set(pose.rotations);
      this.staging.s.set(pose.scales);
    }
    const w = this.world, m = this.mats, o = 12 * WORLD_SLOT;
    m[o] = w[0]; m[o + 1] = w[1]; m[o + 2] = w[2]; m[o + 3] = w[4]; m[o + 4] = w[5]; m[o + 5] = w[6];
    m[o + 6] = w[8]; m[o + 7] = w[9]; m[o + 8] = w[10]; m[o + 9] = w[12]; m[o + 10] = w[13]; m[o + 11] = w[14];
    this.exports.prepare(at.mats, at.program, at.ops, t, r, s, at.colliders, at.colliderCount, at.out);
    let travel = 0;
    const bound = this.activeAt !== this.stateAt;
    if (state.ready) {
      if (!bound) this.loadBlock(state);
      this.exports.rootTravel(at.mats, at.groups, at.groupCount, this.activeAt, at.scratch, at.params + 32);
      travel = this.params[4];
    }
    const params = this.params, e = this.external;
    params[1] = e[0]; params[2] = e[1]; params[3] = e[2];
    // Each tail joint's world position is kept at the end of the apply (its last stage), for the next apply's
    // bone lengths, as the portable job keeps `SpringState.childPositions`.
    params[5] = 1;
    if (!state.ready || !(travel <= this.teleport2)) {
      params[0] = 0;
      this.stage(r, 2);
      state.ready = true;
      state.pendingSeconds = 0;
    } else if (steps === 0) {
      params[0] = 0;
      this.stage(r, 0);
    } else {
      params[0] = dt;
      for (let k = 0; k < steps; k++) {
        params[5] = k === steps - 1 ? 1 : 0;
        this.stage(r, 1);
      }
    }
    if (!bound) this.saveBlock(state);
    if (!inside) pose.rotations.set(this.staging.r);
  }

  /**
   * The spring stage alone on the kernel's state block ({@link stateAt}, or the one {@link bindBlock} bound), the frame's matrices as the last
   * `prepare` left them: `mode` 0 poses from the tails, 1 advances by `dt` seconds, 2 resets. `rotations`: byte
   * offset of the pose's rotations in kernel memory. Allocates nothing.
   */
  runStage(rotations: number, dt: number, mode: 0 | 1 | 2): void {
    const params = this.params, e = this.external;
    params[0] = dt; params[1] = e[0]; params[2] = e[1]; params[3] = e[2]; params[5] = 1;
    this.stage(rotations, mode);
  }

  /** The stage with dt and the external vector as {@link params} holds them. */
  private stage(rotations: number, mode: number): void {
    const at = this.at;
    this.exports.springs(at.mats, at.out, at.groups, at.groupCount, this.activeAt, rotations, at.scratch, at.params, mode);
  }

  /** `state`'s tails, roots and tail joints' positions into the kernel's block (its lane order). */
  private loadBlock(state: SpringState): void {
    const block = this.block, entryOf = this.entryOf, springOf = this.springOf, hasChild = this.hasChild;
    const tails = state.tails, previous = state.previousTails, roots = state.roots, children = state.childPositions;
    for (let i = 0; i < entryOf.length; i++) {
      const e = entryOf[i];
      if (e < 0) continue;
      const b = 24 * (i >> 1) + (i & 1), e3 = 3 * e;
      block[b] = tails[e3]; block[b + 2] = tails[e3 + 1]; block[b + 4] = tails[e3 + 2];
      block[b + 6] = previous[e3]; block[b + 8] = previous[e3 + 1]; block[b + 10] = previous[e3 + 2];
      const s = springOf[i];
      if (s >= 0) { block[b + 12] = roots[3 * s]; block[b + 14] = roots[3 * s + 1]; block[b + 16] = roots[3 * s + 2]; }
      if (hasChild[i]) { block[b + 18] = children[e3]; block[b + 20] = children[e3 + 1]; block[b + 22] = children[e3 + 2]; }
    }
  }

  /** The kernel's block into `state`. */
  private saveBlock(state: SpringState): void {
    const block = this.block, entryOf = this.entryOf, springOf = this.springOf, hasChild = this.hasChild;
    const tails = state.tails, previous = state.previousTails, roots = state.roots, children = state.childPositions;
    for (let i = 0; i < entryOf.length; i++) {
      const e = entryOf[i];
      if (e < 0) continue;
      const b = 24 * (i >> 1) + (i & 1), e3 = 3 * e;
      tails[e3] = block[b]; tails[e3 + 1] = block[b + 2]; tails[e3 + 2] = block[b + 4];
      previous[e3] = block[b + 6]; previous[e3 + 1] = block[b + 8]; previous[e3 + 2] = block[b + 10];
      const s = springOf[i];
      if (s >= 0) { roots[3 * s] = block[b + 12]; roots[3 * s + 1] = block[b + 14]; roots[3 * s + 2] = block[b + 16]; }
      if (hasChild[i]) { children[e3] = block[b + 18]; children[e3 + 1] = block[b + 20]; children[e3 + 2] = block[b + 22]; }
    }
  }
}

/** Bytes a kernel of `layout` over n joints takes from an arena (every block rounded up to 16). */
function layoutBytes(layout: SpringKernelLayout, n: number): number {
  const colliderCount = layout.colliders.length / 10;
  return 96 * layout.slots + 4 * layout.program.length + 160 * colliderCount + 4 * layout.groups.length + 16 * layout.entries.length
    + layout.records.byteLength + SPRING_STATE_BYTES * layout.recordCount + SCRATCH_BYTES + 40 * n + 16 * 12;
}

/**
 * Bytes of a pose kernel's arena (`PoseKernelOptions.arenaBytes`) a {@link SpringKernel} for `asset` on
 * `skeleton` lays out in: add it to the sampling kernels' (`samplingArenaBytes`) so the springs work on the
 * pose in place.
 */
export function springKernelArenaBytes(asset: SpringBoneAsset, skeleton: Skeleton, rest: LocalPose): number {
  return layoutBytes(layoutSpringKernel(asset, skeleton, rest), skeleton.jointCount);
}

/** The kernel module's exports (byte offsets into its memory; layout in spring-kernel.as.ts). */
interface KernelExports {
  prepare(mats: number, program: number, ops: number, t: number, r: number, s: number, colliders: number, count: number, out: number): void;
  springs(mats: number, colliders: number, groups: number, groupCount: number, state: number, r: number, scratch: number, params: number, mode: number): void;
  rootTravel(mats: number, groups: number, groupCount: number, state: number, scratch: number, out: number): void;
}

const compiled = new EmbeddedModule(SPRING_KERNEL_WASM_BASE64);

/**
 * Whether the kernel's schedule (chains stepped two at a time, a chain after the chains above it, colliders and
 * centres posed before the springs move) is the portable job's order for `asset`: not when two springs simulate
 * one node (the job's order then decides which rotation stands and what the joints below read), nor when a
 * collider or a centre moves with a spring joint (the job re-poses it after that joint).
 */
export function springKernelApplies(asset: SpringBoneAsset, skeleton: Skeleton): boolean {
  const simulated = new Set<number>();
  for (const spring of asset.springs) {
    const count = spring.virtualTail ? spring.joints.length : spring.joints.length - 1;
    for (let k = 0; k < count; k++) {
      if (simulated.has(spring.joints[k].node)) return false;
      simulated.add(spring.joints[k].node);
    }
  }
  const moved = (node: number): boolean => {
    for (let a = node; a >= 0; a = skeleton.parents[a]) if (simulated.has(a)) return true;
    return false;
  };
  return !asset.colliders.some((collider) => moved(collider.node)) && !asset.springs.some((spring) => spring.center >= 0 && moved(spring.center));
}

/**
 * A {@link SpringKernel} for `asset`'s springs on `skeleton` (`rest`: the pose whose rotations are the joints'
 * initial local rotations), or null with `backend: 'js'`, where the platform cannot compile the module, or for
 * springs the kernel's schedule does not fit ({@link springKernelApplies}): the portable `SpringBoneJob` then runs.
 */
export function createSpringKernel(asset: SpringBoneAsset, skeleton: Skeleton, rest: LocalPose, options: SpringKernelOptions = {}): SpringKernel | null {
  if (options.backend === 'js' || !springKernelApplies(asset, skeleton)) return null;
  const module = compiled.get();
  return module ? new SpringKernel(module, asset, skeleton, rest, options) : null;
}
