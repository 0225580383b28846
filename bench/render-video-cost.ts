/**
 * What an animated preview costs over drawing its frames, in `sinew render`'s own page (src/node/render-page.ts,
 * the built standalone element from dist/standalone: needs `npm run build`) in headless Chromium on SwiftShader,
 * 480 × 480, Fox (../shared/assets/gltf/Fox.glb) playing Survey:
 *
 * - `render.video_ms.fox`: `toVideo({ clip: 'Survey', fps: 30, duration: 5, mimeType: 'video/webm' })`, 150 frames
 *   posed, drawn, read and encoded (WebCodecs + mediabunny), timed in the page; the Blob stays in the page.
 * - `render.stills_ms.fox`: the drawing alone of the same 150 frames: for each k, `currentTime = k / 30`,
 *   `renderOnce()` and the element's canvas read with `getImageData` (no encoder).
 * - `render.video_over_stills.fox`: the first over the second (target ≤ 4, issue 37).
 *
 * Each is measured in two alternating rounds and the faster round kept (the machine is shared). Run alone:
 * `node --import tsx bench/render-video-cost.ts`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startFileServer } from '../src/node/file-server.ts';
import { renderPageHtml } from '../src/node/render-page.ts';
import { launchRenderBrowser } from '../src/node/render-browser.ts';
import { findChromium } from '../src/node/find-chromium.ts';

const here = import.meta.dirname;
const FOX_FOLDER = resolve(here, '../../shared/assets/gltf');
const STANDALONE = resolve(here, '../dist/standalone');
const SIZE = 480;
const FPS = 30;
const SECONDS = 5;

/** The three figures (see the file's comment), or null without a Chromium, Fox or a build. */
export async function renderVideoCost(log: (line: string) => void = () => {}): Promise<{ videoMs: number; stillsMs: number; ratio: number } | null> {
  if (!existsSync(resolve(FOX_FOLDER, 'Fox.glb')) || !existsSync(resolve(STANDALONE, 'sinew-viewer.js')) || !(await findChromium())) {
    log('render.video_over_stills: skipped (needs ../shared/assets/gltf/Fox.glb, npm run build and a Chromium)');
    return null;
  }
  const html = renderPageHtml({ src: '/model/Fox.glb', clip: 'Survey', time: 0, width: SIZE, height: SIZE });
  const server = await startFileServer([{ prefix: '/model/', folder: FOX_FOLDER }, { prefix: '/', folder: STANDALONE }], { '/': html });
  const browser = await launchRenderBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.goto(`${server.url}/`);
    await page.waitForFunction('window.sinewRenderResult !== undefined', undefined, { timeout: 120_000 });
    const loaded = await page.evaluate<{ type: string }>('window.sinewRenderResult');
    if (loaded.type !== 'sinew-load') throw new Error('bench: Fox.glb was not shown');
    const stills = `(() => {
      const viewer = document.getElementById("viewer");
      viewer.pause();
      const canvas = viewer.shadowRoot.querySelector("canvas");
      const context = canvas.getContext("2d");
      let sum = 0;
      const start = performance.now();
      for (let k = 0; k < ${FPS * SECONDS}; k++) {
        viewer.currentTime = k / ${FPS};
        viewer.renderOnce();
        sum += context.getImageData(0, 0, canvas.width, canvas.height).data[0];
      }
      const ms = performance.now() - start;
      if (sum < 0) throw new Error("unreachable");
      return ms;
    })()`;
    const video = `(async () => {
      const viewer = document.getElementById("viewer");
      const start = performance.now();
      const blob = await viewer.toVideo({ clip: "Survey", fps: ${FPS}, duration: ${SECONDS}, mimeType: "video/webm" });
      const ms = performance.now() - start;
      if (!(blob.size > 0)) throw new Error("bench: toVideo gave an empty video");
      return ms;
    })()`;
    const stillsMs: number[] = [];
    const videoMs: number[] = [];
    for (let round = 0; round < 2; round++) {
      stillsMs.push(await page.evaluate<number>(stills));
      videoMs.push(await page.evaluate<number>(video));
      log(`render round ${round + 1}: 150 stills ${stillsMs[round].toFixed(0)} ms, 5 s WebM ${videoMs[round].toFixed(0)} ms`);
    }
    const best = { videoMs: Math.min(...videoMs), stillsMs: Math.min(...stillsMs) };
    return { ...best, ratio: best.videoMs / best.stillsMs };
  } finally {
    await Promise.allSettled([browser.close(), server.close()]);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const cost = await renderVideoCost(console.log);
  if (cost) console.log(`render.video_ms.fox ${cost.videoMs.toFixed(0)}  render.stills_ms.fox ${cost.stillsMs.toFixed(0)}  render.video_over_stills.fox ${cost.ratio.toFixed(2)}`);
}
