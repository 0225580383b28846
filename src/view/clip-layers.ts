import type { AnimatedModel } from '../scene/animated-model.ts';
import { subtreeMask } from '../skeleton/subtree-mask.ts';

/**
 * Clips layered over the selected one on one model's animator: each an override layer, added on first use and
 * looping from the clip's start, with its weight; optionally all limited to one joint's subtree. They go with
 * the model (a {@link ModelView} makes a new set for each model it shows).
 */
export class ClipLayers {
  private readonly animated: AnimatedModel;
  /** Per clip index, the animator layer it plays on and its weight in [0, 1]. */
  private readonly layers = new Map<number, { readonly layer: number; weight: number }>();
  /** Joint whose subtree the layers are limited to (−1: the whole skeleton). */
  private maskedJoint = -1;

  constructor(animated: AnimatedModel) {
    this.animated = animated;
  }

  /**
   * Layers clip `clipIndex` with `weight` in [0, 1] (weight 0 silences it; a clip not yet layered is then
   * left out), playing at `speed` when it is added.
   * @throws RangeError for a clip that does not exist or a weight outside [0, 1]
   */
  setWeight(clipIndex: number, weight: number, speed: number): void {
    const animated = this.animated;
    if (!Number.isInteger(clipIndex) || clipIndex < 0 || clipIndex >= animated.clips.length) {
      throw new RangeError(`${animated.asset.name}: clip ${clipIndex} does not exist (${animated.clips.length} clips)`);
    }
    if (!(weight >= 0 && weight <= 1)) throw new RangeError(`layer weight ${weight} is outside [0, 1]`);
    const animator = animated.animator;
    let entry = this.layers.get(clipIndex);
    if (entry === undefined) {
      if (weight === 0) return;
      const layer = animator.addLayer({ weight });
      entry = { layer, weight };
      this.layers.set(clipIndex, entry);
      animator.play(animated.clips[clipIndex], { layer, loop: 'loop', speed });
    }
    entry.weight = weight;
    animator.setLayerWeight(entry.layer, weight);
    if (this.maskedJoint >= 0) animator.setLayerMask(entry.layer, subtreeMask(animated.asset.skeleton, this.maskedJoint));
  }

  /**
   * Limits every layer (now and later) to skeleton joint `joint` and the joints below it (`subtreeMask`);
   * −1 lifts the limit.
   * @throws RangeError for a joint the model does not have
   */
  setMask(joint: number): void {
    const mask = joint >= 0 ? subtreeMask(this.animated.asset.skeleton, joint) : null;
    this.maskedJoint = joint;
    for (const entry of this.layers.values()) this.animated.animator.setLayerMask(entry.layer, mask);
  }

  /** Joint whose subtree every layer is limited to (−1: the whole skeleton), as {@link setMask} set it. */
  get maskJoint(): number {
    return this.maskedJoint;
  }

  /** Weight of each layered clip (clip index → weight). */
  weights(): Record<number, number> {
    const out: Record<number, number> = {};
    for (const [clip, entry] of this.layers) out[clip] = entry.weight;
    return out;
  }
}
