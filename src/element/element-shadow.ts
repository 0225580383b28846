/**
 * `<sinew-viewer>`'s contact shadow (model-viewer's `shadow-intensity`, `shadow-softness`; docs/guide/embedding.md):
 * reads the attributes into the element's own {@link ContactShadow}, drawn by a frame stage of its view right
 * after the model, so each element on the shared context keeps its own shadow (or none).
 */
import { ContactShadow, ModelShadowCaster, type ContactShadowSettings } from '../gpu/passes/contact-shadow.ts';
import type { ModelView } from '../view/model-view.ts';
import type { FrameStage, ViewFrame } from '../view/view-frame.ts';
import { readAttribute } from './element-attributes.ts';

/** Options of {@link ElementShadow}. */
export interface ElementShadowOptions {
  readonly element: HTMLElement;
  /** Where malformed attributes go (`sinew-error` + console warning). */
  readonly report: (message: string) => void;
}

/** The contact shadow of one `<sinew-viewer>` (see the file comment). */
export class ElementShadow implements FrameStage {
  /** The shadow as the attributes set it (mutated in place). */
  readonly settings: ContactShadowSettings = { intensity: 0, softness: 1 };
  private readonly shadow = new ContactShadow();
  private readonly caster = new ModelShadowCaster();
  private view: ModelView | null = null;
  private removeStage: (() => void) | null = null;

  constructor(private readonly options: ElementShadowOptions) {}

  /** Draws the shadow in `view`'s frames and reads both attributes (malformed ones reported later by the element). */
  connect(view: ModelView): void {
    this.view = view;
    this.read(null);
    this.removeStage = view.addStage(this);
  }

  disconnect(): void {
    this.removeStage?.();
    this.removeStage = null;
    this.view = null;
    this.shadow.dispose();
  }

  /** `shadow-intensity` or `shadow-softness` changed: read again (reporting a malformed value), redraw. */
  changed(name: 'shadow-intensity' | 'shadow-softness'): void {
    this.read(name);
    this.view?.requestRedraw();
  }

  private read(reported: string | null): void {
    const reporter = (name: string) => (name === reported ? this.options.report : null);
    this.settings.intensity = readAttribute(this.options.element, 'shadow-intensity', reporter('shadow-intensity')).value;
    this.settings.softness = readAttribute(this.options.element, 'shadow-softness', reporter('shadow-softness')).value;
  }

  /** @internal A shadow draws the skinned model again: the view skins it once for both passes. */
  drawsSkinnedModel(): boolean {
    return this.settings.intensity > 0 && this.view?.bounds != null;
  }

  /** @internal The frame stage: the shadow under the framed box, after the model. */
  afterDraw(frame: ViewFrame): void {
    const bounds = this.view?.bounds;
    if (!bounds || !(this.settings.intensity > 0)) return;
    this.shadow.draw(this.caster.use(frame), bounds, this.settings, frame.gpu.asset.clips.length > 0);
  }
}
