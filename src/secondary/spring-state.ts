/**
 * One instance's spring-bone state (VRMC_springBone 1.0, "Algorithm": the Verlet integration's current and previous
 * tail positions), caller-owned so one `SpringBoneJob` can run many instances of a model: give each its own state
 * (`job.state = state`) before its `apply`, as ozz-animation's jobs take caller-owned contexts. Made by
 * `SpringBoneJob.createState()` for that job's layout; holds numbers only, so `copyFrom` snapshots and restores a run.
 *
 * Joint e is the e-th simulated joint of the job (springs in file order, each spring's joints parents first, its
 * tail joint not counted).
 */
export class SpringState {
  /** Simulated joints J. */
  readonly jointCount: number;
  /** Springs S. */
  readonly springCount: number;
  /**
   * `Float64Array(3J)`: joint e's current tail at 3e, in its spring's `center` space (world space, the model's
   * units, when the spring has no center), as three-vrm keeps `_currentTail`.
   */
  readonly tails: Float64Array;
  /** `Float64Array(3J)`: joint e's tail one step earlier, same space (three-vrm's `_prevTail`). */
  readonly previousTails: Float64Array;
  /**
   * `Float64Array(3S)`: spring s's first joint's world position at the last `apply`, at 3s: what a teleport (the
   * root moved more than `teleportDistance` in one apply) is measured from.
   */
  readonly roots: Float64Array;
  /**
   * `Float64Array(3J)`: joint e's tail joint's world position at the end of the last apply, at 3e (unused for a
   * virtual tail): what the next step's bone length is measured to, as three-vrm measures it to the tail joint's
   * world matrix as last updated (the previous frame's).
   */
  readonly childPositions: Float64Array;
  /** Whether the tails hold a simulation; false: the next `apply` resets them at the pose it is given. */
  ready = false;
  /** Seconds stepped and not yet simulated (a fixed rate's remainder, or the next apply's dt), ≥ 0. */
  pendingSeconds = 0;

  /** @throws RangeError for a count that is not a non-negative integer */
  constructor(jointCount: number, springCount: number) {
    if (!Number.isInteger(jointCount) || jointCount < 0 || !Number.isInteger(springCount) || springCount < 0) {
      throw new RangeError(`SpringState: ${jointCount} joints and ${springCount} springs are not counts`);
    }
    this.jointCount = jointCount;
    this.springCount = springCount;
    this.tails = new Float64Array(3 * jointCount);
    this.previousTails = new Float64Array(3 * jointCount);
    this.roots = new Float64Array(3 * springCount);
    this.childPositions = new Float64Array(3 * jointCount);
  }

  /**
   * Makes this state equal to `source` (the same layout): a snapshot, or a run restored. Returns this.
   * @throws RangeError when the joint or spring counts differ
   */
  copyFrom(source: SpringState): this {
    if (source.jointCount !== this.jointCount || source.springCount !== this.springCount) {
      throw new RangeError(`SpringState: cannot copy ${source.jointCount} joints / ${source.springCount} springs into ${this.jointCount} / ${this.springCount}`);
    }
    this.tails.set(source.tails);
    this.previousTails.set(source.previousTails);
    this.roots.set(source.roots);
    this.childPositions.set(source.childPositions);
    this.ready = source.ready;
    this.pendingSeconds = source.pendingSeconds;
    return this;
  }
}
