import type { LoopMode } from '../animation/loop-mode.ts';
import type { PalettePath } from '../gpu/passes/renderer.ts';
import type { SkinningMode, WeightPolicy } from '../skinning/skinning-method.ts';
import { parseLoopSetting, type NumberSetting, parseNumberSetting, parsePaletteSetting, parseSkinningSetting, parseWeightsSetting } from '../view/settings.ts';

/** The viewer's start-up settings, read from the page URL by {@link parseViewerParams}. */
export interface ViewerParams {
  /** Model to open instead of the built-in octopus (.glb, .gltf, .vrm, .md5mesh; relative to the page), or null. */
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

/**
 * Reads the viewer's URL query parameters. Every one is optional:
 *
 * | parameter | meaning |
 * |---|---|
 * | `model=URL` | open this .glb / .gltf / .vrm / .md5mesh (a .gltf's external buffers and images are fetched relative to it) |
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
