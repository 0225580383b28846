import type { AnimatedModel } from '../scene/animated-model.ts';
import type { SecondaryMotion } from '../secondary/secondary-motion.ts';
import { ColliderOverlay } from './collider-overlay.ts';
import type { FrameStage } from './view-frame.ts';

/**
 * A {@link ModelView}'s spring-bone controls (`view.springs`): the shown model's springs
 * (`AnimatedModel.secondaryMotion.springs`) on or off, a wind vector added to every spring joint's gravity, a reset, and
 * the "show colliders" view ({@link ColliderOverlay}, added to the view's stages the first time it is turned on).
 * Each change is drawn on the next frame; a paused view keeps drawing until the springs settle (`ModelView`'s
 * loop). The springs' switch and wind act on the model shown now: a model shown later starts with its springs
 * on and no wind (the viewer's panel sets them again as it shows a model).
 */
export class ViewSprings {
  private overlay: ColliderOverlay | null = null;

  /**
   * @param modelOf the shown model's CPU state, or null
   * @param redraw asks the view for a frame
   * @param addStage adds a stage to every frame of the view (`ModelView.addStage`)
   */
  constructor(private readonly modelOf: () => AnimatedModel | null, private readonly redraw: () => void, private readonly addStage: (stage: FrameStage) => () => void) {}

  /** Whether the shown model has spring bones (VRMC_springBone, VRM 0.x `secondaryAnimation`). */
  get present(): boolean {
    return this.motion()?.springs != null;
  }

  /** Whether the shown model's springs run (false without any). */
  get enabled(): boolean {
    const motion = this.motion();
    return !!motion && motion.enabled && (motion.springs?.enabled ?? false);
  }

  /**
   * Turns the shown model's springs on or off (`SpringSimulator.enabled`; its node constraints, which are part of
   * the rig rather than of the motion, stay on): off, the spring joints are drawn as the clip poses them; on again,
   * the springs start from the pose they are given. Nothing without springs.
   */
  setEnabled(on: boolean): void {
    const springs = this.motion()?.springs;
    if (!springs) return;
    springs.enabled = on;
    this.redraw();
  }

  /**
   * Sets the wind: a world vector `[x, y, z]` added to every spring joint's gravity `gravityDir · gravityPower`
   * (`SecondaryMotion.external`; the m/s² — the same units as gravityPower along gravityDir, which
   * three-vrm moves a tail by times each step's dt). Zero: no wind. Nothing for a model without springs.
   * @throws RangeError when a component is not finite
   */
  setWind(wind: readonly [number, number, number]): void {
    if (!wind.every(Number.isFinite)) throw new RangeError(`wind ${JSON.stringify(wind)} is not a vector of finite numbers`);
    const motion = this.motion();
    if (!motion) return;
    motion.external[0] = wind[0]; motion.external[1] = wind[1]; motion.external[2] = wind[2];
    this.redraw();
  }

  /** The wind of the shown model (`SecondaryMotion.external`), or zero without springs. */
  get wind(): [number, number, number] {
    const e = this.motion()?.external;
    return e ? [e[0], e[1], e[2]] : [0, 0, 0];
  }

  /** The springs start again from the pose of the next frame (`SecondaryMotion.reset`): the hair at rest. */
  reset(): void {
    this.motion()?.reset();
    this.redraw();
  }

  /** Whether the collider outlines are drawn. */
  get showColliders(): boolean {
    return this.overlay?.visible ?? false;
  }

  /** Draws the shown model's colliders over it, or stops ({@link ColliderOverlay}). */
  setShowColliders(on: boolean): void {
    if (on && !this.overlay) {
      this.overlay = new ColliderOverlay();
      this.addStage(this.overlay);
    }
    if (this.overlay) this.overlay.visible = on;
    this.redraw();
  }

  /** Line vertices of the colliders the last frame drew (0 when hidden or the model has none). */
  get drawnColliderVertices(): number {
    return this.overlay?.lastVertexCount ?? 0;
  }

  /** Frees the overlay's GL objects. */
  dispose(): void {
    this.overlay?.dispose();
  }

  private motion(): SecondaryMotion | null {
    return this.modelOf()?.secondaryMotion ?? null;
  }
}
