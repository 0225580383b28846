/**
 * A headless Chromium page on this checkout's vite dev server (port chosen by the system, no live reload), for the
 * bench cases that time `<sinew-viewer>` in a browser (bench/many-nodes-cost.ts, bench/malformed-corpus-cost.ts).
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../src/node/find-chromium.ts';

const root = resolve(import.meta.dirname, '..');

/**
 * Runs `use` with a 640 × 480 page whose base is the dev server's origin (`origin`, e.g. `http://127.0.0.1:5173`),
 * then closes the browser and the server. Resolves to null without a Chromium (nothing is run).
 */
export async function withDevServerPage<T>(use: (page: Page, origin: string) => Promise<T>): Promise<T | null> {
  const found = await findChromium();
  if (!found) return null;
  const { createServer } = await import('vite');
  const { chromium } = await import('playwright-core');
  const server = await createServer({ root, logLevel: 'error', server: { port: 0, host: '127.0.0.1', hmr: false } });
  await server.listen();
  const address = server.httpServer!.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
    // tsx names functions with a `__name` helper, which the functions sent into the page would call.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    return await use(page, `http://127.0.0.1:${port}`);
  } finally {
    await browser.close();
    await server.close();
  }
}
