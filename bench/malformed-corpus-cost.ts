/**
 * How long `<sinew-viewer>` takes to turn each file of the malformed corpus (tests/fixtures/malformed-corpus.ts,
 * generated in memory) into its `sinew-error`, in headless Chromium on SwiftShader (the vite dev server, in the GPU
 * half of `npm run bench`: `--no-gpu` skips it). tests/browser/element/hardening.spec.ts proves every file ends in
 * one error; this is its speed, kept out of the test so a loaded machine cannot fail it:
 *
 * - `malformed_corpus.element_slowest_ms`: the slowest file, from setting `src` to its `sinew-error`, ms.
 * - `malformed_corpus.element_median_ms`: the median file, ms.
 *
 * Run alone: `node --import tsx bench/malformed-corpus-cost.ts`.
 */
import { resolve } from 'node:path';
import { malformedCorpus } from '../tests/fixtures/malformed-corpus.ts';
import { loadEachInElement } from '../tests/browser/helpers/corpus-in-element.ts';
import { withDevServerPage } from './dev-server-page.ts';

const median = (a: readonly number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];

/** The figures (see the file's comment), or null without a Chromium. */
export async function malformedCorpusBrowserCost(): Promise<{ files: number; slowestMs: number; medianMs: number } | null> {
  const corpus = malformedCorpus();
  const byName = new Map(corpus.flatMap((entry) => [[entry.name, entry.bytes], ...Object.entries(entry.companions ?? {})]));
  return withDevServerPage(async (page, origin) => {
    // The path tricks name other hosts: nothing leaves the dev server's origin (those fetches fail at once).
    await page.route((url) => url.origin !== origin, (route) => route.abort());
    await page.route('**/corpus/**', (route) => {
      const bytes = byName.get(decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!));
      return bytes ? route.fulfill({ body: Buffer.from(bytes) }) : route.fulfill({ status: 404, body: 'not found' });
    });
    await page.goto(`${origin}/tests/browser/pages/empty-page.html`);
    await page.evaluate(() => {
      const viewer = document.createElement('sinew-viewer');
      viewer.id = 'v';
      viewer.style.cssText = 'width: 120px; height: 90px';
      document.body.append(viewer);
    });
    // The built-in model first, so each file replaces a model shown, as in the test.
    await page.waitForFunction(() => (document.getElementById('v') as HTMLElementTagNameMap['sinew-viewer']).model !== '', undefined, { timeout: 120_000 });
    const outcomes = await page.evaluate(loadEachInElement, corpus.map((entry) => entry.name));
    const times = outcomes.map((o) => o.ms);
    return { files: corpus.length, slowestMs: Math.max(...times), medianMs: median(times) };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const cost = await malformedCorpusBrowserCost();
  if (cost) console.log(`${cost.files} files: malformed_corpus.element_slowest_ms ${cost.slowestMs.toFixed(0)}  malformed_corpus.element_median_ms ${cost.medianMs.toFixed(0)}`);
}
