import type { AppendClipOptions, ClipLayers } from './clip-layers.ts';
import type { Playback } from './playback.ts';

/**
 * A {@link ModelView}'s clip layers (`view.layers`): clips blended over the selected one on the shown model,
 * through its {@link ClipLayers}. Without a model shown every call is a no-op.
 */
export class ViewLayers {
  /**
   * @param layersOf the shown model's layers, or null
   * @param playback the view's clip clock (new layers take its speed)
   * @param redraw asks the view for a frame
   */
  constructor(
    private readonly layersOf: () => ClipLayers | null,
    private readonly playback: Playback,
    private readonly redraw: () => void,
  ) {}

  /**
   * Layers clip `clipIndex` over the selected one with `weight` in [0, 1] (an override layer of the model's
   * animator, looping from the clip's start, added on first use; weight 0 silences it): several clips
   * blended at once. Layers go with the model.
   * @throws RangeError for a clip that does not exist or a weight outside [0, 1]
   */
  setWeight(clipIndex: number, weight: number): void {
    const layers = this.layersOf();
    if (!layers) return;
    layers.setWeight(clipIndex, weight, this.playback.speed);
    this.redraw();
  }

  /**
   * Limits every layered clip (now and later, on this model) to skeleton joint `joint` and the joints below
   * it (`subtreeMask`); −1 lifts the limit. Reset when another model is shown.
   * @throws RangeError for a joint the model does not have
   */
  setMask(joint: number): void {
    const layers = this.layersOf();
    if (!layers) return;
    layers.setMask(joint);
    this.redraw();
  }

  /**
   * `<model-viewer>`'s `appendAnimation` on the shown model: see {@link ClipLayers.append} (the clip's rate is
   * `options.timeScale` times the playback speed).
   * @throws RangeError for a clip that does not exist
   */
  append(clipIndex: number, options: AppendClipOptions): void {
    const layers = this.layersOf();
    if (!layers) return;
    layers.append(clipIndex, options, this.playback.speed);
    this.redraw();
  }

  /** `<model-viewer>`'s `detachAnimation`: see {@link ClipLayers.detach}. @returns false when not appended */
  detach(clipIndex: number, fadeSeconds: number): boolean {
    const detached = this.layersOf()?.detach(clipIndex, fadeSeconds) ?? false;
    if (detached) this.redraw();
    return detached;
  }

  /** Indices of the clips appended and still playing ({@link ClipLayers.appended}); [] without a model. */
  appended(): number[] {
    return this.layersOf()?.appended() ?? [];
  }

  /** Weight of each clip layered over the selected one (clip index → weight), for tools and tests. */
  weights(): Record<number, number> {
    return this.layersOf()?.weights() ?? {};
  }
}
