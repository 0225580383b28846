/**
 * The attributes of `<sinew-viewer>`, in one table: the element's `observedAttributes`, its reflected
 * properties ({@link defineAttributeProperties}) and the reading rule of each ({@link readAttribute}) come from
 * it, and docs/reference/element-attributes.md lists exactly these attributes with these defaults
 * (tests/unit/element/element-attributes.test.ts checks it).
 */
import {
  parseLoopSetting, parseNumberSetting, parsePaletteSetting, parseSkinningSetting, parseWeightsSetting,
} from '../view/settings.ts';
import { parseRootMotionSetting } from '../animation/root-motion.ts';
import { parseMemoryBudgetSetting } from './memory-budget-attribute.ts';
import {
  parseExposureSetting, parseShadowIntensitySetting, parseShadowSoftnessSetting, parseToneMappingSetting,
} from './lighting-attributes.ts';
import { parseOrientation, parseScale } from './placement-syntax.ts';
import { parseLookAt } from './look-at-syntax.ts';
import { parseSpringBones, parseSpringVector } from './spring-syntax.ts';
import {
  parseAutoRotateDelay, parseCameraOrbit, parseCameraTarget, parseFieldOfView, parseInteractionPrompt, parseRotationPerSecond,
} from './camera-syntax.ts';

/**
 * How an attribute reflects as a property: `text` as written (null when absent), `number` through its parser
 * (null when absent or malformed; set from a number), `boolean` by presence, `clip` as written but settable
 * from an index too.
 */
export type AttributeKind = 'text' | 'number' | 'boolean' | 'clip';

/** A parsed attribute: its value, or `error` saying what was expected (the value then is the fallback). */
export interface AttributeReading<T> {
  readonly value: T;
  readonly error: string | null;
}

/** One row of {@link ELEMENT_ATTRIBUTES}. */
export interface AttributeSpec {
  readonly kind: AttributeKind;
  /**
   * What the element does when the attribute is absent, in the words of
   * docs/reference/element-attributes.md: its row says `default X`,
   * `X (default)` or `absent: X` with this X. Booleans are off when absent and need none.
   */
  readonly absent: string | null;
  /** The reading rule; a malformed value fires `sinew-error` where the element reads it. */
  readonly parse?: (raw: string | null) => AttributeReading<unknown>;
  /** One line: what the attribute (and its property) means, with units. */
  readonly doc: string;
}

/** Reads `loading`: `auto` (absent or empty), `lazy` or `eager`, case-insensitive. */
export function parseLoadingSetting(raw: string | null): AttributeReading<'auto' | 'lazy' | 'eager'> {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return { value: 'auto', error: null };
  if (value === 'lazy' || value === 'eager') return { value, error: null };
  return { value: 'auto', error: 'expected auto, lazy or eager' };
}

/** Reads `reveal` (`<model-viewer>`'s): `auto` (absent or empty) or `manual`, case-insensitive. */
export function parseRevealSetting(raw: string | null): AttributeReading<'auto' | 'manual'> {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return { value: 'auto', error: null };
  if (value === 'manual') return { value, error: null };
  return { value: 'auto', error: 'expected auto or manual' };
}

/**
 * Reads `background`: a CSS colour (`CSS.supports('color', …)`, so browser only), or null when absent or
 * empty (the stylesheet's dark grey) and when malformed.
 */
export function parseBackgroundSetting(raw: string | null): AttributeReading<string | null> {
  const value = (raw ?? '').trim();
  if (value === '') return { value: null, error: null };
  if (CSS.supports('color', value)) return { value, error: null };
  return { value: null, error: 'expected a CSS colour or transparent' };
}

/** `animation-crossfade-duration` when absent or malformed: `<model-viewer>`'s default, milliseconds. */
export const DEFAULT_CROSSFADE_MS = 300;

/**
 * Reads `animation-crossfade-duration`: milliseconds ≥ 0 (`<model-viewer>`'s unit), null when absent or empty
 * (and when malformed, with the error).
 */
export function parseCrossfadeSetting(raw: string | null): AttributeReading<number | null> {
  if (raw === null || raw.trim() === '') return { value: null, error: null };
  const v = Number(raw);
  if (Number.isFinite(v) && v >= 0) return { value: v, error: null };
  return { value: null, error: `expected milliseconds ≥ 0; using ${DEFAULT_CROSSFADE_MS}` };
}

/** Every attribute of `<sinew-viewer>`, in the order docs/reference/element-attributes.md lists them. */
export const ELEMENT_ATTRIBUTES = {
  src: {
    kind: 'text', absent: 'the built-in octopus',
    doc: 'URL of the model (.glb, .gltf, .vrm, .md5mesh), relative to the page; absent: the built-in octopus.',
  },
  anim: {
    kind: 'text', absent: '`<name>.md5anim` next to the mesh',
    doc: 'URL of the .md5anim to play on an .md5mesh `src`; absent: `<name>.md5anim` next to the mesh, when there.',
  },
  animations: {
    kind: 'text', absent: 'none',
    doc: 'Space-separated URLs of clips files (.glb, .gltf, .md5anim, .vrma), relative to the page: their clips are retargeted onto the model and join `clips`, fetched after the model loads.',
  },
  'animation-graph': {
    kind: 'text', absent: 'no graph',
    doc: 'URL of an animation graph (JSON, docs/guide/animation-graph.md), relative to the page: its states play the clips (from the model or `animations`), driven by `setParameter`; absent: no graph (an inline `<script type="application/json" slot="animation-graph">` child, else `animation-name` plays).',
  },
  'animation-name': {
    kind: 'clip', absent: 'the first clip',
    doc: "`<model-viewer>`'s: clip by name or 0-based index (`rest` or −1: the rest pose); absent: the first clip.",
  },
  'animation-crossfade-duration': {
    kind: 'number', absent: '300', parse: parseCrossfadeSetting,
    doc: "`<model-viewer>`'s: milliseconds of crossfade when the clip changes while playing (absent: 300; 0 cuts).",
  },
  clip: {
    kind: 'clip', absent: 'the first clip',
    doc: 'Deprecated alias of `animation-name` (one release): clip by name or index; absent: the first clip.',
  },
  time: {
    kind: 'number', absent: '0', parse: (raw) => parseNumberSetting('time', raw),
    doc: 'Sinew-only. Seconds: the element shows the clip at this time (paused, unless `autoplay` plays on from there).',
  },
  autoplay: {
    kind: 'boolean', absent: null,
    doc: "model-viewer's: play the clip (`animation-name`, else the first) once loaded. Absent: the model stands still, in its rest pose unless `animation-name` or `time` picks a frame.",
  },
  speed: {
    kind: 'number', absent: '1', parse: (raw) => parseNumberSetting('speed', raw),
    doc: 'Playback rate: 1 real time (absent), 2 double speed, negative plays backwards.',
  },
  loop: {
    kind: 'text', absent: '`loop`', parse: parseLoopSetting,
    doc: 'What a clip does at its ends: `loop` (absent: wraps around), `once` (holds the end), `pingpong`.',
  },
  fade: {
    kind: 'number', absent: '0.3', parse: (raw) => parseNumberSetting('fade', raw),
    doc: 'Deprecated alias of `animation-crossfade-duration` (one release), in seconds (absent: 0.3; 0 cuts).',
  },
  'root-motion': {
    kind: 'text', absent: '`off`', parse: parseRootMotionSetting,
    doc: 'The hips\' travel: `off` (absent: as the clip has it), `in-place` (walks on the spot), `applied` (in place, the model moved by the travel).',
  },
  palette: {
    kind: 'text', absent: '`auto`', parse: parsePaletteSetting,
    doc: 'How the palette reaches the shader: `uniform`, `texture`, `ubo` or `auto` (absent: `auto`).',
  },
  skinning: {
    kind: 'text', absent: '`lbs`', parse: parseSkinningSetting,
    doc: 'Skinning mode: `lbs` or `dqs` (absent: `lbs`).',
  },
  weights: {
    kind: 'text', absent: '`normalize`', parse: parseWeightsSetting,
    doc: 'Weight policy: `normalize`, `as-stored`, `rest-remainder` or `implicit-last` (absent: `normalize`).',
  },
  orientation: {
    kind: 'text', absent: '`0deg 0deg 0deg`', parse: parseOrientation,
    doc: "model-viewer's `\"roll pitch yaw\"`: the model turned about its own origin, in deg or rad (no unit: rad), yaw about +Y applied last (Euler order YXZ); the camera frames the turned model.",
  },
  scale: {
    kind: 'text', absent: '`1 1 1`', parse: parseScale,
    doc: "model-viewer's `\"x y z\"`: the model stretched along its own axes by these non-zero factors (before `orientation` turns it); the camera frames the scaled model.",
  },
  'camera-controls': {
    kind: 'boolean', absent: null,
    doc: "model-viewer's: drag orbits, shift/right-drag pans, the wheel zooms (with any model-viewer camera attribute present, input needs this).",
  },
  'camera-orbit': {
    kind: 'text', absent: '`0deg 75deg 105%`', parse: (raw) => parseCameraOrbit(raw),
    doc: "model-viewer's `\"θ φ r\"`: θ about +Y from the front and φ down from +Y in deg or rad, r in m, cm, mm or % of the framed distance; each may be auto.",
  },
  'camera-target': {
    kind: 'text', absent: '`auto auto auto`', parse: parseCameraTarget,
    doc: "model-viewer's `\"x y z\"` orbit centre in m, cm or mm (model space); auto: the centre of the model's box.",
  },
  'field-of-view': {
    kind: 'text', absent: '`auto`', parse: parseFieldOfView,
    doc: "model-viewer's framed vertical field of view in deg or rad; auto: 30deg (widened to fit a narrow element).",
  },
  'min-camera-orbit': {
    kind: 'text', absent: '`auto`', parse: (raw) => parseCameraOrbit(raw, true),
    doc: "model-viewer's lower limits of camera-orbit (auto: -Infinity 0deg, 2.2 × the framing sphere's radius).",
  },
  'max-camera-orbit': {
    kind: 'text', absent: '`auto`', parse: (raw) => parseCameraOrbit(raw, true),
    doc: "model-viewer's upper limits of camera-orbit (auto: Infinity 180deg, 105% of the framed distance).",
  },
  'min-field-of-view': {
    kind: 'text', absent: '`auto`', parse: parseFieldOfView,
    doc: "model-viewer's lower limit of the field of view (auto: 12deg).",
  },
  'max-field-of-view': {
    kind: 'text', absent: '`auto`', parse: parseFieldOfView,
    doc: "model-viewer's upper limit of the field of view (auto: 30deg, widened as field-of-view is).",
  },
  'auto-rotate': {
    kind: 'boolean', absent: null,
    doc: "model-viewer's: the model turns on a turntable after auto-rotate-delay (restarting after each interaction).",
  },
  'auto-rotate-delay': {
    kind: 'number', absent: '3000', parse: parseAutoRotateDelay,
    doc: "model-viewer's milliseconds before auto-rotate starts, and after each interaction (absent: 3000).",
  },
  'rotation-per-second': {
    kind: 'text', absent: '`auto`', parse: parseRotationPerSecond,
    doc: "model-viewer's auto-rotate speed, an angle per second in deg or rad; auto: π/32 rad.",
  },
  'interaction-prompt': {
    kind: 'text', absent: '`auto`', parse: parseInteractionPrompt,
    doc: "model-viewer's: `auto` shows a hint 3 s after load until the first interaction (with camera-controls); `none` never.",
  },
  'disable-zoom': {
    kind: 'boolean', absent: null,
    doc: "model-viewer's: the wheel and pinching do not zoom (the page scrolls).",
  },
  'disable-pan': {
    kind: 'boolean', absent: null,
    doc: "model-viewer's: right-, shift- and two-finger drags do not pan.",
  },
  yaw: {
    kind: 'number', absent: '0', parse: (raw) => parseNumberSetting('yaw', raw),
    doc: "Alias kept for one release (use camera-orbit): camera yaw, degrees (0 looks at the model's front, positive swings the eye to +X).",
  },
  pitch: {
    kind: 'number', absent: '10', parse: (raw) => parseNumberSetting('pitch', raw),
    doc: 'Alias kept for one release (use camera-orbit): camera pitch, degrees in [−90, 90] (positive raises the eye; absent: 10).',
  },
  distance: {
    kind: 'number', absent: '1', parse: (raw) => parseNumberSetting('distance', raw),
    doc: 'Alias kept for one release (use camera-orbit): camera distance as a multiple of the distance that frames the whole model (> 0; absent: 1).',
  },
  controls: {
    kind: 'boolean', absent: null,
    doc: 'Sinew\'s own: whether the mini control bar (play / pause, time slider, clip menu) is shown (orbiting is camera-controls).',
  },
  loading: {
    kind: 'text', absent: '`auto`', parse: parseLoadingSetting,
    doc: 'When to load: `auto` (absent) and `eager` at once, `lazy` once the element is within half a viewport of the visible area.',
  },
  poster: {
    kind: 'text', absent: 'none',
    doc: 'URL of an image shown (scaled to fit) until the model is revealed and its first frame drawn.',
  },
  reveal: {
    kind: 'text', absent: '`auto`', parse: parseRevealSetting,
    doc: '`auto` (absent): show the model once drawn; `manual`: keep the poster until `dismissPoster()` (loading waits for it unless `loading="eager"`).',
  },
  alt: {
    kind: 'text', absent: '`3D model: NAME`',
    doc: 'The canvas\'s accessible name (`aria-label`, with `role="img"`); absent: "3D model: NAME".',
  },
  background: {
    kind: 'text', absent: 'the dark grey `#212429`', parse: parseBackgroundSetting,
    doc: 'Background behind the model: a CSS colour, or `transparent` to show the page; absent: dark grey (#212429).',
  },
  'environment-image': {
    kind: 'text', absent: '`neutral`',
    doc: 'What lights the model: `neutral` or `legacy` (model-viewer\'s generated rooms), or the URL of an equirectangular Radiance .hdr, PNG or JPEG; absent: `skybox-image` when set, else `neutral`, as model-viewer.',
  },
  'skybox-image': {
    kind: 'text', absent: 'none',
    doc: 'URL of an equirectangular .hdr, PNG or JPEG drawn behind the model; it also lights the model when `environment-image` is absent.',
  },
  exposure: {
    kind: 'number', absent: '1', parse: parseExposureSetting,
    doc: 'Linear multiplier of the light before tone mapping (≥ 0; absent: 1).',
  },
  'tone-mapping': {
    kind: 'text', absent: '`auto`', parse: parseToneMappingSetting,
    doc: 'Tone mapping: `auto` (absent) / `neutral` / `commerce` (Khronos PBR Neutral), `aces`, `agx`, `reinhard`, `cineon`, `linear` or `none`.',
  },
  'shadow-intensity': {
    kind: 'number', absent: '0', parse: parseShadowIntensitySetting,
    doc: "model-viewer's: opacity in [0, 1] of a soft contact shadow on the ground under the model, moving with its animation (absent: 0, no shadow).",
  },
  'shadow-softness': {
    kind: 'number', absent: '1', parse: parseShadowSoftnessSetting,
    doc: "model-viewer's: blur of the contact shadow in [0, 1], 0 hard, 1 soft (absent: 1).",
  },
  'look-at': {
    kind: 'text', absent: '`none`', parse: parseLookAt,
    doc: 'VRM avatars: where the eyes look — `camera` (the element\'s camera), `cursor` (the pointer over the element, on the plane through the head facing the camera), `"X Y Z"` (a point in model space, m, cm or mm) or `none` (absent: as the clip poses them).',
  },
  'auto-blink': {
    kind: 'boolean', absent: null,
    doc: 'VRM avatars: blink on a schedule (the `blink` expression), playing or paused; absent: only clips and `setExpression` blink.',
  },
  'spring-bones': {
    kind: 'text', absent: '`on`', parse: parseSpringBones,
    doc: 'VRM avatars with spring bones (hair, tails, skirts): `on` (absent) simulates them after the clip, `off` leaves those joints as the clip poses them. Paused, the springs hold still.',
  },
  gravity: {
    kind: 'text', absent: '`0 0 0`', parse: parseSpringVector,
    doc: 'Spring bones: `"X Y Z"` in m/s², world space, added to every spring joint\'s gravity (its gravityDir · gravityPower; absent: 0 0 0, the file\'s gravity only).',
  },
  wind: {
    kind: 'text', absent: '`0 0 0`', parse: parseSpringVector,
    doc: 'Spring bones: `"X Y Z"` in m/s², world space, added to every spring joint\'s gravity as `gravity` is (absent: 0 0 0, no wind).',
  },
  'show-colliders': {
    kind: 'boolean', absent: null,
    doc: 'Spring bones: draw the spring-bone colliders (spheres, capsules, planes) as lines over the model.',
  },
  'memory-budget': {
    kind: 'number', absent: '512', parse: parseMemoryBudgetSetting,
    doc: 'Sinew-only: the memory budget of the element\'s loads in MiB (model, clip files, props, environment images; absent: 512).',
  },
} as const satisfies Record<string, AttributeSpec>;

/** The name of an attribute of `<sinew-viewer>`. */
export type AttributeName = keyof typeof ELEMENT_ATTRIBUTES;

/** The attributes with a reading rule (`parse`). */
export type ParsedAttributeName = {
  [N in AttributeName]: (typeof ELEMENT_ATTRIBUTES)[N] extends { readonly parse: unknown } ? N : never;
}[AttributeName];

/** What attribute `N`'s rule reads. */
export type AttributeValue<N extends ParsedAttributeName> = ReturnType<(typeof ELEMENT_ATTRIBUTES)[N]['parse']>['value'];

/** The element's observed attributes: every name in {@link ELEMENT_ATTRIBUTES}, in its order. */
export const ELEMENT_ATTRIBUTE_NAMES: readonly AttributeName[] = Object.freeze(Object.keys(ELEMENT_ATTRIBUTES) as AttributeName[]);

type PropertyValue<S> = S extends { readonly kind: 'boolean' } ? boolean : S extends { readonly kind: 'number' } ? number | null : string | null;

/** `root-motion` → `rootMotion`: a hyphenated attribute's property name, as the DOM names them. */
type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

/** The property reflecting attribute `name` (camelCase for a hyphenated name, `root-motion` → `rootMotion`). */
export function propertyName(name: AttributeName): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The attributes whose property is typed or defined apart: the clip ones are also set from an index;
 * `animationCrossfadeDuration` reads the effective milliseconds (element-animation-api.ts).
 */
type OwnTypedAttribute = 'clip' | 'animation-name' | 'animation-crossfade-duration';

/** The reflected properties, typed by kind (those of {@link OwnTypedAttribute} apart). */
export type ElementAttributeValues = {
  -readonly [N in Exclude<AttributeName, OwnTypedAttribute> as CamelCase<N>]: PropertyValue<(typeof ELEMENT_ATTRIBUTES)[N]>;
};

/** Every attribute of {@link ELEMENT_ATTRIBUTES} as a property of the element (see {@link AttributeKind}). */
export interface ElementAttributeProperties extends ElementAttributeValues {
  get clip(): string | null;
  set clip(value: string | number | null);
  /** `<model-viewer>`'s: the `animation-name` attribute as written (null when absent); set from a name or an index. */
  get animationName(): string | null;
  set animationName(value: string | number | null);
  /**
   * `<model-viewer>`'s: milliseconds of crossfade when the clip changes while playing — the attribute's value,
   * else the deprecated `fade` × 1000, else 300. Setting it writes the attribute (null removes it).
   */
  get animationCrossfadeDuration(): number;
  set animationCrossfadeDuration(value: number | null);
}

/**
 * Reads attribute `name` of `element` by its rule; a malformed value gives the rule's fallback and, when
 * `report` is given, is reported as `<sinew-viewer NAME="RAW">: expected …`.
 */
export function readAttribute<N extends ParsedAttributeName>(
  element: Element, name: N, report: ((message: string) => void) | null,
): AttributeReading<AttributeValue<N>> {
  const raw = element.getAttribute(name);
  const parse = (ELEMENT_ATTRIBUTES[name] as AttributeSpec).parse!;
  const reading = parse(raw) as AttributeReading<AttributeValue<N>>;
  if (reading.error && report) report(`<sinew-viewer ${name}="${raw}">: ${reading.error}`);
  return reading;
}

/**
 * Defines on `prototype` one accessor per attribute of {@link ELEMENT_ATTRIBUTES} reflecting it as its
 * {@link AttributeKind} says: null (or undefined) removes a text, number or clip attribute, a boolean toggles.
 */
export function defineAttributeProperties(prototype: object): void {
  for (const name of ELEMENT_ATTRIBUTE_NAMES) {
    const spec: AttributeSpec = ELEMENT_ATTRIBUTES[name];
    let descriptor: PropertyDescriptor;
    if (spec.kind === 'boolean') {
      descriptor = {
        get(this: Element): boolean {
          return this.hasAttribute(name);
        },
        set(this: Element, value: boolean): void {
          this.toggleAttribute(name, value);
        },
      };
    } else {
      const parse = spec.kind === 'number' ? spec.parse! : null;
      const asText = spec.kind === 'text';
      descriptor = {
        get(this: Element): unknown {
          const raw = this.getAttribute(name);
          return parse ? parse(raw).value : raw;
        },
        set(this: Element, value: unknown): void {
          if (value === null || value === undefined) this.removeAttribute(name);
          else this.setAttribute(name, asText ? (value as string) : String(value));
        },
      };
    }
    Object.defineProperty(prototype, propertyName(name), { ...descriptor, configurable: true, enumerable: false });
  }
}
