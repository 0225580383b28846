import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { SecondaryMotion } from '../secondary/secondary-motion.ts';
import type { SpringSimulator } from '../secondary/spring-simulator.ts';
import type { ModelView } from '../view/model-view.ts';
import { readAttribute } from './element-attributes.ts';
import type { SpringVector } from './spring-syntax.ts';

/** What {@link ElementSprings} needs of its `<sinew-viewer>`. */
export interface ElementSpringsOwner {
  /** The element whose `spring-bones`, `gravity`, `wind` and `show-colliders` are read. */
  readonly element: HTMLElement;
  /** The view shown; null while disconnected. */
  currentView(): ModelView | null;
  /** Reports a malformed attribute: console warning and `sinew-error`. */
  report(message: string): void;
}

/** The spring attributes {@link ElementSprings.changed} reacts to. */
export type SpringAttributeName = 'spring-bones' | 'gravity' | 'wind' | 'show-colliders';

/**
 * `<sinew-viewer>`'s spring-bone surface over the shown model's secondary motion (`AnimatedModel.secondaryMotion`:
 * node constraints, then spring bones; VRMC_springBone 1.0, VRMC_node_constraint 1.0): the `spring-bones`,
 * `gravity` and `wind` attributes and `resetSpringBones()`, applied to each model shown (a load, clips added —
 * which makes a new model — and a reconnect).
 *
 * - `spring-bones="off"` turns the spring simulator off (`SpringSimulator.enabled`): the spring joints keep the
 *   clip's pose, the node constraints still run; turned on again the springs start from the pose shown.
 * - `gravity` + `wind` (m/s², world space) are written into `SecondaryMotion.external`, which is added to every
 *   joint's `gravityDir · gravityPower` in the simulator's world space (the model's world matrix, so an
 *   `orientation`-turned model still falls down).
 * - A paused element is a still picture: the view steps the springs by each frame's dt whether or not the clip
 *   plays (three-vrm's `vrm.update(delta)`, so hair settles after a pause in the viewer app), but the element holds
 *   them while paused ({@link HeldWhilePaused}), so a paused page — a screenshot test, a product shot — draws the
 *   same picture frame after frame; the springs move on when it plays. A seek while paused re-poses the spring
 *   joints from where their tails are; `resetSpringBones()` puts them back at the pose shown.
 * Allocates nothing per frame.
 */
export class ElementSprings {
  private on = true;
  private gravity: SpringVector = [0, 0, 0];
  private wind: SpringVector = [0, 0, 0];
  private readonly held = (): boolean => !(this.owner.currentView()?.playback.playing ?? false);

  constructor(private readonly owner: ElementSpringsOwner) {}

  /** Reads the attributes (malformed ones are reported by the element's connect pass, not here). */
  connect(): void {
    this.read(null);
  }

  /** A model is shown (a load, clips added, a reconnect): the attributes apply to its secondary motion now. */
  shown(): void {
    const view = this.owner.currentView();
    const motion = view?.animated?.secondaryMotion ?? null;
    if (!view || !motion) return;
    if (motion.springs && !(motion.springs instanceof HeldWhilePaused)) motion.springs = new HeldWhilePaused(motion.springs, this.held);
    this.apply(motion);
  }

  /** Attribute `name` changed: read (a malformed value reported), applied now and drawn. */
  changed(name: SpringAttributeName): void {
    this.read(name === 'show-colliders' ? null : (message) => this.owner.report(message), name);
    const view = this.owner.currentView();
    const motion = view?.animated?.secondaryMotion ?? null;
    if (!view || !motion) return;
    this.apply(motion);
    view.requestRedraw();
  }

  /**
   * `resetSpringBones()`: the springs of the model shown start again from its pose as drawn next (every tail at its
   * joint's posed rest direction, at rest: `SpringSimulator.reset`), and that frame is drawn. Nothing without a
   * model with spring bones.
   */
  reset(): void {
    const view = this.owner.currentView();
    const springs = view?.animated?.secondaryMotion?.springs;
    if (!view || !springs) return;
    springs.reset();
    view.requestRedraw();
  }

  /** Reads the attributes (all, or the one `only`), reporting malformed values through `report`. */
  private read(report: ((message: string) => void) | null, only?: SpringAttributeName): void {
    const element = this.owner.element;
    if (!only || only === 'spring-bones') this.on = readAttribute(element, 'spring-bones', report).value === 'on';
    if (!only || only === 'gravity') this.gravity = readAttribute(element, 'gravity', report).value;
    if (!only || only === 'wind') this.wind = readAttribute(element, 'wind', report).value;
  }

  /** Writes on/off and gravity + wind into `motion`. */
  private apply(motion: SecondaryMotion): void {
    if (motion.springs) motion.springs.enabled = this.on;
    const g = this.gravity, w = this.wind, e = motion.external;
    e[0] = g[0] + w[0];
    e[1] = g[1] + w[1];
    e[2] = g[2] + w[2];
  }
}

/**
 * A spring simulator that ignores `step` while `held()` says so (the element is paused) and passes everything else
 * to the simulator it wraps: an `apply` without a step re-poses the joints from the tails where they are
 * (`SpringSimulator`), so the picture holds still.
 */
export class HeldWhilePaused implements SpringSimulator {
  constructor(readonly simulator: SpringSimulator, private readonly held: () => boolean) {}

  get world(): Float64Array {
    return this.simulator.world;
  }

  get external(): Float64Array {
    return this.simulator.external;
  }

  get enabled(): boolean {
    return this.simulator.enabled;
  }

  set enabled(on: boolean) {
    this.simulator.enabled = on;
  }

  step(dt: number): void {
    if (!this.held()) this.simulator.step(dt);
  }

  reset(): void {
    this.simulator.reset();
  }

  apply(pose: LocalPose, skeleton: Skeleton): void {
    this.simulator.apply(pose, skeleton);
  }
}
