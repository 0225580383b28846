import type { PalettePath } from '../gl/renderer.ts';

/** The viewer's start-up settings, read from the page URL by {@link parseViewerParams}. */
export interface ViewerParams {
  /** Model to open instead of the built-in octopus (.glb, .gltf; relative to the page), or null. */
  readonly model: string | null;
  /** Clip to select: a clip name, or a 0-based index; `-1` or `rest` selects the rest pose. Null: first clip. */
  readonly clip: string | null;
  /** Seconds: start paused at this clip time. Null: start playing from 0. */
  readonly time: number | null;
  /** Skinning palette path the renderer uses. */
  readonly palette: PalettePath | 'auto';
  /** Camera yaw, radians (from degrees in the URL). Null: the framing default (0, looking at the front). */
  readonly yaw: number | null;
  /** Camera pitch, radians (from degrees in the URL). Null: the framing default. */
  readonly pitch: number | null;
  /** Camera distance as a multiple of the framed distance (1 = the whole model fits). Null: 1. */
  readonly distance: number | null;
  /** Whether to show the control panel (false for clean screenshots and embedding). */
  readonly ui: boolean;
}

/**
 * Reads the viewer's URL query parameters. Every one is optional:
 *
 * | parameter | meaning |
 * |---|---|
 * | `model=URL` | open this .glb / .gltf (a .gltf's external buffers and images are fetched relative to it) |
 * | `clip=NAME` or `clip=INDEX` | select a clip by name or 0-based index; `clip=rest` or `clip=-1`: rest pose |
 * | `time=SECONDS` | start paused at this clip time (seconds) |
 * | `palette=uniform\|texture\|auto` | palette upload path (default `auto`: uniforms while the joints fit) |
 * | `yaw=DEGREES`, `pitch=DEGREES` | camera angles about the framed model: yaw 0 looks at the model's front (+Z), positive yaw swings the eye to +X, positive pitch raises it |
 * | `distance=K` | camera distance as K × the framed distance (the distance at which the model's bounding sphere fills the view); 0.5 is twice as close |
 * | `ui=0` | hide the control panel |
 *
 * Malformed values are not fatal: they are reported in `errors` (each naming the parameter) and ignored.
 */
export function parseViewerParams(search: string): { params: ViewerParams; errors: string[] } {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const number = (key: string, check: (v: number) => boolean, what: string): number | null => {
    const raw = q.get(key);
    if (raw === null || raw === '') return null;
    const v = Number(raw);
    if (!Number.isFinite(v) || !check(v)) {
      errors.push(`URL parameter ${key}=${raw}: expected ${what}`);
      return null;
    }
    return v;
  };
  const deg = Math.PI / 180;
  const yaw = number('yaw', () => true, 'degrees');
  const pitch = number('pitch', (v) => v >= -90 && v <= 90, 'degrees in [-90, 90]');
  const distance = number('distance', (v) => v > 0, 'a positive multiple of the framed distance');
  const time = number('time', (v) => v >= 0, 'seconds ≥ 0');
  let palette: PalettePath | 'auto' = 'auto';
  const rawPalette = q.get('palette');
  if (rawPalette === 'uniform' || rawPalette === 'texture' || rawPalette === 'auto') palette = rawPalette;
  else if (rawPalette !== null) errors.push(`URL parameter palette=${rawPalette}: expected uniform, texture or auto`);
  const ui = q.get('ui');
  return {
    params: {
      model: q.get('model') || null,
      clip: q.get('clip'),
      time,
      palette,
      yaw: yaw === null ? null : yaw * deg,
      pitch: pitch === null ? null : pitch * deg,
      distance,
      ui: !(ui === '0' || ui === 'false'),
    },
    errors,
  };
}

/**
 * Resolves a `clip` parameter against a model's clip names: an exact name first, then a 0-based index.
 * @returns the clip index, −1 for the rest pose, or null when nothing matches
 */
export function resolveClip(clip: string, clipNames: readonly string[]): number | null {
  const byName = clipNames.indexOf(clip);
  if (byName >= 0) return byName;
  if (clip === 'rest') return -1;
  if (/^-?\d+$/.test(clip.trim())) {
    const i = Number(clip);
    if (i === -1 || (i >= 0 && i < clipNames.length)) return i;
  }
  return null;
}
