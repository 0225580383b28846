import type { ModelAsset } from '../asset/model-asset.ts';
import { loadModelFromUrl } from '../loaders/fetch/load-model-from-url.ts';
import { memoryBudgetOf } from './memory-budget-attribute.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { offsetFromNumbers, parseAttachmentOffset } from '../view/attachment-offset.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ModelView } from '../view/model-view.ts';
import type { Attachment } from '../view/view-attachments.ts';

/** The child element that attaches a prop (docs/guide/attachments.md). */
export const ATTACHMENT_TAG = 'sinew-attachment';
/** The attributes of a `<sinew-attachment>` child the element reads. */
export const ATTACHMENT_ATTRIBUTES = ['src', 'joint', 'offset', 'offset-rotation', 'offset-scale'] as const;

/** What {@link ElementAttachments} needs of its `<sinew-viewer>`. */
export interface ElementAttachmentsHost {
  readonly element: HTMLElement;
  /** The element's view while connected, else null. */
  currentView(): ModelView | null;
  /** Fires `sinew-error` with `message`. */
  report(message: string): void;
}

/** One `<sinew-attachment>` child: what it asked for and what it got. */
interface ChildState {
  /** Its attributes when last attached, joined: a change means attach again. */
  key: string;
  /** The prop loaded for its `src` (kept across models and reconnects, so it is fetched once). */
  asset: Promise<ModelAsset> | null;
  src: string | null;
  attachment: Attachment | null;
  /** The skeleton of the last attempt: a failed or dropped child is tried again only on another model. */
  skeleton: Skeleton | null;
  /** Bumped per attempt; a stale attempt's result is detached. */
  token: number;
}

/**
 * `<sinew-viewer>`'s props: its `<sinew-attachment src joint offset offset-rotation offset-scale>` children
 * (watched for added and removed children and changed attributes) and the `attach` / `detach` methods, on the
 * view's {@link ViewAttachments}. A child is attached when a model is shown and again when its attributes
 * change; dropped ones (their joint missing on a new model) come back on a later model that has the joint.
 * Every problem — a prop that cannot be loaded, an unknown joint, a malformed offset — fires `sinew-error`;
 * the model and the other props stay.
 */
export class ElementAttachments {
  private readonly children = new Map<Element, ChildState>();
  private observer: MutationObserver | null = null;
  /** Resolved (and replaced) when a model is shown: `attach` before the first model waits for it. */
  private modelShown: { promise: Promise<void>; resolve: () => void } = deferred();

  constructor(private readonly host: ElementAttachmentsHost) {}

  /** The element connected with `view`: watch the children; the view's warnings become `sinew-error`. */
  connect(view: ModelView): void {
    view.attachments.onWarning = (message) => this.host.report(message);
    this.observer = new MutationObserver(() => this.sync());
    this.observer.observe(this.host.element, { childList: true, subtree: true, attributes: true, attributeFilter: [...ATTACHMENT_ATTRIBUTES] });
    // A new view has none of the props yet.
    for (const state of this.children.values()) {
      state.attachment = null;
      state.skeleton = null;
      state.key = '';
    }
  }

  /** The element disconnected (its view and every attachment are gone with it). */
  disconnect(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.modelShown = deferred();
  }

  /** A model is shown: attach the children that are not (yet, or any more) attached. */
  shown(): void {
    this.modelShown.resolve();
    this.sync();
  }

  /**
   * Attaches `source` (a URL relative to the page, or a loaded ModelAsset) to `joint` of the shown model, waiting
   * for the first model if none is shown yet.
   * @param offset 3 numbers (a translation in metres) or 16 (a column-major matrix), in the joint's frame
   * @throws (rejects, after firing `sinew-error`) as `ViewAttachments.attach`, or when the element is not connected
   */
  async attach(source: string | ModelAsset, joint: string | number, offset?: ArrayLike<number>): Promise<Attachment> {
    try {
      const matrix = offsetFromNumbers(offset);
      let view = this.host.currentView();
      if (!view) throw new Error(`${typeof source === 'string' ? source : source.name}: the element is not connected`);
      if (!view.asset) await this.modelShown.promise;
      view = this.host.currentView();
      if (!view) throw new Error(`${typeof source === 'string' ? source : source.name}: the element was disconnected`);
      const memoryBudgetBytes = memoryBudgetOf(this.host.element);
      return await view.attachments.attach(typeof source === 'string' ? () => loadModelFromUrl(source, { memoryBudgetBytes, baseUrl: document.baseURI }) : source, joint, matrix);
    } catch (e) {
      this.host.report(messageOf(e));
      throw e;
    }
  }

  /** Removes an attachment made by {@link attach} (or a child's); false when it is not attached. */
  detach(attachment: Attachment): boolean {
    return this.host.currentView()?.attachments.detach(attachment) ?? false;
  }

  /** The props drawn now, children's and `attach`'s, in drawing order. */
  list(): readonly Attachment[] {
    return this.host.currentView()?.attachments.list() ?? [];
  }

  /** Brings the view's attachments in line with the children. */
  private sync(): void {
    const view = this.host.currentView();
    if (!view) return;
    const present = new Set<Element>();
    for (const child of Array.from(this.host.element.children)) {
      if (child.localName !== ATTACHMENT_TAG) continue;
      present.add(child);
      let state = this.children.get(child);
      if (!state) {
        state = { key: '', asset: null, src: null, attachment: null, skeleton: null, token: 0 };
        this.children.set(child, state);
      }
      this.syncChild(view, child, state);
    }
    for (const [child, state] of this.children) {
      if (present.has(child)) continue;
      this.children.delete(child);
      state.token++;
      if (state.attachment) view.attachments.detach(state.attachment);
    }
  }

  private syncChild(view: ModelView, child: Element, state: ChildState): void {
    const skeleton = view.asset?.skeleton ?? null;
    if (!skeleton) return;
    const key = ATTACHMENT_ATTRIBUTES.map((name) => child.getAttribute(name) ?? '\u0000').join('\u0001');
    const alive = state.attachment !== null && view.attachments.list().includes(state.attachment);
    if (key === state.key && (alive || state.skeleton === skeleton)) return;
    if (alive) view.attachments.detach(state.attachment!);
    state.attachment = null;
    state.key = key;
    state.skeleton = skeleton;
    const token = ++state.token;
    const src = child.getAttribute('src');
    const joint = child.getAttribute('joint');
    if (!src || !joint) {
      this.host.report(`<${ATTACHMENT_TAG}> needs src and joint (got src=${JSON.stringify(src)}, joint=${JSON.stringify(joint)})`);
      return;
    }
    let offset: Float64Array;
    try {
      offset = parseAttachmentOffset(child.getAttribute('offset'), child.getAttribute('offset-rotation'), child.getAttribute('offset-scale'));
    } catch (e) {
      this.host.report(`<${ATTACHMENT_TAG} src=${JSON.stringify(src)}>: ${messageOf(e)}`);
      return;
    }
    if (state.src !== src || !state.asset) {
      state.src = src;
      state.asset = loadModelFromUrl(src, { memoryBudgetBytes: memoryBudgetOf(this.host.element), baseUrl: document.baseURI });
      // A failed load is tried again when the attributes change.
      state.asset.catch(() => (state.src = null));
    }
    const asset = state.asset;
    void (async () => {
      try {
        const attachment = await view.attachments.attach(await asset, joint, offset);
        if (token !== state.token || this.host.currentView() !== view) view.attachments.detach(attachment);
        else state.attachment = attachment;
      } catch (e) {
        if (token === state.token) this.host.report(messageOf(e));
      }
    })();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
