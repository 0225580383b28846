import type { ModelAsset } from '../asset/model-asset.ts';
import { KernelArena } from '../pose/kernel-arena.ts';
import { createSpringKernel, springKernelArenaBytes, SpringKernel } from '../pose/spring-kernel.ts';
import type { SecondaryMotion } from '../secondary/secondary-motion.ts';
import type { SpringSimulator } from '../secondary/spring-simulator.ts';
import { SpringState } from '../secondary/spring-state.ts';

/**
 * A spring simulator that runs many instances of one model, one caller-owned `SpringState` each: the portable
 * `SpringBoneJob` and the WebAssembly `SpringKernel` both are.
 */
export interface InstancedSpringSimulator extends SpringSimulator {
  /** The state the next `apply` reads and writes; assign an instance's to run it. */
  state: SpringState;
  /** A new state for this simulator's layout (not ready: its first `apply` resets it). */
  createState(): SpringState;
}

/** Whether `springs` takes per-instance states ({@link InstancedSpringSimulator}). */
export function isInstancedSpringSimulator(springs: SpringSimulator): springs is InstancedSpringSimulator {
  return typeof (springs as Partial<InstancedSpringSimulator>).createState === 'function' && 'state' in springs;
}

/**
 * The spring bones of a live crowd's instances (VRMC_springBone 1.0): one `SpringState` per instance of the
 * capacity, run by the crowd evaluator's one simulator (`AnimatedModel.secondaryMotion.springs`, the spring kernel
 * where WebAssembly runs, else the portable job), as ozz-animation's jobs take caller-owned contexts. Time moves
 * per instance by {@link step} (the crowd's `update`); {@link load} puts an instance's state in place before its
 * pose is evaluated, whose `apply` then advances it by the time stepped (or resets it: a new instance, a teleport
 * of more than the simulator's `teleportDistance`, measured on the springs' roots in world space). Node
 * constraints hold no state: they run in every evaluation as they do on a single model.
 *
 * Where the evaluator's springs run on the spring kernel (`SpringKernel`), the crowd gets a kernel of its own whose
 * memory also holds every instance's state block ({@link blockAt}): an instance runs on its block in place
 * (`SpringKernel.bindBlock`), no state copied in or out per evaluation; its `SpringState` then carries its `ready`
 * flag and pending seconds alone. The pose is copied into that memory and the rotations out (`SpringKernel.apply`
 * on a pose elsewhere), as plain array copies.
 *
 * Allocates nothing per frame: the states and blocks are made once for the capacity.
 */
export class InstanceSprings {
  /** The crowd evaluator's simulator, which every instance's state is run by. */
  readonly simulator: InstancedSpringSimulator;
  /** Per instance of the capacity, its state. */
  readonly states: readonly SpringState[];
  /** A state the evaluator runs when no instance's is loaded (baked frames, the rest pose): never an instance's. */
  private readonly idle: SpringState;
  /** The crowd's spring kernel, whose memory holds the instances' blocks, or null (the portable job runs). */
  private readonly kernel: SpringKernel | null;
  /** Byte offset of instance 0's block in {@link kernel}'s memory (instance k's at `+ k · kernel.stateBytes`), or −1. */
  readonly blockAt: number;

  /**
   * @param motion the crowd evaluator's secondary motion (of `asset`), with springs; a spring kernel there is
   *   replaced by the crowd's (see the class comment)
   * @throws RangeError when it has no springs or its simulator keeps one state only
   */
  constructor(asset: ModelAsset, motion: SecondaryMotion, capacity: number) {
    const springBone = asset.secondaryMotion?.springBone, given = motion.springs;
    if (!given || !springBone || !isInstancedSpringSimulator(given)) throw new RangeError('InstanceSprings: the model has no spring simulator that takes per-instance states');
    let springs: InstancedSpringSimulator = given, kernel: SpringKernel | null = null, blockAt = -1;
    if (springs instanceof SpringKernel) {
      const bytes = springKernelArenaBytes(springBone, asset.skeleton, asset.restPose) + capacity * springs.stateBytes + 64;
      const pages = Math.ceil(bytes / 65536);
      const arena = new KernelArena(new WebAssembly.Memory({ initial: pages }), 0, 65536 * pages);
      kernel = createSpringKernel(springBone, asset.skeleton, asset.restPose, { arena });
      if (kernel) {
        blockAt = arena.allocate(capacity * kernel.stateBytes);
        springs = motion.springs = kernel;
      }
    }
    this.kernel = kernel;
    this.blockAt = blockAt;
    this.simulator = springs;
    this.idle = springs.state;
    this.states = Array.from({ length: capacity }, () => springs.createState());
  }

  /** Instance k's springs start again from the pose of its next evaluation (a new instance; `Crowd.resetSprings`). */
  reset(k: number): void {
    const state = this.states[k];
    state.ready = false;
    state.pendingSeconds = 0;
  }

  /** Adds `dt` seconds to instance k's next evaluation (`SpringSimulator.step`; dt ≤ 0 or not finite adds nothing). */
  step(k: number, dt: number): void {
    const state = this.states[k];
    if (dt > 0 && Number.isFinite(dt)) state.pendingSeconds += dt;
  }

  /**
   * Instances 0 … count−1 each {@link step} by `dt` seconds; `dt` NaN (baked mode) {@link reset}s them instead, so
   * live mode starts them again at rest. Allocates nothing.
   */
  stepAll(count: number, dt: number): void {
    const states = this.states, reset = Number.isNaN(dt);
    for (let k = 0; k < count; k++) {
      const state = states[k];
      if (reset) { state.ready = false; state.pendingSeconds = 0; } else if (dt > 0 && Number.isFinite(dt)) state.pendingSeconds += dt;
    }
  }

  /** The simulator runs instance k's state in the next evaluation. */
  load(k: number): void {
    this.simulator.state = this.states[k];
    if (this.kernel) this.kernel.bindBlock(this.blockAt + k * this.kernel.stateBytes);
  }

  /**
   * `evaluate()`'s result, the evaluator's springs off meanwhile (the joints as the pose gives them: baked frames) and
   * running a state of no instance, so none is moved or reset.
   */
  atRest<T>(evaluate: () => T): T {
    const simulator = this.simulator;
    simulator.state = this.idle;
    this.kernel?.bindBlock(-1);
    simulator.enabled = false;
    try {
      return evaluate();
    } finally {
      simulator.enabled = true;
    }
  }
}

/**
 * Bytes a crowd adds per instance of its capacity for `simulator`'s springs: a `SpringState` of its layout, and on
 * the spring kernel the instance's state block (`SpringKernel.stateBytes`).
 */
export function springStateBytes(simulator: InstancedSpringSimulator): number {
  const s = simulator.state, block = simulator instanceof SpringKernel ? simulator.stateBytes : 0;
  return 8 * (s.tails.length + s.previousTails.length + s.roots.length + s.childPositions.length) + 16 + block;
}
