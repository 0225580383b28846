import type { ElementPicking, ElementSurfaceHit } from './element-picking.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ViewerHost } from '../view/viewer-host.ts';
import type { ElementAttributeProperties } from './element-attributes.ts';
import type { SinewViewerElementEventMap } from './element-event-map.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { AvatarMeta } from '../asset/avatar-asset.ts';
import type { Attachment } from '../view/view-attachments.ts';
import type { HotspotConfiguration, HotspotData } from './element-hotspots.ts';
import type { AnimationApiProperties, AppendAnimationOptions, DetachAnimationOptions, PlayAnimationOptions } from './element-animation-api.ts';
import { snapshotBlob, type ToBlobOptions } from './element-snapshot.ts';
import { ElementVideo, type ToVideoOptions } from './element-video.ts';
import { startsPlaying } from './element-playback.ts';
import type { SphericalPosition } from './element-camera.ts';
import type { Vector3D } from './model-viewer-vectors.ts';
import { SinewViewerCore } from './sinew-viewer-core.ts';

declare global {
  interface HTMLElementTagNameMap {
    'sinew-viewer': SinewViewerElement;
  }
}

/** The attributes reflected as properties of {@link SinewViewerElement}, typed from the attribute table. */
export interface SinewViewerElement extends ElementAttributeProperties, AnimationApiProperties {}

/**
 * `<sinew-viewer>`: a skinned model drawn with WebGL2 into a canvas in its own shadow root, sized by the
 * element's CSS box (default 300 × 150 CSS pixels, drawn at devicePixelRatio). Drag to orbit, shift/right-drag
 * to pan, wheel to zoom (with model-viewer's camera attributes, only with `camera-controls`: element-camera.ts). Attributes, properties, methods and events are documented in
 * docs/guide/embedding.md and the site's generated element reference (build/docs/reference-pages.ts); in brief:
 *
 * - attributes, reflected as properties: the rows of `ELEMENT_ATTRIBUTES` (element-attributes.ts), each with
 *   its kind, default, reading rule and meaning;
 * - read-only properties: `model`, `clips`, `duration`, `currentTime`, `paused`, `loaded`, `modelIsVisible`;
 * - methods: `getCameraOrbit()`, `getCameraTarget()`, `getFieldOfView()`, `jumpCameraToGoal()` (model-viewer's),
 *   `play()`, `pause()`, `seek(seconds)`, `renderOnce()`, `appendAnimations(url)`, `updateHotspot(config)`,
 *   `queryHotspot(name)`, `attach(src, joint, offset)`, `detach(attachment)`, `dismissPoster()`, `showPoster()`,
 *   `toDataURL(type, quality)`, `toBlob(options)`, `toVideo(options)`, `setExpression(name, weight)`, `getExpression(name)`,
 *   `resetSpringBones()`, `setParameter(name, value)`, `getParameter(name)`, `activeState(layer)`;
 * - an animation graph (`animation-graph`, or an inline `<script type="application/json" slot="animation-graph">`
 *   child): its states choose the clips, its parameters drive it (element-graph.ts, docs/guide/animation-graph.md);
 * - VRM avatars: `availableExpressions`, `avatarMeta`, the methods above and the attributes `look-at` and
 *   `auto-blink` (element-avatar.ts); spring bones: `spring-bones`, `gravity`, `wind`, `show-colliders`
 *   (element-springs.ts);
 * - children slotted as `hotspot-NAME`: hotspots placed on a joint, the skinned surface or a model-space point
 *   in every frame (element-hotspots.ts, docs/guide/hotspots.md);
 * - children: `<sinew-attachment src joint offset offset-rotation offset-scale>`, props on joints (element-attachments.ts);
 * - events (bubbling, composed, typed by {@link SinewViewerElementEventMap}): `<model-viewer>`'s `load`, `error`,
 *   `progress`, `camera-change`, `poster-dismissed`, `model-visibility`, and `loop`, `finished`, `marker` as clips
 *   play; `state-enter`, `state-exit`, `transition-start`, `transition-end` and `sinew-graphload` with a graph; Sinew's `sinew-error` (every problem, malformed attributes too), `sinew-timeupdate`, `sinew-clipsadded`
 *   (element-events.ts); the deprecated aliases `sinew-load` and `sinew-progress`;
 * - `<model-viewer>`'s `orientation` and `scale` place the model (element-placement.ts); its attributes and slots
 *   Sinew does not support are ignored with a console warning, once per element (unsupported-features.ts).
 *
 * All elements of a document share one WebGL2 context, renderer and animation-frame loop (a
 * {@link ViewerHost}, made when the first connects and released when the last disconnects): each frame is
 * drawn off-screen and copied into the element's 2D canvas, and elements out of the viewport do not draw.
 * Disconnecting stops the element's loop and deletes its GL objects; reconnecting shows the same model again
 * (no refetch). Bad input never throws from an attribute: it fires `sinew-error` and the model shown before
 * keeps playing.
 */
export class SinewViewerElement extends SinewViewerCore {
  // The public face, grouped by concern; each group delegates to the feature object named in its header, which
  // holds the rules. The wiring, lifecycle and attribute reactions are SinewViewerCore's (sinew-viewer-core.ts).

  // ── State (read-only but `currentTime`) ─────────────────────────────────────────────────────────────

  /** Name of the model shown ('' before the first has loaded). */
  get model(): string {
    return this.view?.asset?.name ?? this.loader.retained?.asset.name ?? '';
  }

  /** Names of the shown model's clips (a frozen array, replaced on each load and each clips file added). */
  get clips(): readonly string[] {
    return this.clipNames;
  }

  /**
   * Seconds: the selected clip's duration (0 for the rest pose or before a model); with an animation graph, the
   * duration of the clip layer 0's active state plays (its first clip, for a blend tree).
   */
  get duration(): number {
    if (this.graph.active) return this.graph.clipTime().duration;
    return this.view?.playback.duration ?? 0;
  }

  /**
   * Seconds into the selected clip. Setting it jumps there (clamped to the clip) keeping the play state, as
   * {@link seek}, but a non-finite value is reported (`sinew-error`) instead of thrown (`<model-viewer>`'s).
   * With an animation graph: the time into the clip layer 0's active state plays; setting it is ignored (one
   * console warning: the graph keeps each state's time).
   */
  get currentTime(): number {
    if (this.graph.active) return this.graph.clipTime().time;
    return this.view?.playback.time ?? this.loader.retained?.time ?? 0;
  }
  set currentTime(seconds: number) {
    this.animationApi.setCurrentTime(seconds);
  }

  /** `<model-viewer>`'s `loaded`: the model of the current `src` is shown (false again while a new `src` loads). */
  get loaded(): boolean {
    return this.loader.loaded(this.view);
  }

  /** `<model-viewer>`'s `modelIsVisible`: loaded, revealed (`reveal`, `dismissPoster()`) and in the viewport. */
  get modelIsVisible(): boolean {
    return this.revealer.modelIsVisible;
  }

  /** Whether playback is paused. */
  get paused(): boolean {
    if (this.view?.asset) return !this.view.playback.playing;
    return !(this.requestedPlaying ?? this.loader.retained?.playing ?? startsPlaying(this));
  }

  // ── Playback (element-animation-api.ts: model-viewer's animation API) ─────────────────────────────

  /**
   * `<model-viewer>`'s `play(options)`: plays from the current time (before the first model has loaded: it
   * will start playing), firing `play`. `options.repetitions` (integer ≥ 1, default `Infinity`): the clip
   * finishes at the N-th end it reaches from this call, firing `finished`, and pauses there;
   * `options.pingpong` alternates direction; `{repetitions: 1}` plays once. Without options the clip loops in
   * the `loop` attribute's mode. A clip that has finished restarts from its start (its end when `timeScale`
   * is negative). Bad options: reported (`sinew-error`), their defaults used.
   */
  play(options?: PlayAnimationOptions): void {
    this.animationApi.play(options);
  }

  /** `<model-viewer>`'s: pauses at the current time, firing `pause` when it was playing (before the first model: it will start paused). */
  pause(): void {
    this.animationApi.pause();
  }

  /**
   * `<model-viewer>` 4.2's `appendAnimation(name, options)`: plays clip `name` over the current one, blended
   * on a layer of its own (`weight` in [0, 1], own `timeScale`, `fade` seconds, `repetitions`, `pingpong`,
   * start `time` in seconds; docs/guide/animation.md). Not `appendAnimations(url)`, which adds clips from a file.
   */
  appendAnimation(name: string, options?: AppendAnimationOptions): void {
    this.animationApi.appendAnimation(name, options);
  }

  /** `<model-viewer>` 4.2's `detachAnimation(name, { fade })`: fades an appended clip out (`fade` seconds, default 1.5). */
  detachAnimation(name: string, options?: DetachAnimationOptions): void {
    this.animationApi.detachAnimation(name, options);
  }

  /**
   * Jumps to `seconds` into the clip (clamped to [0, duration]) keeping the play state, and draws it on the
   * next frame. Does nothing before a model is shown.
   * @throws TypeError when `seconds` is not a finite number
   */
  seek(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
      throw new TypeError(`<sinew-viewer>.seek: expected a finite number of seconds, got ${String(seconds)}`);
    }
    if (this.graph.ignores('seek()')) return;
    this.view?.seek(seconds);
  }

  // ── Animation graph (element-graph.ts; attribute `animation-graph` or an inline graph script) ───────

  /**
   * Sets parameter `name` of the animation graph (docs/guide/animation-graph.md, "On the element"), read by the next
   * frame: a FLOAT as given (in the graph's units, e.g. metres per second), an INTEGER rounded, a BOOLEAN from a
   * boolean, a TRIGGER `true` fires the first transition that reads it, which resets it (one jump per call).
   * @throws RangeError when no graph is set (none asked for, or not yet on the model shown), or the graph has no
   *   parameter `name` (the message lists its parameters): a script error, not `sinew-error`
   * @throws TypeError when `value` is neither a finite number nor a boolean
   */
  setParameter(name: string, value: number | boolean): void {
    this.graph.setParameter(name, value);
  }

  /**
   * Parameter `name` of the animation graph: a FLOAT or INTEGER as a number, a BOOLEAN or TRIGGER as a boolean (a
   * trigger reads true from `setParameter` until a transition consumes it).
   * @throws RangeError when no graph is set, or the graph has no parameter `name`
   */
  getParameter(name: string): number | boolean {
    return this.graph.getParameter(name);
  }

  /**
   * The name of the state graph layer `layer` (0-based, bottom first) plays: the destination as soon as a
   * transition starts. Null when no graph is set.
   * @throws RangeError for a layer the graph does not have
   */
  activeState(layer = 0): string | null {
    return this.graph.activeState(layer);
  }

  /**
   * Draws a frame now at the current time, without advancing it (for screenshots and when the page throttles
   * animation frames). A no-op before a model is shown and while disconnected; a drawing failure fires
   * `sinew-error` instead of throwing.
   */
  renderOnce(): void {
    try {
      this.view?.renderOnce();
    } catch (e) {
      this.report(`Drawing ${this.model || 'the model'} failed: ${messageOf(e)}`);
    }
  }

  // ── Clips from other files (element-animations.ts) ──────────────────────────────────────────────

  /**
   * Fetches the clips file at `url` (`.glb`, `.gltf`, `.md5anim`, `.vrma`; relative to the page) and adds its clips to
   * the model shown, retargeted onto its skeleton by humanoid bone, then joint name, after the files of `animations` and earlier
   * calls: they join `clips` (a taken name becomes `Walk (walk.glb)`) and `sinew-clipsadded` fires.
   * @returns the added clips' names
   * @throws Error (rejects, after firing `sinew-error`; the model plays on with its clips) when no model is
   *   shown, the file cannot be read or matches no joint, or another model is shown meanwhile
   */
  appendAnimations(url: string): Promise<readonly string[]> {
    return this.clipFiles.append(String(url));
  }

  // ── VRM avatars (element-avatar.ts; attributes `look-at`, `auto-blink`) ───────────────────────────

  /**
   * The shown avatar's expression names: the VRM presets it has (`happy`, `aa`, `blink`, `lookLeft`, …) and its
   * custom ones, in file order; [] for a model that is not an avatar, and before a model is shown.
   */
  get availableExpressions(): string[] {
    return this.avatarSurface.availableExpressions;
  }

  /**
   * The shown avatar's meta (`AvatarMeta`: name, version, authors, `licenseUrl` and the permission fields, VRM 0.x
   * normalised to VRM 1.0's names), or null for a model that is not an avatar and before a model is shown.
   */
  get avatarMeta(): AvatarMeta | null {
    return this.avatarSurface.avatarMeta;
  }

  /**
   * Sets expression `name` to `weight` (clamped to [0, 1]; a binary expression snaps at 0.5), drawn on the next
   * frame, with the avatar's override rules (VRMC_vrm-1.0 `expressions.md`); kept until the next model. three-vrm's
   * `expressionManager.setValue`. No model, not an avatar, an unknown name or a weight that is not a finite
   * number: reported (`sinew-error`, with the avatar's expression names), nothing changes.
   */
  setExpression(name: string, weight: number): void {
    this.avatarSurface.setExpression(name, weight);
  }

  /**
   * Expression `name`'s weight as set (by {@link setExpression}, a clip's expression track, `auto-blink`), in
   * [0, 1]. three-vrm's `expressionManager.getValue`: null for an unknown name (then also reported, as
   * {@link setExpression}), no model, or a model that is not an avatar.
   */
  getExpression(name: string): number | null {
    return this.avatarSurface.getExpression(name);
  }

  // ── Spring bones (element-springs.ts; attributes `spring-bones`, `gravity`, `wind`, `show-colliders`) ─────

  /**
   * Starts the shown model's spring bones (hair, tails, ears: VRMC_springBone, VRM 0.x `secondaryAnimation`) again
   * from the pose drawn next: every tail along its joint's posed rest direction, at rest — after a jump in the
   * clip, or to undo a gust. Drawn at once, paused or playing (a paused element's springs otherwise hold still).
   * Nothing for a model without spring bones, and before a model is shown. three-vrm's `springBoneManager.reset()`.
   */
  resetSpringBones(): void {
    this.springSurface.reset();
  }

  // ── Poster and reveal (element-reveal.ts) ──────────────────────────────────────────────────────────

  /** `<model-viewer>`'s: reveals the model held by `reveal="manual"` (or `showPoster()`), loading it first if need be. */
  dismissPoster(): void {
    this.revealer.dismissPoster();
  }

  /** `<model-viewer>`'s: hides the model behind the poster until the next `dismissPoster()`. */
  showPoster(): void {
    this.revealer.showPoster();
  }

  // ── Snapshots (element-snapshot.ts) ─────────────────────────────────────────────────────────────────

  /**
   * `<model-viewer>`'s: the picture shown (the canvas's drawing buffer, CSS size × devicePixelRatio; transparent
   * where the model is not: the `background` is CSS) as a data URL of `type` (default PNG) at `encoderOptions`
   * quality (JPEG / WebP, in [0, 1]). `data:,` while disconnected. See {@link toBlob}.
   */
  toDataURL(type?: string, encoderOptions?: number): string {
    return this.view ? this.view.canvas.toDataURL(type, encoderOptions) : 'data:,';
  }

  /**
   * `<model-viewer>`'s: the picture shown as a `Blob` of `mimeType` (default `image/png`) at `qualityArgument`;
   * `idealAspect: true` crops it, centred, to the model's aspect (element-snapshot.ts). A copy of the frame
   * last drawn: nothing is drawn or read back, the visible canvas is untouched.
   * @throws Error (rejects) while disconnected, or when the browser cannot encode the image
   */
  toBlob(options?: ToBlobOptions): Promise<Blob> {
    return snapshotBlob(this.view, options);
  }

  /** The recordings of {@link toVideo}, one at a time. */
  private readonly video = new ElementVideo({ currentView: () => this.view, graphDrives: () => this.graph.active });

  /**
   * An animated preview of the model shown as a `Blob` of `mimeType`: `video/webm` (default; VP9 or VP8 through
   * WebCodecs), `video/mp4` (H.264 where the browser encodes it, else VP9 / AV1 in MP4), `image/apng` (lossless) or
   * `image/gif`. Frame k is `clip` at k / `fps` seconds (default the clip shown, 30 fps, its whole `duration`; a longer
   * recording loops it), the camera turned by `turntable` · k / frameCount degrees, and is the picture `toBlob` would
   * give there: posed by time, not the clock, so two calls give the same frames. `onProgress(framesDone, frameCount)`
   * follows it. Playback and the camera are put back afterwards (element-video.ts, docs/guide/record-video.md).
   * @throws Error (rejects; the element plays on as before) for an unsupported mimeType, an unknown clip, fps or
   *   duration out of range, too many frames, no model shown, an animation graph driving the element, another
   *   recording running, a browser that cannot encode the format, or the model or canvas size changing meanwhile
   */
  toVideo(options?: ToVideoOptions): Promise<Blob> {
    return this.video.record(options);
  }

  // ── Hotspots (element-hotspots.ts, docs/guide/hotspots.md) ─────────────────────────────────────────

  /** `<model-viewer>`'s `updateHotspot`: moves the hotspot `config.name` until its data attributes change (docs/guide/hotspots.md). */
  updateHotspot(config: HotspotConfiguration): void {
    this.hotspots.updateHotspot(config);
  }

  /** `<model-viewer>`'s `queryHotspot`: the hotspot's place in the last frame drawn, or null (docs/guide/hotspots.md). */
  queryHotspot(name: string): HotspotData | null {
    return this.hotspots.queryHotspot(name);
  }

  // ── Attachments (element-attachments.ts, docs/guide/attachments.md) ────────────────────────────────

  /**
   * Draws the model at `source` (a URL relative to the page, or a loaded `ModelAsset`) on joint `joint` (name or
   * skeleton index) of the model shown, from the next frame on, waiting for the first model if none is shown yet
   * (docs/guide/attachments.md).
   * @param offset 3 numbers (a translation in metres) or 16 (a column-major matrix), in the joint's frame;
   *   default identity
   * @throws Error (rejects, after firing `sinew-error`; the model and other props stay) for an unknown joint (the
   *   message lists the model's joints), a malformed offset, a prop that cannot be loaded, or while disconnected
   */
  attach(source: string | ModelAsset, joint: string | number, offset?: ArrayLike<number>): Promise<Attachment> {
    return this.props.attach(source, joint, offset);
  }

  /** Removes a prop added by {@link attach} or a `<sinew-attachment>` child; false when it is not attached. */
  detach(attachment: Attachment): boolean {
    return this.props.detach(attachment);
  }

  /** The props drawn now (children's and {@link attach}'s), in drawing order. */
  get attachments(): readonly Attachment[] {
    return this.props.list();
  }

  // ── Camera (element-camera.ts: model-viewer's names and units) ───────────────────────────────────

  /** model-viewer's: the orbit now, `{ theta, phi }` radians and `radius` metres (`toString()`: `"θrad φrad rm"`). */
  getCameraOrbit(): SphericalPosition {
    return this.cameraRules.getCameraOrbit();
  }

  /** model-viewer's: the point orbited now, metres in model space (`toString()`: `"xm ym zm"`). */
  getCameraTarget(): Vector3D {
    return this.cameraRules.getCameraTarget();
  }

  /** model-viewer's: the vertical field of view drawn now, degrees. */
  getFieldOfView(): number {
    return this.cameraRules.getFieldOfView();
  }

  /** model-viewer's: puts the camera at the attributes' goal now (undoing input), draws, fires `camera-change`. */
  jumpCameraToGoal(): void {
    this.cameraRules.jumpCameraToGoal();
  }

  // ── Picking (element-picking.ts; pixelX, pixelY: CSS pixels from the element's top-left corner) ─────

  /** model-viewer's: the model-space point and normal (and texture coordinate) under the point, or null. */
  positionAndNormalFromPoint(pixelX: number, pixelY: number): ReturnType<ElementPicking['positionAndNormalFromPoint']> {
    return this.picking.positionAndNormalFromPoint(pixelX, pixelY);
  }

  /** model-viewer's: the `"mesh primitive a b c wa wb wc"` surface string under the point, or null. */
  surfaceFromPoint(pixelX: number, pixelY: number): string | null {
    return this.picking.surfaceFromPoint(pixelX, pixelY);
  }

  /** The skinned surface under the point at the frame shown: the whole hit, its joint's name and weights, or null. */
  pick(pixelX: number, pixelY: number): ElementSurfaceHit | null {
    return this.picking.pick(pixelX, pixelY);
  }

  // ── Events, typed (element-event-map.ts) ────────────────────────────────────────────────────────

  /** Listens for `type`; the element's own events (`load`, `loop`, …) come with their `detail` typed. */
  override addEventListener<K extends keyof SinewViewerElementEventMap>(
    type: K, listener: (this: SinewViewerElement, ev: SinewViewerElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void {
    super.addEventListener(type, listener, options);
  }

  /** Stops listening, as {@link addEventListener} typed. */
  override removeEventListener<K extends keyof SinewViewerElementEventMap>(
    type: K, listener: (this: SinewViewerElement, ev: SinewViewerElementEventMap[K]) => unknown, options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void {
    super.removeEventListener(type, listener, options);
  }

}

/**
 * Registers {@link SinewViewerElement} as `<sinew-viewer>` (or `name`), unless that name is defined already
 * (a second copy of the script, hot reload): then the existing definition stays.
 * @returns the constructor registered under `name`, or null where there is no `customElements` (node, SSR)
 */
export function defineSinewViewer(name = 'sinew-viewer'): CustomElementConstructor | null {
  if (typeof customElements === 'undefined') return null;
  const existing = customElements.get(name);
  if (existing) return existing;
  customElements.define(name, name === 'sinew-viewer' ? SinewViewerElement : class extends SinewViewerElement {});
  return customElements.get(name)!;
}
