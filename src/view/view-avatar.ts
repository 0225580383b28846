import type { AvatarController } from '../avatar/avatar-controller.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { firstPersonVisibility } from '../avatar/first-person.ts';

/**
 * A {@link ModelView}'s avatar controls (`view.avatar`): the shown avatar's expressions, look-at target and
 * automatic blinking (`AnimatedModel.avatar`), each change drawn on the next frame. What the element's and the
 * viewer's avatar surfaces call. Without an avatar shown, the setters of look-at and blinking do nothing and the
 * expression calls throw.
 */
export class ViewAvatar {
  /**
   * @param modelOf the shown model's CPU state, or null
   * @param redraw asks the view for a frame
   * @param hideInstances sets the mesh instances the view leaves out (`RenderItem.hiddenInstances`; null: none)
   */
  constructor(private readonly modelOf: () => AnimatedModel | null, private readonly redraw: () => void, private readonly hideInstances: (hidden: Uint8Array | null) => void = () => {}) {}

  /**
   * The first-person view on or off (VRMC_vrm-1.0 `firstPerson.md`, `firstPersonVisibility`): on hides the
   * `thirdPersonOnly` meshes and the `auto` meshes on the head (hair, a separate head), rigid or skinned; off
   * draws every mesh again (`firstPersonOnly` meshes included, as for any model). Applies to the model shown now:
   * a model loaded later is drawn whole. Nothing for a model that is not an avatar.
   */
  setFirstPerson(on: boolean): void {
    const model = this.modelOf();
    if (!model?.avatar && on) return;
    if (!on || !model) {
      this.hideInstances(null);
    } else {
      const hidden = new Uint8Array(model.asset.meshInstances.length);
      for (const i of firstPersonVisibility(model.asset).hiddenInFirstPerson) hidden[i] = 1;
      this.hideInstances(hidden);
    }
    this.redraw();
  }

  /** Whether the shown model is an avatar. */
  get present(): boolean {
    return this.modelOf()?.avatar != null;
  }

  /** The shown avatar's expression names (presets and custom, file order); empty when the model is not an avatar. */
  get availableExpressions(): string[] {
    return this.modelOf()?.avatar?.expressions.names ?? [];
  }

  /**
   * Sets expression `name` to `weight` (clamped to [0, 1]; `AvatarController.setExpression`) and draws again.
   * @throws RangeError when no avatar is shown, it has no such expression, or the weight is not finite
   */
  setExpression(name: string, weight: number): void {
    this.avatarOrThrow().setExpression(name, weight);
    this.redraw();
  }

  /**
   * Expression `name`'s weight.
   * @throws RangeError when no avatar is shown or it has no such expression
   */
  getExpression(name: string): number {
    return this.avatarOrThrow().getExpression(name);
  }

  /**
   * Where the avatar looks: a point in world space (the space the model is drawn in, its display matrix applied),
   * carried into model space now — call again when the point or the placement moves (a camera, a cursor) — or
   * null to stop looking (the eyes as the clip poses them). Nothing for a model without look-at.
   */
  setLookAtTarget(point: readonly [number, number, number] | null): void {
    const model = this.modelOf(), lookAt = model?.avatar?.lookAt;
    if (!model || !lookAt) return;
    if (point) lookAt.setTargetWorld(point, model.world);
    else lookAt.clear();
    this.redraw();
  }

  /** Turns automatic blinking on or off (off by default); its clock runs with the view's frames ({@link tick}). */
  setAutoBlink(on: boolean): void {
    const avatar = this.modelOf()?.avatar;
    if (!avatar) return;
    avatar.autoBlink = on;
    this.redraw();
  }

  /** Moves the automatic blink's clock on by `dtSeconds` (the view calls this each frame). Allocates nothing. */
  tick(dtSeconds: number): void {
    const avatar = this.modelOf()?.avatar;
    if (avatar) avatar.clock[0] += dtSeconds;
  }

  private avatarOrThrow(): AvatarController {
    const avatar = this.modelOf()?.avatar;
    if (!avatar) throw new RangeError('the model shown is not an avatar (no VRM expressions)');
    return avatar;
  }
}
