import type { LoopMode } from '../animation/loop-mode.ts';
import type { PalettePath } from '../gpu/skinning/palette-path.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import type { LoadedModel } from './loaded-model.ts';
import type { Playback } from './playback.ts';

/** Snapshot of what a {@link ModelView} shows, for tests and tooling. */
export interface ModelViewState {
  /** Name of the model drawn ('' before the first). */
  readonly model: string;
  /** Name of the selected clip, or null for the rest pose. */
  readonly clip: string | null;
  /** Index of the selected clip, −1 for the rest pose. */
  readonly clipIndex: number;
  /** Names of the model's clips. */
  readonly clips: readonly string[];
  /** Seconds into the selected clip. */
  readonly time: number;
  /** Seconds: the selected clip's duration. */
  readonly duration: number;
  readonly playing: boolean;
  /** Playback rate: 1 real time, negative backwards. */
  readonly speed: number;
  /** Loop mode of the clips played: `loop`, `once` or `pingpong`. */
  readonly loop: LoopMode;
  /** Crossfade duration of a clip change while playing, seconds (0: cut). */
  readonly fade: number;
  /** True when a `once` clip has reached its end in the direction of play. */
  readonly finished: boolean;
  /** Clips sounding on the base layer: 1 while one clip plays, 2 or more during a crossfade, 0 at rest. */
  readonly activeClips: number;
  /** Palette path the renderer uses for this model, or null before the first. */
  readonly palettePath: PalettePath | null;
  /** Skinning mode and weight policy the view draws with. */
  readonly method: SkinningMethod;
  /** Non-fatal loader warnings of the current model. */
  readonly warnings: readonly string[];
  readonly contextLost: boolean;
  /** Camera yaw and pitch in degrees, distance as a multiple of the framed distance. */
  readonly camera: { readonly yaw: number; readonly pitch: number; readonly distance: number };
  /** Frames drawn since the view was created. */
  readonly frames: number;
}

/**
 * The {@link ModelViewState} of a view showing `model` (null: none yet) with `playback`, drawing with `method`.
 * Allocates: for tools and tests, not the frame loop.
 */
export function describeView(model: LoadedModel | null, playback: Playback, method: SkinningMethod, contextLost: boolean, camera: ModelViewState['camera'], frames: number): ModelViewState {
  const clipIndex = model ? playback.clipIndex : -1;
  return {
    model: model?.asset.name ?? '',
    clip: model && clipIndex >= 0 ? model.asset.clips[clipIndex].name : null,
    clipIndex,
    clips: model ? model.asset.clips.map((c) => c.name) : [],
    time: playback.time,
    duration: playback.duration,
    playing: playback.playing,
    speed: playback.speed,
    loop: playback.loop,
    fade: playback.fade,
    finished: playback.finished,
    activeClips: playback.activeClips,
    palettePath: model?.palettePath ?? null,
    method,
    warnings: model?.asset.warnings ?? [],
    contextLost,
    camera,
    frames,
  };
}
