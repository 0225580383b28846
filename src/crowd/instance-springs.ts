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
 * Allocates nothing per frame: the states are made once for the capacity.
 */
export class InstanceSprings {
  /** The crowd evaluator's simulator, which every instance's state is run by. */
  readonly simulator: InstancedSpringSimulator;
  /** Per instance of the capacity, its state. */
  readonly states: readonly SpringState[];
  /** A state the evaluator runs when no instance's is loaded (baked frames, the rest pose): never an instance's. */
  private readonly idle: SpringState;

  /**
   * @param motion the crowd evaluator's secondary motion, with springs
   * @throws RangeError when it has no springs or its simulator keeps one state only
   */
  constructor(motion: SecondaryMotion, capacity: number) {
    const springs = motion.springs;
    if (!springs || !isInstancedSpringSimulator(springs)) throw new RangeError('InstanceSprings: the model has no spring simulator that takes per-instance states');
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
  }

  /**
   * `evaluate()`'s result, the evaluator's springs off meanwhile (the joints as the pose gives them: baked frames) and
   * running a state of no instance, so none is moved or reset.
   */
  atRest<T>(evaluate: () => T): T {
    const simulator = this.simulator;
    simulator.state = this.idle;
    simulator.enabled = false;
    try {
      return evaluate();
    } finally {
      simulator.enabled = true;
    }
  }
}

/** Bytes one instance's `SpringState` of `simulator`'s layout holds (what a crowd adds per instance of its capacity). */
export function springStateBytes(simulator: InstancedSpringSimulator): number {
  const s = simulator.state;
  return 8 * (s.tails.length + s.previousTails.length + s.roots.length + s.childPositions.length) + 16;
}
