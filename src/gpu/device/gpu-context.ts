import { messageOf } from '../../errors/message-of.ts';

/**
 * The kinds of GL resource a {@link GpuContext} keeps, in the order a restore re-creates them: what a later kind
 * refers to (a vertex array's buffers, a framebuffer's textures) exists by the time it is restored.
 * `environment` is a prefiltered image-based lighting (src/gpu/shading/image-based-lighting.ts): textures
 * rendered by passes, restored by running the passes again.
 */
export const RESOURCE_KINDS = ['buffer', 'texture', 'program', 'vertexArray', 'framebuffer', 'transformFeedback', 'environment'] as const;
/** One of {@link RESOURCE_KINDS}. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A GL object (or a group made and restored together) that a {@link GpuContext} restores after a context loss. */
export interface Restorable {
  readonly kind: ResourceKind;
  /**
   * Makes the GL object again in the restored context from what it was made from, through the same code as its
   * first upload. A promise when part of it is asynchronous (an image decoded again); the context reports
   * itself restored once every promise settles.
   */
  restore(): void | Promise<void>;
}

/** What a view, surface or renderer does when its context is lost or comes back (all optional). */
export interface ContextListener {
  /** The context was lost: stop drawing (draws are no-ops until `restored`). */
  lost?(): void;
  /** Every resource is restored: frames can resume (request one; redo CPU→GPU work that is not a resource). */
  restored?(): void;
  /** Resources failed to restore: once per restore, the first one's message and how many more failed. */
  failed?(message: string): void;
}

/** Live resources by kind, as {@link GpuContext.liveCounts} returns them. */
export type ResourceCounts = Record<ResourceKind, number>;

const CONTEXT = Symbol.for('sinew.gpuContext');

/**
 * The device of one WebGL2 context, as PicoGL's App is: the one listener of its canvas's
 * `webglcontextlost` / `webglcontextrestored` (WebGL 2.0 §5.15.2, WebGL 1.0 §5.15.2: `preventDefault()` on the
 * loss, else the browser never restores), and the registry of every live GL resource made in it. On restore
 * it calls `restore()` on every live resource, kind by kind ({@link RESOURCE_KINDS}), in creation order
 * within a kind; once all have settled it tells its listeners that frames can resume. Callers hold resources,
 * never raw objects of an earlier context, so nothing above this layer counts context generations.
 *
 * One per context: {@link GpuContext.of}. A page drawing on its own canvas pauses and resumes its frames with
 * {@link GpuContext.listen} (docs/guide/own-canvas.md). The instance is kept on the context object under
 * `Symbol.for('sinew.gpuContext')`, so tools and tests holding the context can find it.
 */
export class GpuContext {
  private readonly resources = new Set<Restorable>();
  private readonly listeners = new Set<ContextListener>();
  /** Extensions enabled through {@link extension}: a restored context has none enabled until asked again. */
  private readonly extensions = new Set<string>();
  private lost: boolean;
  private lossCount = 0;

  /** The device of `gl`, made on first call (listening to its canvas from then on). */
  static of(gl: WebGL2RenderingContext): GpuContext {
    const holder = gl as unknown as { [CONTEXT]?: GpuContext };
    let device = holder[CONTEXT];
    if (!device) {
      device = new GpuContext(gl);
      Object.defineProperty(gl, CONTEXT, { value: device, enumerable: false });
    }
    return device;
  }

  private constructor(readonly gl: WebGL2RenderingContext) {
    this.lost = gl.isContextLost();
    const canvas = gl.canvas as EventTarget;
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      this.onLost();
    });
    canvas.addEventListener('webglcontextrestored', () => void this.onRestored());
  }

  /** True from a context loss until every resource is restored (draws are no-ops meanwhile). */
  get isLost(): boolean {
    return this.lost || this.gl.isContextLost();
  }

  /** Losses seen so far: an asynchronous upload begun before a loss compares it to drop its late result. */
  get losses(): number {
    return this.lossCount;
  }

  /**
   * Enables extension `name` (`gl.getExtension`) and again on every restore, before any resource (an extension
   * enabled on the lost context is not enabled on the restored one, WebGL 1.0 §5.15.2). Returns it, or null when
   * the context has none of that name.
   */
  extension<T = unknown>(name: string): T | null {
    const extension = this.gl.getExtension(name) as T | null;
    if (extension !== null) this.extensions.add(name);
    return extension;
  }

  /** @internal Registers a live resource (its constructor calls this). */
  add(resource: Restorable): void {
    this.resources.add(resource);
  }

  /** @internal Unregisters a disposed resource. */
  remove(resource: Restorable): void {
    this.resources.delete(resource);
  }

  /** Live resources by kind (memory readouts; equal before a loss and after its restore when nothing leaks). */
  liveCounts(): ResourceCounts {
    const counts = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, 0])) as ResourceCounts;
    for (const resource of this.resources) counts[resource.kind]++;
    return counts;
  }

  /** Adds a listener; returns the function that removes it. */
  listen(listener: ContextListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onLost(): void {
    if (this.lost) return;
    this.lost = true;
    this.lossCount++;
    for (const listener of [...this.listeners]) listener.lost?.();
  }

  private async onRestored(): Promise<void> {
    const loss = this.lossCount;
    const pending: Promise<void>[] = [];
    const failures: string[] = [];
    for (const name of this.extensions) this.gl.getExtension(name);
    for (const kind of RESOURCE_KINDS) {
      for (const resource of [...this.resources]) {
        if (resource.kind !== kind) continue;
        try {
          const done = resource.restore();
          if (done) pending.push(done.catch((error: unknown) => { failures.push(messageOf(error)); }));
        } catch (error) {
          failures.push(messageOf(error));
        }
      }
    }
    await Promise.all(pending);
    // Lost again while images decoded: the next restore starts over.
    if (loss !== this.lossCount || this.gl.isContextLost()) return;
    this.lost = false;
    // One report per restore, not one per resource: a context that refuses new objects fails them all.
    if (failures.length > 0) {
      const message = failures.length === 1 ? failures[0] : `${failures[0]} (and ${failures.length - 1} more resources)`;
      for (const listener of [...this.listeners]) listener.failed?.(message);
    }
    for (const listener of [...this.listeners]) listener.restored?.();
  }
}
