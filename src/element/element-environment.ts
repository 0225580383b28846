/**
 * `<sinew-viewer>`'s light (model-viewer's `environment-image`, `skybox-image`, `exposure`, `tone-mapping`;
 * docs/guide/lighting.md): reads the attributes into the element's own {@link SceneLighting}, which
 * its view hands the shared renderer before each of its draws, so every element keeps its own light on the
 * one context. Images are fetched and decoded once per URL per page (element instances share them); a
 * failing image keeps the light shown before and fires one `error` event (and `sinew-error`) naming it.
 */
import type { EquirectImage } from '../asset/equirect-image.ts';
import type { SceneLighting } from '../gpu/shading/scene-lighting.ts';
import { loadEnvironmentImage } from '../loaders/fetch/load-environment-image.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ModelView } from '../view/model-view.ts';
import { readAttribute } from './element-attributes.ts';
import { memoryBudgetOf } from './memory-budget-attribute.ts';

/**
 * model-viewer's exposure compensation (three-components/Renderer.ts `COMMERCE_EXPOSURE`): with the neutral
 * tone mapper and a generated environment (`neutral`, `legacy`) it multiplies the exposure by 1.3.
 */
export const GENERATED_ENVIRONMENT_EXPOSURE = 1.3;

/**
 * Decoded images by memory budget and absolute URL, shared by the page's elements; a failed load is forgotten (so
 * it can be retried).
 */
const images = new Map<string, Promise<EquirectImage>>();

function imageAt(url: string, memoryBudgetBytes: number): Promise<EquirectImage> {
  const key = `${memoryBudgetBytes} ${url}`;
  let loading = images.get(key);
  if (!loading) {
    loading = loadEnvironmentImage(url, memoryBudgetBytes);
    images.set(key, loading);
    loading.catch(() => {
      if (images.get(key) === loading) images.delete(key);
    });
  }
  return loading;
}

/** What `environment-image` and `skybox-image` name: a built-in, a URL, or nothing. */
type Source = { readonly builtIn: 'neutral' | 'legacy' } | { readonly url: string } | null;

/** Options of {@link ElementEnvironment}. */
export interface ElementEnvironmentOptions {
  readonly element: HTMLElement;
  /** Where malformed attributes and failed images go (`sinew-error` + console warning). */
  readonly report: (message: string) => void;
}

/** The light of one `<sinew-viewer>` (see the file comment). */
export class ElementEnvironment {
  /** The element's light, handed to its view (mutated in place). */
  readonly lighting: SceneLighting = { environment: 'neutral', skybox: null, exposure: GENERATED_ENVIRONMENT_EXPOSURE, toneMapping: 'neutral' };
  private view: ModelView | null = null;
  /** Bumped by each change of the image attributes: a load finishing after a newer change is dropped. */
  private token = 0;
  private exposure = 1;

  constructor(private readonly options: ElementEnvironmentOptions) {}

  /** Gives `view` this light and reads every light attribute (`report`: whether malformed ones are reported). */
  connect(view: ModelView, report: boolean): void {
    this.view = view;
    view.lighting = this.lighting;
    this.readTone(report ? 'exposure' : null, report ? 'tone-mapping' : null);
    void this.readImages();
  }

  disconnect(): void {
    this.view = null;
    this.token++;
  }

  /** An attribute of the light changed. */
  changed(name: 'environment-image' | 'skybox-image' | 'exposure' | 'tone-mapping'): void {
    if (name === 'exposure' || name === 'tone-mapping') this.readTone(name, null);
    else void this.readImages();
  }

  /** Reads `exposure` and `tone-mapping`, reporting a malformed value of those named. */
  private readTone(...reported: (string | null)[]): void {
    const reporter = (name: string) => (reported.includes(name) ? this.options.report : null);
    this.exposure = readAttribute(this.options.element, 'exposure', reporter('exposure')).value;
    this.lighting.toneMapping = readAttribute(this.options.element, 'tone-mapping', reporter('tone-mapping')).value;
    this.applyExposure();
  }

  /** model-viewer's rule: × {@link GENERATED_ENVIRONMENT_EXPOSURE} for the neutral tone mapper under a generated room. */
  private applyExposure(): void {
    const t = this.lighting.toneMapping;
    const neutral = t === 'auto' || t === 'neutral' || t === 'commerce';
    const generated = this.lighting.environment === 'neutral' || this.lighting.environment === 'legacy';
    this.lighting.exposure = this.exposure * (neutral && generated ? GENERATED_ENVIRONMENT_EXPOSURE : 1);
    this.view?.requestRedraw();
  }

  private source(name: 'environment-image' | 'skybox-image'): Source {
    const raw = (this.options.element.getAttribute(name) ?? '').trim();
    if (raw === '') return null;
    if (name === 'environment-image' && (raw === 'neutral' || raw === 'legacy')) return { builtIn: raw };
    return { url: new URL(raw, this.options.element.ownerDocument.baseURI).href };
  }

  /** Loads what the image attributes name, then switches to it; on failure keeps the light shown. */
  private async readImages(): Promise<void> {
    const token = ++this.token;
    const environment = this.source('environment-image');
    const skybox = this.source('skybox-image');
    const load = async (source: Source, attribute: string): Promise<EquirectImage | null | undefined> => {
      if (!source || !('url' in source)) return null;
      try {
        const image = await imageAt(source.url, memoryBudgetOf(this.options.element));
        const max = this.view?.gl?.getParameter(WebGL2RenderingContext.MAX_TEXTURE_SIZE) as number | undefined;
        if (max && (image.width > max || image.height > max)) {
          throw new Error(`${source.url}: ${image.width} × ${image.height} is larger than this GPU's textures (${max})`);
        }
        return image;
      } catch (e) {
        if (token === this.token) this.fail(attribute, source.url, e);
        return undefined;
      }
    };
    const [environmentImage, skyboxImage] = await Promise.all([load(environment, 'environment-image'), load(skybox, 'skybox-image')]);
    if (token !== this.token || environmentImage === undefined || skyboxImage === undefined) return;
    this.lighting.environment = environment && 'builtIn' in environment ? environment.builtIn : environmentImage ?? skyboxImage ?? 'neutral';
    this.lighting.skybox = skyboxImage;
    this.applyExposure();
  }

  /** Reports a failed image: `sinew-error` and a console warning, and model-viewer's `error` event. */
  private fail(attribute: string, url: string, cause: unknown): void {
    const message = `<sinew-viewer ${attribute}>: ${messageOf(cause)}; the light shown before stays`;
    this.options.report(message);
    this.options.element.dispatchEvent(new CustomEvent('error', {
      detail: { type: 'loadfailure', attribute, url, message, sourceError: cause },
      bubbles: true, composed: true,
    }));
  }
}
