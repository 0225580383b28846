import type { AnimationEventList } from '../animation/animation-events.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { PalettePath } from '../gpu/skinning/palette-path.ts';
import type { PlaybackSettings } from './playback.ts';
import type { AddedClips } from './added-clips.ts';

/** What {@link ModelViewListener.shown} reports about a newly shown model. */
export interface ShownModel {
  readonly asset: ModelAsset;
  /** Selected clip index, −1 for the rest pose. */
  readonly clipIndex: number;
  readonly palettePath: PalettePath;
  /**
   * The loader's warnings, preceded by an unknown-clip warning when the requested clip was not found and
   * followed by the images that could not be decoded or transcoded (drawn white).
   */
  readonly warnings: readonly string[];
}

/**
 * What a {@link ModelView} tells its owner (the viewer page's panel and banner, or the custom element).
 * Every method is optional; none may throw.
 */
export interface ModelViewListener {
  /** A model replaced the previous one and is drawn. */
  shown?(model: ShownModel): void;
  /** A frame was drawn (every frame while playing: must not allocate). Times in seconds. */
  drawn?(time: number, duration: number, playing: boolean): void;
  /**
   * Moving time on met loops, ends or markers (`Animator.update`'s list, reused: read it now). Heard before
   * the frame is drawn and before `playingChanged`, only when the list is not empty.
   */
  animationEvents?(events: AnimationEventList): void;
  /** Orbit input moved the camera (a drag, pinch or wheel step), before the redraw it asked for. */
  cameraMoved?(): void;
  /** Playback started or stopped (also when a `once` clip reaches its end while playing). */
  playingChanged?(playing: boolean): void;
  /** Clips from another file were added to the shown model's clip list ({@link ModelView.addClips}). */
  clipsAdded?(added: AddedClips): void;
  /** Another clip was selected (−1: rest pose). */
  clipChanged?(clipIndex: number): void;
  /** Speed, loop mode or crossfade duration changed. */
  settingsChanged?(settings: PlaybackSettings): void;
  /** The palette path changed (after a context restore or a palette request or skinning method change). */
  palettePathChanged?(palettePath: PalettePath): void;
  /** The WebGL context was lost: the loop stopped. */
  contextLost?(): void;
  /** The WebGL context was restored, the model's GL objects with it: drawing goes on. */
  contextRestored?(): void;
  /** Something failed outside a load (a frame could not be drawn, a restore failed). */
  failed?(message: string): void;
}

