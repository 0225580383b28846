import { GpuContext, type Restorable, type ResourceKind } from './gpu-context.ts';

/** The WebGL2 call that makes each kind's object, named in the error when it returns null. */
const CREATE_CALLS: Record<ResourceKind, string> = {
  buffer: 'createBuffer', texture: 'createTexture', program: 'createProgram', vertexArray: 'createVertexArray',
  framebuffer: 'createFramebuffer', transformFeedback: 'createTransformFeedback', environment: 'createTexture',
};

/**
 * A GL object that re-creates itself after a context loss: made and filled by {@link restore} (the first
 * upload runs it too, so every upload tests the restore path), registered with its context's
 * {@link GpuContext} until {@link dispose}. Subclasses keep what the object is made from and end their
 * constructor with {@link start}.
 */
export abstract class GpuResource<H extends object> implements Restorable {
  abstract readonly kind: ResourceKind;
  readonly device: GpuContext;
  readonly gl: WebGL2RenderingContext;
  private current: H | null = null;
  private disposed = false;

  constructor(gl: WebGL2RenderingContext) {
    this.gl = gl;
    this.device = GpuContext.of(gl);
  }

  /** The GL object in the context as it is now (a new one after each restore). */
  get handle(): H {
    return this.current!;
  }

  /** Whether {@link dispose} has run. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Makes the empty GL object (`gl.createX`), or null when the context is lost. */
  protected abstract create(): H | null;
  /** Fills a new object from what the resource keeps (a promise when part of it is asynchronous). */
  protected abstract fill(handle: H): void | Promise<void>;
  /** Deletes the object (`gl.deleteX`). */
  protected abstract destroy(handle: H): void;

  /**
   * Registers the resource and makes its object the first time.
   * @throws Error naming the resource when the object cannot be made (context lost)
   */
  protected start(): void | Promise<void> {
    const done = this.restore();
    this.device.add(this);
    return done;
  }

  /** See {@link Restorable.restore}. @throws Error when the object cannot be made (context lost) */
  restore(): void | Promise<void> {
    const handle = this.create();
    if (!handle) throw new Error(`${this.describe()}: gl.${CREATE_CALLS[this.kind]} failed (context lost?)`);
    this.current = handle;
    return this.fill(handle);
  }

  /** For a subclass whose object is made by its fill (a program linked from sources): the object as it is now. */
  protected replace(handle: H): void {
    this.current = handle;
  }

  /** Deletes the GL object (only drops it while the context is lost) and leaves the registry. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.device.remove(this);
    if (this.current && !this.gl.isContextLost()) this.destroy(this.current);
    this.current = null;
  }

  /** A name for error messages. */
  protected describe(): string {
    return this.constructor.name;
  }
}
