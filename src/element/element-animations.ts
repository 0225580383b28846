import type { ModelAsset } from '../asset/model-asset.ts';
import { loadClipsFromUrl } from '../loaders/fetch/load-clips-from-url.ts';
import { memoryBudgetOf } from './memory-budget-attribute.ts';
import { requestedClip } from './element-playback.ts';
import type { AddedClips } from '../view/added-clips.ts';
import { type ModelView } from '../view/model-view.ts';
import { messageOf } from '../errors/message-of.ts';

/** What {@link ElementAnimations} needs from its `<sinew-viewer>`. */
export interface ElementAnimationsOwner {
  /** The element whose `animations` and `clip` are read. */
  readonly element: HTMLElement;
  /** The view clips go to; null while disconnected. */
  currentView(): ModelView | null;
  /** Clips were added to the model shown: fires `sinew-clipsadded`, updates `clips` and the clip menu. */
  added(added: AddedClips, clips: readonly string[]): void;
  /** Fires `sinew-error`. */
  report(message: string): void;
}

/**
 * The clips files of one `<sinew-viewer>`: `animations` (fetched in order once a model is shown, and the URLs
 * added to it later) and `appendAnimations(url)`. Each file's clips are added to the shown model with
 * {@link ModelView.addClips}; a failure fires `sinew-error` and leaves the model and its clips as they were.
 * Which URLs a model has taken is remembered per asset, so a reconnect (which shows the same grown asset)
 * fetches nothing again.
 */
export class ElementAnimations {
  private readonly owner: ElementAnimationsOwner;
  /** Per asset shown (the grown one after each addition), the resolved URLs of the files added to it. */
  private readonly addedTo = new WeakMap<ModelAsset, ReadonlySet<string>>();
  /** Bumped by each model shown: an addition started for an earlier one is dropped. */
  private modelSerial = 0;
  /** Resolved URLs of `animations` asked for since the last model was shown, added or not yet. */
  private readonly requested = new Set<string>();
  /** The additions run one after another, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(owner: ElementAnimationsOwner) {
    this.owner = owner;
  }

  /** A model is shown (a load, or a reconnect): the `animations` it has not taken yet are fetched. */
  shown(): void {
    this.modelSerial++;
    this.requested.clear();
    this.attributeChanged();
  }

  /** Resolves once the files asked for so far have been added or have failed (never rejects). */
  settled(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  /** `animations` changed: the URLs the shown model has not taken yet are fetched (removed ones stay). */
  attributeChanged(): void {
    const asset = this.owner.currentView()?.asset;
    if (!asset) return;
    const taken = this.addedTo.get(asset) ?? new Set<string>();
    const urls = (this.owner.element.getAttribute('animations') ?? '').split(/\s+/).filter((url) => url !== '');
    for (const url of urls) {
      const key = resolved(url);
      if (taken.has(key) || this.requested.has(key)) continue;
      this.requested.add(key);
      this.append(url, true).catch(() => { /* reported */ });
    }
  }

  /**
   * Fetches the clips file at `url` (relative to the page) after the files already asked for, and adds its
   * clips to the model shown.
   * @param fromAttribute from `animations`: then `clip`, when it names an added clip, is selected
   * @returns the added clips' names
   * @throws Error (rejects, after firing `sinew-error`) when no model is shown, the file cannot be read or
   *   matches no joint of the model, or another model was shown meanwhile
   */
  append(url: string, fromAttribute = false): Promise<readonly string[]> {
    const serial = this.modelSerial;
    // Another model (or a reconnect) shows now, or the element left the page: for `animations`, `shown` asks again.
    const stale = (): boolean => serial !== this.modelSerial || !this.owner.currentView()?.asset;
    const run = async (): Promise<readonly string[]> => {
      try {
        if (fromAttribute && stale()) return [];
        if (!this.owner.currentView()?.asset) throw new Error(`${url}: no model is shown to add its clips to`);
        const library = await loadClipsFromUrl(url, { memoryBudgetBytes: memoryBudgetOf(this.owner.element), baseUrl: document.baseURI });
        if (fromAttribute && stale()) return [];
        const view = this.owner.currentView();
        if (!view?.asset || serial !== this.modelSerial) throw new Error(`${library.name}: the model changed before its clips were added`);
        const before = this.addedTo.get(view.asset) ?? new Set<string>();
        const added = view.addClips(library);
        this.addedTo.set(view.asset, new Set([...before, resolved(url)]));
        const clips = Object.freeze(view.asset.clips.map((clip) => clip.name));
        // `animation-name` (or its deprecated alias `clip`) naming an added clip selects it now.
        const clip = requestedClip(this.owner.element)?.value ?? null;
        if (fromAttribute && clip !== null && added.names.includes(clip) && view.state().clip !== clip) view.selectClipByName(clip, 0);
        this.owner.added(added, clips);
        return Object.freeze([...added.names]);
      } catch (e) {
        this.owner.report(messageOf(e));
        throw e;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** `url` resolved against the page, so one file has one key. */
function resolved(url: string): string {
  try {
    return new URL(url, document.baseURI).href;
  } catch {
    return url;
  }
}
