import type { LoopMode } from '../animation/loop-mode.ts';
import type { PalettePath } from '../gl/renderer.ts';
import {
  parseSkinningMode, parseWeightPolicy, SKINNING_MODES, WEIGHT_POLICIES, type SkinningMode, type WeightPolicy,
} from '../skinning/skinning-method.ts';

/** The viewer's start-up settings, read from the page URL by {@link parseViewerParams}. */
export interface ViewerParams {
  /** Model to open instead of the built-in octopus (.glb, .gltf, .md5mesh; relative to the page), or null. */
  readonly model: string | null;
  /** The .md5anim to play on an .md5mesh `model` (default: `<name>.md5anim` next to it), or null. */
  readonly anim: string | null;
  /** Clip to select: a clip name, or a 0-based index; `-1` or `rest` selects the rest pose. Null: first clip. */
  readonly clip: string | null;
  /** Seconds: start paused at this clip time. Null: start playing from 0. */
  readonly time: number | null;
  /** Skinning palette path the renderer uses. */
  readonly palette: PalettePath | 'auto';
  /** Skinning mode: `lbs` (default) or `dqs`. */
  readonly skinning: SkinningMode;
  /** Weight policy (default `normalize`). */
  readonly weights: WeightPolicy;
  /** Camera yaw, radians (from degrees in the URL). Null: the framing default (0, looking at the front). */
  readonly yaw: number | null;
  /** Camera pitch, radians (from degrees in the URL). Null: the framing default. */
  readonly pitch: number | null;
  /** Camera distance as a multiple of the framed distance (1 = the whole model fits). Null: 1. */
  readonly distance: number | null;
  /** Whether to show the control panel (false for clean screenshots and embedding). */
  readonly ui: boolean;
  /** Playback rate (1 real time, negative backwards). Null: 1. */
  readonly speed: number | null;
  /** Loop mode of the clips played. Null: `loop`. */
  readonly loop: LoopMode | null;
  /** Crossfade duration of a clip change while playing, seconds (0: cut). Null: 0.3. */
  readonly fade: number | null;
}

/** A numeric setting shared by the viewer's URL parameters and the `<sinew-viewer>` attributes. */
export type NumberSetting = 'yaw' | 'pitch' | 'distance' | 'time' | 'speed' | 'fade';

const NUMBER_RULES: Record<NumberSetting, { check: (v: number) => boolean; expected: string }> = {
  yaw: { check: () => true, expected: 'degrees' },
  pitch: { check: (v) => v >= -90 && v <= 90, expected: 'degrees in [-90, 90]' },
  distance: { check: (v) => v > 0, expected: 'a positive multiple of the framed distance' },
  time: { check: (v) => v >= 0, expected: 'seconds ≥ 0' },
  speed: { check: () => true, expected: 'a playback rate (1 real time, -1 backwards)' },
  fade: { check: (v) => v >= 0, expected: 'seconds ≥ 0' },
};

/**
 * Reads a numeric setting in the units it is written in (yaw and pitch in degrees, distance as a multiple of
 * the framed distance, time and fade in seconds, speed as a rate). Absent or empty gives null.
 * @returns the value, or `error` saying what was expected (the caller names where the value came from)
 */
export function parseNumberSetting(key: NumberSetting, raw: string | null): { value: number | null; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: null, error: null };
  const v = Number(raw);
  const rule = NUMBER_RULES[key];
  if (!Number.isFinite(v) || !rule.check(v)) return { value: null, error: `expected ${rule.expected}` };
  return { value: v, error: null };
}

/** Reads a palette setting (`uniform`, `texture`, `ubo`, `auto`); absent gives `auto`. */
export function parsePaletteSetting(raw: string | null): { value: PalettePath | 'auto'; error: string | null } {
  if (raw === null || raw === 'uniform' || raw === 'texture' || raw === 'ubo' || raw === 'auto') return { value: raw ?? 'auto', error: null };
  return { value: 'auto', error: 'expected uniform, texture, ubo or auto' };
}

/** Reads a skinning mode setting (`lbs`, `dqs`); absent or empty gives `lbs`. */
export function parseSkinningSetting(raw: string | null): { value: SkinningMode; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: 'lbs', error: null };
  const value = parseSkinningMode(raw.trim().toLowerCase());
  return value ? { value, error: null } : { value: 'lbs', error: `expected ${SKINNING_MODES.join(' or ')}` };
}

/** Reads a weight policy setting (`normalize`, `as-stored`, `rest-remainder`, `implicit-last`); absent or empty gives `normalize`. */
export function parseWeightsSetting(raw: string | null): { value: WeightPolicy; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: 'normalize', error: null };
  const value = parseWeightPolicy(raw.trim().toLowerCase());
  return value ? { value, error: null } : { value: 'normalize', error: `expected ${WEIGHT_POLICIES.join(', ')}` };
}

/** Reads a loop-mode setting (`loop`, `once`, `pingpong`, also `ping-pong`); absent or empty gives null. */
export function parseLoopSetting(raw: string | null): { value: LoopMode | null; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: null, error: null };
  const v = raw.trim().toLowerCase();
  if (v === 'loop' || v === 'once' || v === 'pingpong') return { value: v, error: null };
  if (v === 'ping-pong') return { value: 'pingpong', error: null };
  return { value: null, error: 'expected loop, once or pingpong' };
}

/**
 * Reads the viewer's URL query parameters. Every one is optional:
 *
 * | parameter | meaning |
 * |---|---|
 * | `model=URL` | open this .glb / .gltf / .md5mesh (a .gltf's external buffers and images are fetched relative to it) |
 * | `anim=URL` | the .md5anim to play on an .md5mesh (default: `<name>.md5anim` next to it, when there) |
 * | `clip=NAME` or `clip=INDEX` | select a clip by name or 0-based index; `clip=rest` or `clip=-1`: rest pose |
 * | `time=SECONDS` | start paused at this clip time (seconds) |
 * | `palette=uniform\|texture\|ubo\|auto` | palette upload path (default `auto`: uniforms while the joints fit, then a uniform buffer, then a texture) |
 * | `skinning=lbs\|dqs` | linear blend (default) or dual quaternion skinning |
 * | `weights=normalize\|as-stored\|rest-remainder\|implicit-last` | how influence weights are read (default `normalize`) |
 * | `yaw=DEGREES`, `pitch=DEGREES` | camera angles about the framed model: yaw 0 looks at the model's front (+Z), positive yaw swings the eye to +X, positive pitch raises it |
 * | `distance=K` | camera distance as K × the framed distance (the distance at which the model's bounding sphere fills the view); 0.5 is twice as close |
 * | `ui=0` | hide the control panel |
 * | `speed=RATE` | playback rate, default 1; negative plays backwards (`speed=-1`), 0 holds the pose |
 * | `loop=loop\|once\|pingpong` | what a clip does at its ends: wrap around (default), stop and hold the end, or bounce back and forth |
 * | `fade=SECONDS` | crossfade duration when another clip is chosen while playing, default 0.3; `fade=0` cuts |
 *
 * Malformed values are not fatal: they are reported in `errors` (each naming the parameter) and ignored.
 */
export function parseViewerParams(search: string): { params: ViewerParams; errors: string[] } {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const number = (key: NumberSetting): number | null => {
    const raw = q.get(key);
    const { value, error } = parseNumberSetting(key, raw);
    if (error) errors.push(`URL parameter ${key}=${raw}: ${error}`);
    return value;
  };
  const deg = Math.PI / 180;
  const yaw = number('yaw');
  const pitch = number('pitch');
  const distance = number('distance');
  const time = number('time');
  const rawPalette = q.get('palette');
  const palette = parsePaletteSetting(rawPalette);
  if (palette.error) errors.push(`URL parameter palette=${rawPalette}: ${palette.error}`);
  const rawSkinning = q.get('skinning');
  const skinning = parseSkinningSetting(rawSkinning);
  if (skinning.error) errors.push(`URL parameter skinning=${rawSkinning}: ${skinning.error}`);
  const rawWeights = q.get('weights');
  const weights = parseWeightsSetting(rawWeights);
  if (weights.error) errors.push(`URL parameter weights=${rawWeights}: ${weights.error}`);
  const speed = number('speed');
  const fade = number('fade');
  const rawLoop = q.get('loop');
  const loop = parseLoopSetting(rawLoop);
  if (loop.error) errors.push(`URL parameter loop=${rawLoop}: ${loop.error}`);
  const ui = q.get('ui');
  return {
    params: {
      model: q.get('model') || null,
      anim: q.get('anim') || null,
      clip: q.get('clip'),
      time,
      palette: palette.value,
      skinning: skinning.value,
      weights: weights.value,
      yaw: yaw === null ? null : yaw * deg,
      pitch: pitch === null ? null : pitch * deg,
      distance,
      ui: !(ui === '0' || ui === 'false'),
      speed,
      loop: loop.value,
      fade,
    },
    errors,
  };
}
