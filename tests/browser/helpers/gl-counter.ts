import type { Page } from '@playwright/test';

/** GL object kinds whose create/delete calls are counted. */
export type GlObjectKind = 'Buffer' | 'VertexArray' | 'Texture' | 'Program' | 'Shader' | 'TransformFeedback' | 'Framebuffer' | 'Renderbuffer' | 'Sampler' | 'Query';

/** Counts per kind for one context: objects created, objects deleted (each once) and still alive. */
export interface GlObjectCounts {
  created: Record<GlObjectKind, number>;
  deleted: Record<GlObjectKind, number>;
  live: Record<GlObjectKind, number>;
}

/** What {@link trackGlObjects} returns. */
export interface GlObjectTracker {
  /** The counts of one context (zero for a context that made nothing). */
  counts(gl: WebGL2RenderingContext): GlObjectCounts;
  /** Objects alive over every context seen, all kinds together. */
  liveTotal(): number;
  /** Puts the wrapped methods back. */
  uninstall(): void;
}

/**
 * Wraps `create<Kind>` / `delete<Kind>` on `target` — one context (its own properties then shadow the
 * prototype's) or `WebGL2RenderingContext.prototype` (every context) — so every object made through it, by Sinew
 * or by twgl.js, is tracked per context until deleted.
 *
 * Self-contained on purpose (no imports, nothing from module scope): {@link trackGlObjectsInPage} sends its
 * source text into the page as an init script, to count from before the page's own code runs.
 */
export function trackGlObjects(target: object): GlObjectTracker {
  const kinds: GlObjectKind[] = ['Buffer', 'VertexArray', 'Texture', 'Program', 'Shader', 'TransformFeedback', 'Framebuffer', 'Renderbuffer', 'Sampler', 'Query'];
  type Tally = { created: Map<GlObjectKind, number>; deleted: Map<GlObjectKind, number>; live: Map<GlObjectKind, Set<unknown>> };
  const tallies = new Map<object, Tally>();
  const tallyOf = (gl: object): Tally => {
    let tally = tallies.get(gl);
    if (!tally) {
      tally = { created: new Map(kinds.map((k) => [k, 0])), deleted: new Map(kinds.map((k) => [k, 0])), live: new Map(kinds.map((k) => [k, new Set()])) };
      tallies.set(gl, tally);
    }
    return tally;
  };
  const methods = target as Record<string, (...args: unknown[]) => unknown>;
  const restore: (() => void)[] = [];
  for (const kind of kinds) {
    for (const verb of ['create', 'delete'] as const) {
      const name = `${verb}${kind}`;
      const own = Object.getOwnPropertyDescriptor(target, name);
      const original = methods[name];
      methods[name] = function (this: object, ...args: unknown[]) {
        const tally = tallyOf(this);
        if (verb === 'delete' && args[0] && tally.live.get(kind)!.delete(args[0])) tally.deleted.set(kind, tally.deleted.get(kind)! + 1);
        const result = original.apply(this, args);
        if (verb === 'create' && result) {
          tally.created.set(kind, tally.created.get(kind)! + 1);
          tally.live.get(kind)!.add(result);
        }
        return result;
      };
      restore.push(() => (own ? Object.defineProperty(target, name, own) : delete methods[name]));
    }
  }
  const record = <T>(value: (kind: GlObjectKind) => T) => Object.fromEntries(kinds.map((k) => [k, value(k)])) as Record<GlObjectKind, T>;
  return {
    counts: (gl) => {
      const tally = tallyOf(gl);
      return { created: record((k) => tally.created.get(k)!), deleted: record((k) => tally.deleted.get(k)!), live: record((k) => tally.live.get(k)!.size) };
    },
    liveTotal: () => [...tallies.values()].reduce((n, tally) => n + [...tally.live.values()].reduce((m, set) => m + set.size, 0), 0),
    uninstall: () => restore.forEach((undo) => undo()),
  };
}

/** {@link trackGlObjects} on every WebGL2 context of `page`, from its first script on: `window.__glObjects`. */
export async function trackGlObjectsInPage(page: Page): Promise<void> {
  await page.addInitScript({ content: `window.__glObjects = (${trackGlObjects.toString()})(WebGL2RenderingContext.prototype);` });
}

/** The page's tracker, as {@link trackGlObjectsInPage} installs it (for use inside `page.evaluate`). */
export type GlObjectsWindow = Window & { __glObjects: GlObjectTracker };

/**
 * Records every WebGL context the page makes, in order, in `window.__contexts` (the elements' shared one lives on
 * a canvas outside the DOM, so this is how a test reaches it).
 */
export async function recordGlContexts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const contexts: unknown[] = [];
    (window as unknown as { __contexts: unknown[] }).__contexts = contexts;
    const getContext = HTMLCanvasElement.prototype.getContext as (this: HTMLCanvasElement, ...args: unknown[]) => unknown;
    (HTMLCanvasElement.prototype as unknown as { getContext: unknown }).getContext = function (this: HTMLCanvasElement, ...args: unknown[]) {
      const context = getContext.apply(this, args);
      if ((args[0] === 'webgl2' || args[0] === 'webgl') && context && !contexts.includes(context)) contexts.push(context);
      return context;
    };
  });
}
