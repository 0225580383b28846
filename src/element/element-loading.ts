import type { ModelAsset } from '../asset/model-asset.ts';
import { fileNameOf, loadModelFromUrl } from '../loaders/fetch/load-model-from-url.ts';
import { memoryBudgetOf } from './memory-budget-attribute.ts';
import { createOctopusAsset } from '../procedural/octopus.ts';
import { type ModelView } from '../view/model-view.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ShowOptions } from '../view/model-view-options.ts';
import { ProgressBar } from '../view/progress-bar.ts';
import type { ViewerHost } from '../view/viewer-host.ts';
import { readAttribute } from './element-attributes.ts';
import { requestedClip } from './element-playback.ts';

/** What {@link ElementLoading} needs from its `<sinew-viewer>`. */
export interface ElementLoadingOwner {
  /** The element whose `src`, `anim`, `clip`, `time`, `autoplay` and `loading` are read. */
  readonly element: HTMLElement;
  /** The view loads go to; null while disconnected. */
  currentView(): ModelView | null;
  /** Whether the model about to load starts playing, given its `time` attribute (seconds, or null). */
  startsPlaying(time: number | null): boolean;
  /** A load from `src` started (its file name) or the latest one settled (null): the controls' status. */
  setStatus(fileName: string | null): void;
  /** Bytes of the latest load so far, and in all (null while unknown): fires `sinew-progress`. */
  progressed(loaded: number, total: number | null): void;
  /**
   * `<model-viewer>`'s total progress of the latest load from `src`, in [0, 1]: 0 when it starts, never
   * decreasing, at most 0.95 while downloading, 1 once it settled (shown or failed): fires `progress`.
   */
  loadProgress(totalProgress: number): void;
  /** Whether loads wait (`reveal="manual"` before `dismissPoster()`); {@link ElementLoading.release} ends it. */
  holdsLoad(): boolean;
  /** The load of `src` failed with `error` (after {@link report}): fires `error`. */
  loadFailed(error: unknown): void;
  /** A load replaced the model shown. */
  shown(): void;
  /** Fires `sinew-error`. */
  report(message: string): void;
  /** `clip`, `time` or `autoplay` changed during a load: apply them (clip too) now that every load settled. */
  applyPlayback(): void;
}

/** What survives a disconnection (CPU only), so reconnecting shows the same model without fetching it. */
interface RetainedModel {
  readonly asset: ModelAsset;
  /** `src` + `anim` it was loaded from. */
  readonly source: string;
  readonly clipIndex: number;
  readonly time: number;
  readonly playing: boolean;
}

/**
 * Loading of one `<sinew-viewer>`: one load per task of attribute changes, `loading="lazy"` waiting until the
 * element comes near the viewport, the download bar (`part="progress"`) and `sinew-progress` of the latest
 * load, the model kept across a disconnection, and playback attributes changed mid-load applied once it
 * settles. Every load goes through the view's transactional {@link ModelView.load}.
 */
export class ElementLoading {
  /** The download bar, for the owner to place in its shadow root. */
  readonly progress = new ProgressBar('Downloading the model');
  private readonly owner: ElementLoadingOwner;
  /** The model kept by the last disconnection, until the next connection. */
  private retainedModel: RetainedModel | null = null;
  /** `src` + `anim` of the model shown. */
  private shownSource: string | null = null;
  private loadTimer = 0;
  private loadsRunning = 0;
  /** `clip` / `time` / `autoplay` changed during a load: apply them once it settles. */
  private playbackDirty = false;
  /** The element is within the near margin of the viewport (for `loading="lazy"`). */
  private near = false;
  /** A load waits for the element to come near the viewport. */
  private loadDeferred = false;
  private stopNearness: (() => void) | null = null;
  /** Bumped by each load started (and by a disconnection): only the latest one shows its progress. */
  private loadSerial = 0;
  /** The serial of the latest load from `src` (the one `progress` reports), and its total progress so far. */
  private progressSerial = -1;
  private totalProgress = 0;

  constructor(owner: ElementLoadingOwner) {
    this.owner = owner;
    this.progress.element.setAttribute('part', 'progress');
  }

  /** The model kept while disconnected (with its clip, time and play state), or null. */
  get retained(): Readonly<RetainedModel> | null {
    return this.retainedModel;
  }

  /** Whether a load runs or waits for the end of this task (playback attributes then wait for it). */
  get busy(): boolean {
    return this.loadsRunning > 0 || this.loadTimer !== 0;
  }

  /** `src` and `anim` as one key: what the shown model was loaded from. */
  sourceKey(): string {
    const element = this.owner.element;
    return `${element.getAttribute('src') ?? ''}\n${element.getAttribute('anim') ?? ''}`;
  }

  /** {@link sourceKey} with the URLs resolved against the page, so one model has one key on the page. */
  resolvedSourceKey(): string {
    const resolve = (url: string | null): string => {
      if (!url) return '';
      try {
        return new URL(url, document.baseURI).href;
      } catch {
        return url;
      }
    };
    const element = this.owner.element;
    return `${resolve(element.getAttribute('src'))}\n${resolve(element.getAttribute('anim'))}`;
  }

  /**
   * The element connected with `view`: watches its nearness through `host`, then shows the retained model
   * when it came from the same `src` + `anim`, else loads `src`.
   */
  connect(view: ModelView, host: ViewerHost): void {
    this.near = false;
    this.stopNearness = host.observeNearness(this.owner.element, (near) => this.onNearness(near));
    const retained = this.retainedModel;
    this.retainedModel = null;
    if (retained && retained.source === this.sourceKey()) {
      const options: ShowOptions = { clip: String(retained.clipIndex), time: retained.time, playing: retained.playing };
      void this.runLoad(view, retained.asset, options, retained.source, ++this.loadSerial);
    } else {
      this.schedule();
    }
  }

  /** The element disconnected from `view` (about to be disposed): drops pending loads, keeps its model. */
  disconnect(view: ModelView): void {
    clearTimeout(this.loadTimer);
    this.loadTimer = 0;
    this.loadDeferred = false;
    this.stopNearness?.();
    this.stopNearness = null;
    this.loadSerial++;
    this.progress.hide();
    this.owner.setStatus(null);
    const asset = view.asset;
    if (asset && this.shownSource !== null) {
      const state = view.state();
      this.retainedModel = { asset, source: this.shownSource, clipIndex: state.clipIndex, time: state.time, playing: state.playing };
    }
  }

  /**
   * `loading` changed, or the reveal hold ended: a deferred load starts when nothing holds it any more.
   */
  release(): void {
    if (this.loadDeferred && !this.waits()) this.schedule();
  }

  /** `<model-viewer>`'s `loaded`: the model of the current `src` (and `anim`) is shown in `view`. */
  loaded(view: ModelView | null): boolean {
    return !!view?.asset && this.shownSource === this.sourceKey();
  }

  /** `clip`, `time` or `autoplay` changed: true when a load is under way (they are applied once it settles). */
  deferPlayback(): boolean {
    if (!this.busy) return false;
    this.playbackDirty = true;
    return true;
  }

  /**
   * Loads `src` after the current task, so several attribute changes make one load; with `loading="lazy"`,
   * not before the element is near the viewport.
   */
  schedule(): void {
    if (this.loadTimer !== 0) return;
    if (this.waits()) {
      this.loadDeferred = true;
      return;
    }
    this.loadDeferred = false;
    this.loadTimer = window.setTimeout(() => {
      this.loadTimer = 0;
      const view = this.owner.currentView();
      if (!view) return;
      if (this.waits()) {
        // `reveal="manual"` set in the task that connected the element.
        this.loadDeferred = true;
        return;
      }
      const element = this.owner.element;
      const src = element.getAttribute('src');
      const anim = element.getAttribute('anim');
      const time = readAttribute(element, 'time', null).value;
      const playing = this.owner.startsPlaying(time);
      // A model nobody asked to animate stands in its rest pose, as model-viewer shows it.
      const clip = requestedClip(element)?.value ?? (playing || time !== null ? null : 'rest');
      const serial = ++this.loadSerial;
      let source: () => Promise<ModelAsset>;
      if (src) {
        this.owner.setStatus(fileNameOf(src));
        this.progress.show(0, null);
        this.progressSerial = serial;
        this.totalProgress = 0;
        this.owner.loadProgress(0);
        const advance = (fraction: number): void => {
          if (serial !== this.loadSerial || !(fraction > this.totalProgress)) return;
          this.totalProgress = fraction;
          this.owner.loadProgress(fraction);
        };
        // The download to 80 %, the parse's long steps (the page has a turn after each) to 95 %; model-viewer
        // keeps the last 5 % for the upload and first frame.
        const onProgress = (loaded: number, total: number | null): void => {
          if (serial !== this.loadSerial) return;
          this.progress.show(loaded, total);
          this.owner.progressed(loaded, total);
          advance(total ? Math.min(loaded / total, 1) * 0.8 : 0);
        };
        const onParseProgress = (fraction: number): void => advance(0.8 + 0.15 * fraction);
        const memoryBudgetBytes = memoryBudgetOf(element);
        source = () => loadModelFromUrl(src, { anim, onProgress, onParseProgress, memoryBudgetBytes, baseUrl: document.baseURI });
      } else {
        source = async () => createOctopusAsset();
      }
      void this.runLoad(view, source, { clip, time, playing }, this.sourceKey(), serial);
    }, 0);
  }

  /** Whether a load must wait: held by the owner, or `loading="lazy"` and not near the viewport. */
  private waits(): boolean {
    return this.owner.holdsLoad() || (readAttribute(this.owner.element, 'loading', null).value === 'lazy' && !this.near);
  }

  /** The element came near the viewport or left it: a deferred lazy load starts. */
  private onNearness(near: boolean): void {
    this.near = near;
    if (near && this.loadDeferred) this.schedule();
  }

  /**
   * Runs one load on `view`; its failure (unless superseded) fires `sinew-error`. The latest load (`serial`)
   * clears the loading status when it settles.
   */
  private async runLoad(view: ModelView, source: ModelAsset | (() => Promise<ModelAsset>), options: ShowOptions, key: string, serial: number): Promise<void> {
    this.loadsRunning++;
    try {
      if (await view.load(source, options)) {
        this.shownSource = key;
        this.owner.shown();
      }
    } catch (e) {
      if (view === this.owner.currentView()) {
        this.owner.report(messageOf(e));
        this.owner.loadFailed(e);
      }
    } finally {
      this.loadsRunning--;
      if (serial === this.loadSerial) {
        this.progress.hide();
        this.owner.setStatus(null);
        if (serial === this.progressSerial) this.owner.loadProgress(1);
      }
    }
    if (view === this.owner.currentView() && !this.busy && this.playbackDirty) {
      this.playbackDirty = false;
      this.owner.applyPlayback();
    }
  }
}
