/**
 * `npm run bench:viewer`: what the viewer's inspection panel costs per frame. One run, one page (the vite dev
 * server, headless Chromium with SwiftShader as the browser tests use), each model measured in alternating
 * rounds of back-to-back frames (`window.sinew.measureFrames`, which waits for the GPU at the end):
 *
 * - `viewer.bare_fps`: the viewer as it drew before the inspection tools — the model view alone, no panel, no
 *   inspection attached;
 * - `viewer.panel_fps`: the viewer as it opens now — the lil-gui panel open (its time slider and frame
 *   statistics updated every frame, as while playing) and the inspection attached with every view off;
 * - `viewer.panel_ratio`: panel ÷ bare (the issue asks for ≥ 0.95);
 * - `viewer.skeleton_weights_fps`: panel open with the skeleton overlay and the weight heat map on (for scale).
 *
 * Prints a table; writes nothing to the checkout. Models: the built-in octopus, and CesiumMan and Fox from
 * ../shared/assets when present.
 */
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { CHROMIUM_ARGS, findChromium } from '../src/node/find-chromium.ts';

const root = resolve(import.meta.dirname, '..');
const FRAMES = 60;
const ROUNDS = 11;

interface Stats { readonly fps: number }
type SinewWindow = { sinew: { measureFrames(n: number): Stats; attachInspection(on: boolean): void; setView(v: object): unknown; selectJoint(j: number): number } };

async function main(): Promise<void> {
  const found = await findChromium();
  if (!found) throw new Error('no Chromium found (see docs/guide/install.md)');
  const server = await createServer({ root, logLevel: 'error', server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  const address = server.httpServer!.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], headless: true });
  const models = [''];
  if (existsSync(resolve(root, '../shared/assets/gltf'))) models.push('/shared/assets/gltf/CesiumMan.glb', '/shared/assets/gltf/Fox.glb');
  const rows: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    for (const model of models) {
      await page.goto(`http://127.0.0.1:${port}/${model ? `?model=${model}` : ''}`);
      await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 120_000 });
      const measure = async (config: 'bare' | 'panel' | 'views'): Promise<number> => page.evaluate(({ config, frames }) => {
        const w = window as unknown as SinewWindow;
        const panel = document.getElementById('sinew-panel')!;
        panel.hidden = config === 'bare';
        w.sinew.attachInspection(config !== 'bare');
        w.sinew.setView(config === 'views' ? { skeleton: true, surface: 'weights' } : { skeleton: false, surface: 'shaded' });
        if (config === 'views') w.sinew.selectJoint(3);
        return w.sinew.measureFrames(frames).fps;
      }, { config, frames: FRAMES });
      // Warm-up (shader variants, JIT), then alternating rounds so drift hits both alike.
      await measure('bare');
      await measure('panel');
      await measure('views');
      const fps = { bare: [] as number[], panel: [] as number[], views: [] as number[] };
      for (let r = 0; r < ROUNDS; r++) {
        fps.bare.push(await measure('bare'));
        fps.panel.push(await measure('panel'));
        fps.views.push(await measure('views'));
      }
      const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
      const name = model ? model.slice(model.lastIndexOf('/') + 1) : 'octopus';
      const bare = median(fps.bare), panel = median(fps.panel), views = median(fps.views);
      rows.push(`${name.padEnd(16)} viewer.bare_fps ${bare.toFixed(1).padStart(7)}  viewer.panel_fps ${panel.toFixed(1).padStart(7)}  viewer.panel_ratio ${(panel / bare).toFixed(3)}  viewer.skeleton_weights_fps ${views.toFixed(1).padStart(7)}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`${FRAMES} frames × ${ROUNDS} rounds, medians:`);
  for (const row of rows) console.log(row);
}

await main();
