/**
 * `<sinew-viewer>`'s hotspots, after `<model-viewer>`'s annotations: children slotted as `slot="hotspot-NAME"`
 * are shown over the canvas, their centre on a point that follows the model — a joint (`data-joint`,
 * `data-offset`), a point of the skinned surface (`data-surface`) or a fixed model-space point
 * (`data-position`) — placed in every frame the view draws, by a frame stage that runs right after the model is
 * drawn (no frame of lag). docs/guide/hotspots.md documents the attributes, visibility rule, CSS and methods.
 */
import { vector3D, type Vector3D } from './model-viewer-vectors.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { ModelPoint, type ModelPointSpec } from '../scene/model-point.ts';
import { PointOcclusion } from '../scene/point-occlusion.ts';
import type { ModelView } from '../view/model-view.ts';
import type { FrameStage, ViewFrame } from '../view/view-frame.ts';
import { PixelRays } from '../view/pixel-ray.ts';
import { messageOf } from '../errors/message-of.ts';
import { HOTSPOT_ATTRIBUTE_NAMES, isHotspotSlot, readHotspotSpec, type HotspotAttributes } from './hotspot-syntax.ts';

/**
 * `updateHotspot`'s argument, `<model-viewer>`'s `HotspotConfiguration` with Sinew's `joint` and `offset`:
 * strings in the syntax of the data attributes of the same names. A kind given (`surface`, `joint`,
 * `position`; the first of these present wins) replaces the hotspot's kind; fields left out keep their value.
 */
export interface HotspotConfiguration {
  /** The slot name, `hotspot-…`. */
  name: string;
  position?: string;
  normal?: string;
  surface?: string;
  joint?: string;
  offset?: string;
}

/** `queryHotspot`'s answer, `<model-viewer>`'s `HotspotData` plus `visible`. */
export interface HotspotData {
  /** Model space (the file's space and units), metres. */
  position: Vector3D;
  /** Unit normal in model space; (0, 0, 0) for a joint hotspot without `data-normal`. */
  normal: Vector3D;
  /** x, y: CSS pixels from the canvas's top-left corner; z: normalised device depth (−1 near … 1 far). */
  canvasPosition: Vector3D;
  /** The normal faces the camera (always true without a normal). */
  facingCamera: boolean;
  /** Facing the camera and not hidden behind the model: what `data-visible` shows. */
  visible: boolean;
}

/** What {@link ElementHotspots} needs from its element. */
export interface ElementHotspotsOwner {
  readonly element: HTMLElement;
  /** Fires `sinew-error` (and logs it). */
  report(message: string): void;
}

/** One slot name's hotspot: its wrapper in the shadow root and what it follows. */
interface Hotspot {
  readonly name: string;
  readonly wrapper: HTMLDivElement;
  readonly slot: HTMLSlotElement;
  /** The data attributes of the first child in the slot, as last read. */
  read: HotspotAttributes;
  /** What the hotspot follows: {@link read}, or what `updateHotspot` set since they last changed. */
  attributes: HotspotAttributes;
  spec: ModelPointSpec | null;
  /** Why {@link spec} or {@link point} is missing. */
  problem: string | null;
  /** The last problem reported, so each is reported once. */
  reported: string | null;
  point: ModelPoint | null;
  /** Crossings of the surface allowed before the point counts as hidden: 1 for a joint (inside its skin), else 0. */
  allowedCrossings: number;
  /** Placed in the last frame (on screen, in front of the camera). */
  placed: boolean;
  x: number;
  y: number;
  depth: number;
  facing: boolean;
  visible: boolean;
  /** What the DOM shows now: transform values, displayed, the visible state (null: never written). */
  shownX: number;
  shownY: number;
  displayed: boolean;
  shownVisible: boolean | null;
}

/** Attributes of a child element in the data-attribute form. */
function attributesOf(element: HTMLElement): HotspotAttributes {
  const d = element.dataset;
  return { position: d.position ?? null, normal: d.normal ?? null, surface: d.surface ?? null, joint: d.joint ?? null, offset: d.offset ?? null };
}

function sameAttributes(a: HotspotAttributes, b: HotspotAttributes): boolean {
  return a.position === b.position && a.normal === b.normal && a.surface === b.surface && a.joint === b.joint && a.offset === b.offset;
}

/**
 * The hotspots of one `<sinew-viewer>`: a layer in its shadow root with one wrapper (`.annotation-wrapper`,
 * a `<slot name="hotspot-…">` inside) per slot name among its children, kept in step with the children and
 * their data attributes by a MutationObserver, and a {@link FrameStage} that places each wrapper's centre on
 * its point in every frame drawn. The placement allocates nothing per frame; the DOM is written only when a
 * hotspot's rounded position or state changed.
 */
export class ElementHotspots implements FrameStage {
  /** The layer over the canvas holding the wrappers, for the element's shadow root. */
  readonly layer: HTMLDivElement;
  private readonly owner: ElementHotspotsOwner;
  private readonly byName = new Map<string, Hotspot>();
  /** The same hotspots as {@link byName}, iterated per frame without an iterator. */
  private list: Hotspot[] = [];
  private readonly observer: MutationObserver | null;
  private resizeObserver: ResizeObserver | null = null;
  private view: ModelView | null = null;
  private removeStage: (() => void) | null = null;
  private model: AnimatedModel | null = null;
  private occlusion: PointOcclusion | null = null;
  private readonly rays = new PixelRays();
  /** Scratch of {@link PixelRays.project}: x, y (CSS pixels), NDC depth. */
  private readonly projected = new Float64Array(3);
  /** The canvas's CSS size (fractional, from the ResizeObserver), 0 until known. */
  private cssWidth = 0;
  private cssHeight = 0;

  constructor(owner: ElementHotspotsOwner) {
    this.owner = owner;
    this.layer = document.createElement('div');
    this.layer.className = 'hotspots';
    this.observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(() => this.sync());
  }

  /** Starts following `view`: reads the children, watches them, places the hotspots in each frame. */
  connect(view: ModelView): void {
    this.view = view;
    this.observer?.observe(this.owner.element, { childList: true, subtree: true, attributes: true, attributeFilter: [...HOTSPOT_ATTRIBUTE_NAMES] });
    this.sync();
    this.removeStage = view.addStage(this);
    this.cssWidth = this.cssHeight = 0;
    this.resizeObserver = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (!box) return;
      this.cssWidth = box.width;
      this.cssHeight = box.height;
      // Over the canvas even when the element has padding (read after layout, in the observer's callback).
      this.layer.style.left = `${view.canvas.offsetLeft}px`;
      this.layer.style.top = `${view.canvas.offsetTop}px`;
      view.requestRedraw();
    });
    this.resizeObserver.observe(view.canvas);
  }

  /** Stops following the view (the element was disconnected); the wrappers stay, hidden until the next frame. */
  disconnect(): void {
    this.observer?.disconnect();
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
    this.removeStage?.();
    this.removeStage = null;
    this.view = null;
  }

  /**
   * `<model-viewer>`'s `updateHotspot`: changes the hotspot named `config.name` (nothing when there is none)
   * until its data attributes change again; draws the change.
   */
  updateHotspot(config: HotspotConfiguration): void {
    const hotspot = this.byName.get(String(config?.name));
    if (!hotspot) return;
    const old = hotspot.attributes;
    const surface = config.surface ?? (config.joint !== undefined || config.position !== undefined ? null : old.surface);
    const joint = config.joint ?? (config.surface === undefined && config.position !== undefined ? null : old.joint);
    hotspot.attributes = {
      surface, joint, position: config.position ?? old.position, normal: config.normal ?? old.normal, offset: config.offset ?? old.offset,
    };
    this.readSpec(hotspot);
    this.view?.requestRedraw();
  }

  /**
   * `<model-viewer>`'s `queryHotspot`: where the hotspot named `name` was in the last frame drawn.
   * @returns null when there is no such hotspot, or it was not placed (no model yet, a malformed attribute,
   *   an unknown joint, behind the camera)
   */
  queryHotspot(name: string): HotspotData | null {
    const hotspot = this.byName.get(String(name));
    if (!hotspot?.point || !hotspot.placed) return null;
    const { position: p, normal: n } = hotspot.point;
    return {
      position: vector3D(p[0], p[1], p[2]), normal: vector3D(n[0], n[1], n[2]),
      canvasPosition: vector3D(hotspot.x, hotspot.y, hotspot.depth), facingCamera: hotspot.facing, visible: hotspot.visible,
    };
  }

  /** @internal The frame stage: places every hotspot for the frame just drawn. */
  afterDraw(frame: ViewFrame): void {
    if (frame.animated !== this.model) this.bindModel(frame.animated);
    let width = this.cssWidth, height = this.cssHeight;
    if (!(width > 0 && height > 0) && this.view) {
      // Before the ResizeObserver's first call: the view has just read the layout for this frame.
      width = this.view.canvas.clientWidth;
      height = this.view.canvas.clientHeight;
    }
    const list = this.list;
    for (let i = 0; i < list.length; i++) this.place(list[i], frame, width, height);
  }

  /** Places one hotspot for `frame` and shows the result. */
  private place(h: Hotspot, frame: ViewFrame, width: number, height: number): void {
    const point = h.point;
    h.placed = false;
    if (point) {
      point.place(frame.method);
      const eye = frame.camera.eye;
      const wp = point.worldPosition;
      // CSS pixels: the projection scales NDC by the size it is given.
      const at = this.rays.project(this.projected, frame.camera, width, height, wp);
      const z = at[2];
      if (z >= -1 && z <= 1 && Number.isFinite(at[0]) && Number.isFinite(at[1])) {
        h.placed = true;
        h.x = at[0];
        h.y = at[1];
        h.depth = z;
        const n = point.worldNormal;
        h.facing = !point.hasNormal || n[0] * (eye[0] - wp[0]) + n[1] * (eye[1] - wp[1]) + n[2] * (eye[2] - wp[2]) >= 0;
        h.visible = h.facing && this.occluder(point.worldPosition, frame, h.allowedCrossings, eye) <= h.allowedCrossings;
      }
    }
    this.show(h);
  }

  /** Surface crossings between the eye and the point (at most `allowed + 1`). */
  private occluder(point: Float64Array, frame: ViewFrame, allowed: number, eye: Float32Array): number {
    this.occlusion ??= new PointOcclusion(frame.animated);
    return this.occlusion.crossings(eye, point, allowed + 1, frame.method);
  }

  /** Writes a hotspot's placement to its wrapper and slotted elements where it changed. */
  private show(h: Hotspot): void {
    const { wrapper } = h;
    if (h.placed !== h.displayed) {
      h.displayed = h.placed;
      wrapper.style.display = h.placed ? '' : 'none';
    }
    if (!h.placed) return;
    // Hundredths of a pixel: finer than any screen, coarse enough to skip writes for a still hotspot.
    const x = Math.round(h.x * 100) / 100, y = Math.round(h.y * 100) / 100;
    if (x !== h.shownX || y !== h.shownY) {
      h.shownX = x; h.shownY = y;
      wrapper.style.transform = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
    }
    if (h.visible !== h.shownVisible) {
      const first = h.shownVisible === null;
      h.shownVisible = h.visible;
      wrapper.classList.toggle('hide', !h.visible);
      this.applyVisibility(h, true);
      if (first) h.slot.addEventListener('slotchange', () => this.applyVisibility(h, false));
    }
  }

  /**
   * Sets (or removes) each slotted element's visibility attribute — `data-` + its `data-visibility-attribute`,
   * default `data-visible` — and, when `notify`, fires `hotspot-visibility` at it, as `<model-viewer>` does.
   */
  private applyVisibility(h: Hotspot, notify: boolean): void {
    const visible = h.shownVisible === true;
    for (const element of h.slot.assignedElements()) {
      if (!(element instanceof HTMLElement)) continue;
      const attribute = `data-${element.dataset.visibilityAttribute ?? 'visible'}`;
      if (visible) element.setAttribute(attribute, '');
      else element.removeAttribute(attribute);
      if (notify) element.dispatchEvent(new CustomEvent('hotspot-visibility', { detail: { visible } }));
    }
  }

  /** A new model is shown: every hotspot is tied to it again. */
  private bindModel(model: AnimatedModel): void {
    this.model = model;
    this.occlusion = null;
    for (const h of this.list) this.resolve(h);
  }

  /** Reads the children: a hotspot per slot name (attributes from its first child), wrappers added and removed. */
  private sync(): void {
    const first = new Map<string, HTMLElement>();
    for (const child of this.owner.element.children) {
      if (child instanceof HTMLElement && isHotspotSlot(child.slot) && !first.has(child.slot)) first.set(child.slot, child);
    }
    for (const [name, h] of this.byName) {
      if (first.has(name)) continue;
      h.wrapper.remove();
      this.byName.delete(name);
    }
    for (const [name, child] of first) {
      const attributes = attributesOf(child);
      const existing = this.byName.get(name);
      if (existing) {
        if (!sameAttributes(existing.read, attributes)) {
          existing.read = existing.attributes = attributes;
          this.readSpec(existing);
        }
        continue;
      }
      const wrapper = document.createElement('div');
      wrapper.className = 'annotation-wrapper';
      wrapper.style.display = 'none';
      const slot = document.createElement('slot');
      slot.name = name;
      wrapper.append(slot);
      this.layer.append(wrapper);
      const h: Hotspot = {
        name, wrapper, slot, read: attributes, attributes, spec: null, problem: null, reported: null, point: null, allowedCrossings: 0, placed: false,
        x: 0, y: 0, depth: 0, facing: false, visible: false, shownX: NaN, shownY: NaN, displayed: false, shownVisible: null,
      };
      this.byName.set(name, h);
      this.readSpec(h);
    }
    this.list = [...this.byName.values()];
    this.view?.requestRedraw();
  }

  /** Parses a hotspot's attributes, then ties it to the model shown. */
  private readSpec(h: Hotspot): void {
    h.reported = null;
    try {
      h.spec = readHotspotSpec(h.attributes);
      h.problem = null;
    } catch (e) {
      h.spec = null;
      h.problem = messageOf(e);
    }
    this.resolve(h);
  }

  /** Ties a hotspot's spec to the model shown (when there is one); reports a problem once and hides it. */
  private resolve(h: Hotspot): void {
    h.point = null;
    h.allowedCrossings = h.spec?.kind === 'joint' ? 1 : 0;
    if (h.spec && this.model) {
      try {
        h.point = new ModelPoint(this.model, h.spec);
        h.problem = null;
      } catch (e) {
        h.problem = messageOf(e);
      }
    }
    if (h.problem && h.problem !== h.reported) {
      h.reported = h.problem;
      // After this task, as the element's own attribute problems: page scripts that run after the children
      // were parsed can listen for them.
      const message = `hotspot "${h.name}": ${h.problem}; it is hidden`;
      window.setTimeout(() => this.owner.report(message), 0);
    }
  }
}
