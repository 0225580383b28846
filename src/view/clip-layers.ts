import type { AnimatedModel } from '../scene/animated-model.ts';
import type { ClipPlayer } from '../animation/clip-player.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import { subtreeMask } from '../skeleton/subtree-mask.ts';

/**
 * How {@link ClipLayers.append} layers a clip (`<model-viewer>`'s `appendAnimation` options, read and checked
 * by the caller).
 */
export interface AppendClipOptions {
  /** Layer weight in [0, 1]. */
  readonly weight: number;
  /** The clip's own rate, multiplied by the base speed (the viewer's playback rate); negative plays backwards. */
  readonly timeScale: number;
  /** Seconds over which a clip that starts fades in over the layers below (0: at once). */
  readonly fade: number;
  /** Loop mode and repetitions (integer ≥ 1 or `Infinity`) for a clip that starts; null keeps a running one's. */
  readonly loop: { readonly mode: LoopMode; readonly repetitions: number } | null;
  /** Clip time to start at (or jump a running clip to), seconds, clamped to the clip; null: 0, or where it is. */
  readonly time: number | null;
}

/** One layered clip: its animator layer, weight, own rate, and whether `append` put it there. */
interface LayerEntry {
  readonly layer: number;
  weight: number;
  timeScale: number;
  /** Appended by {@link ClipLayers.append} and not detached since. */
  appended: boolean;
  /** The player `append` last started (the layer plays this clip only), or null. */
  player: ClipPlayer | null;
}

/**
 * Clips layered over the selected one on one model's animator: each an override layer of its own, added on
 * first use, with its weight and own rate; optionally all limited to one joint's subtree. Two ways in: the
 * viewer's weight sliders ({@link setWeight}: looping from the clip's start) and `<model-viewer>`'s
 * `appendAnimation` / `detachAnimation` ({@link append} / {@link detach}: loop mode, repetitions, fades, rate,
 * start time). They go with the model (a {@link ModelView} makes a new set for each model it shows).
 */
export class ClipLayers {
  private readonly animated: AnimatedModel;
  /** Per clip index, its layer. */
  private readonly layers = new Map<number, LayerEntry>();
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
    this.checkClip(clipIndex);
    if (!(weight >= 0 && weight <= 1)) throw new RangeError(`layer weight ${weight} is outside [0, 1]`);
    const animator = this.animated.animator;
    let entry = this.layers.get(clipIndex);
    if (entry === undefined) {
      if (weight === 0) return;
      entry = this.entry(clipIndex, weight);
      animator.play(this.animated.clips[clipIndex], { layer: entry.layer, loop: 'loop', speed });
    }
    entry.weight = weight;
    animator.setLayerWeight(entry.layer, weight);
  }

  /**
   * `<model-viewer>`'s `appendAnimation`: plays clip `clipIndex` on its layer over the selected clip. A clip not
   * running (never appended, detached, or finished) starts with `options.loop` (absent: looping for ever) at
   * `options.time` (absent: 0), fading in over `options.fade` seconds; a running one keeps playing and takes the
   * new weight, rate, time and (when given) loop mode and repetitions, whose count then starts over.
   * @param baseSpeed the viewer's playback rate, which multiplies `options.timeScale`
   * @throws RangeError for a clip that does not exist (the caller checks the options)
   */
  append(clipIndex: number, options: AppendClipOptions, baseSpeed: number): void {
    this.checkClip(clipIndex);
    const animator = this.animated.animator;
    const entry = this.layers.get(clipIndex) ?? this.entry(clipIndex, options.weight);
    entry.weight = options.weight;
    entry.timeScale = options.timeScale;
    animator.setLayerWeight(entry.layer, options.weight);
    const speed = options.timeScale * baseSpeed;
    const player = entry.player;
    if (entry.appended && player && animator.player(entry.layer) === player && !player.finished) {
      player.speed = speed;
      if (options.time !== null) player.seek(options.time);
      if (options.loop) {
        player.loop = options.loop.mode;
        player.repetitions = options.loop.repetitions;
        player.restartCount();
      }
    } else {
      const clip = this.animated.clips[clipIndex];
      const loop = options.loop ?? { mode: 'loop' as const, repetitions: Infinity };
      const startTime = options.time === null ? undefined : Math.min(Math.max(options.time, 0), clip.duration);
      entry.player = animator.play(clip, {
        layer: entry.layer, loop: loop.mode, repetitions: loop.mode === 'once' ? Infinity : loop.repetitions,
        speed, fade: options.fade, startTime,
      });
    }
    entry.appended = true;
  }

  /**
   * `<model-viewer>`'s `detachAnimation`: fades clip `clipIndex`'s layer out over `fadeSeconds` (0: at once)
   * to the layers below. @returns false when the clip is not appended
   */
  detach(clipIndex: number, fadeSeconds: number): boolean {
    const entry = this.layers.get(clipIndex);
    if (!entry || !entry.appended) return false;
    entry.appended = false;
    this.animated.animator.stop(entry.layer, Math.max(0, fadeSeconds));
    return true;
  }

  /**
   * Indices of the clips appended and still playing, in the order first layered (`<model-viewer>`'s
   * `appendedAnimations`: a clip that finished its repetitions leaves the list, its pose held).
   */
  appended(): number[] {
    const out: number[] = [];
    for (const [clip, entry] of this.layers) {
      if (entry.appended && entry.player && !entry.player.finished) out.push(clip);
    }
    return out;
  }

  /** The viewer's playback rate changed: each layered clip plays at its own rate times `speed`. */
  setBaseSpeed(speed: number): void {
    for (const entry of this.layers.values()) this.animated.animator.setLayerSpeed(entry.layer, entry.timeScale * speed);
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

  /** A new layer for clip `clipIndex` (masked as the others), recorded. */
  private entry(clipIndex: number, weight: number): LayerEntry {
    const animator = this.animated.animator;
    const layer = animator.addLayer({ weight });
    if (this.maskedJoint >= 0) animator.setLayerMask(layer, subtreeMask(this.animated.asset.skeleton, this.maskedJoint));
    const entry: LayerEntry = { layer, weight, timeScale: 1, appended: false, player: null };
    this.layers.set(clipIndex, entry);
    return entry;
  }

  private checkClip(clipIndex: number): void {
    const animated = this.animated;
    if (!Number.isInteger(clipIndex) || clipIndex < 0 || clipIndex >= animated.clips.length) {
      throw new RangeError(`${animated.asset.name}: clip ${clipIndex} does not exist (${animated.clips.length} clips)`);
    }
  }
}
