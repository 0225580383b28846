import type { Page } from '@playwright/test';
import { animationFrames } from './page-turns.ts';

/**
 * Counts `drawElements` / `drawElementsInstanced` calls of every WebGL2 context in `window.__draws.calls`.
 * Self-contained (no imports, nothing from module scope): passed to `page.addInitScript` to count from before the
 * page's own code runs.
 */
export function countDrawCalls(): void {
  const counter = { calls: 0 };
  (window as unknown as { __draws: typeof counter }).__draws = counter;
  const proto = WebGL2RenderingContext.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['drawElements', 'drawElementsInstanced']) {
    const original = proto[name];
    proto[name] = function (this: unknown, ...args: unknown[]) {
      counter.calls++;
      return original.apply(this, args);
    };
  }
}

/** What {@link measureElementFrames} returns: each frame's ms, and the draw calls of the last one. */
export interface ElementFrames {
  readonly times: number[];
  readonly drawCalls: number;
}

/**
 * In the page (`page.evaluate(measureElementFrames, { id, frames })`): a warm-up frame (it compiles what the model
 * needs), then `frames` frames of `<sinew-viewer id=…>`, each `renderOnce()` waited for by reading a pixel of its
 * canvas. Needs {@link countDrawCalls} installed. Self-contained, as that.
 */
export function measureElementFrames({ id, frames }: { id: string; frames: number }): ElementFrames {
  const viewer = document.getElementById(id) as HTMLElement & { renderOnce(): void };
  const canvas = viewer.shadowRoot!.querySelector('canvas')!;
  const draws = (window as unknown as { __draws: { calls: number } }).__draws;
  const frame = (): void => {
    viewer.renderOnce();
    canvas.getContext('2d')!.getImageData(0, 0, 1, 1);
  };
  frame();
  const times: number[] = [];
  let drawCalls = 0;
  for (let i = 0; i < frames; i++) {
    const before = draws.calls;
    const t = performance.now();
    frame();
    times.push(performance.now() - t);
    drawCalls = draws.calls - before;
  }
  return { times, drawCalls };
}

/**
 * Moves the mouse once per animation frame of the page until `until` settles (browsers deliver at most one move
 * per frame), each move waiting for the page to take it, so a long task shows in that input's latency. Returns
 * what `until` resolved to.
 */
export async function moveMouseUntil<T>(page: Page, until: Promise<T>): Promise<T> {
  let settled = false;
  const done = until.finally(() => (settled = true));
  for (let moves = 0; !settled; moves++) {
    await page.mouse.move(10 + (moves % 50), 10 + (moves % 30));
    await animationFrames(page, 1);
  }
  return done;
}
