import type { PaletteRequest } from '../gpu/skinning/palette-path.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import type { Rgba } from './render-surface.ts';
import type { ViewerHost } from './viewer-host.ts';

/** RGBA the canvas is cleared to by default (#212429); tests count pixels that differ from it. */
export const BACKGROUND: Rgba = [0.13, 0.14, 0.16, 1];

/** Options of {@link ModelView}. */
export interface ModelViewOptions {
  /** How the palette reaches the shader: a palette path, or `auto` (the default) to pick one that fits. */
  readonly paletteRequest?: PaletteRequest;
  /** Skinning mode and weight policy, default LBS with normalised weights. */
  readonly method?: SkinningMethod;
  /** Camera distance after framing, as a multiple of the framed distance (default 1). */
  readonly distance?: number;
  /**
   * Draw through this page's shared context (see {@link ViewerHost}): the canvas then gets a 2D context
   * and each frame is copied into it. Absent: the canvas gets its own WebGL2 context.
   */
  readonly host?: ViewerHost;
  /** Clear colour, RGBA in [0, 1] (default {@link BACKGROUND}); alpha below 1 only shows with a `host`. */
  readonly background?: Rgba;
  /** Without a `host`: context attributes beside `alpha: false` (e.g. `preserveDrawingBuffer`). */
  readonly contextAttributes?: WebGLContextAttributes;
  /**
   * Frame the camera on the bounds of the whole animation (the rest pose and every clip, `computeAnimatedBounds`)
   * rather than the first pose shown. Default false.
   */
  readonly frameAnimation?: boolean;
  /** Orbiting coasts on after a drag and slows down (see `attachOrbitInput`). Default false. */
  readonly inertia?: boolean;
}

/** How a model starts when shown ({@link ModelView.load}). */
export interface ShowOptions {
  /** Clip to select (name, index, `rest`/−1); falls back to the first clip with a warning when unknown. */
  readonly clip?: string | null;
  /** Seconds: start at this time. Absent: 0. */
  readonly time?: number | null;
  /** Whether to start playing. Default: playing when `time` is absent, paused at `time` otherwise. */
  readonly playing?: boolean;
}

