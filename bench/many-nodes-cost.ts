/**
 * The cost of a scene of 20 000 rigid mesh nodes (issue 25; docs/guide/large-scenes.md), on the generated file of
 * tests/fixtures/large-models.ts `manyMeshNodes(20 000)` (4 materials, 8 boxes under a spinning node, the
 * skinned grid character), built in memory: nothing is written.
 *
 * - `nodes20k.load_ms` (node, in `npm run bench`'s CPU half): `parseGltf` of the file, `new AnimatedModel` and
 *   `planRigidBatches` — the CPU side of a load; median of 3.
 * - `nodes20k.evaluate_ms` (node): one frame's `animator.update` + `evaluate` with the spin clip playing; median
 *   of batches (bench/harness.ts).
 * - `nodes20k.element_load_ms`, `nodes20k.frame_ms`, `nodes20k.draw_calls` (headless
 *   Chromium on SwiftShader, the vite dev server, in the GPU half: `--no-gpu` skips them): `<sinew-viewer>` given
 *   the file, from setting `src` to its `load` event; then one frame (`renderOnce`, waited for by reading a pixel),
 *   median of 5 after a warm-up; the drawElements calls of one frame.
 *
 * Run alone: `node --import tsx bench/many-nodes-cost.ts` prints all of them.
 */
import { resolve } from 'node:path';
import { parseGltf } from '../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../src/scene/animated-model.ts';
import { planRigidBatches } from '../src/gpu/skinning/rigid-batches.ts';
import { manyMeshNodes } from '../tests/fixtures/large-models.ts';
import { withDevServerPage } from './dev-server-page.ts';
import { compare } from './harness.ts';
import { countDrawCalls, measureElementFrames } from '../tests/browser/helpers/frame-probe.ts';

const NODES = 20_000;
const median = (a: readonly number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];

/** The generated file's bytes (GLB). */
export function manyNodesFile(): Uint8Array {
  return manyMeshNodes(NODES, { materials: 4 }).glb();
}

/** `nodes20k.load_ms` and `nodes20k.evaluate_ms`, in this process. */
export async function manyNodesCpuCost(glb: Uint8Array = manyNodesFile()): Promise<{ loadMs: number; evaluateMs: number }> {
  const loads: number[] = [];
  let model: AnimatedModel | null = null;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    const asset = await parseGltf('many-nodes.glb', glb);
    model = new AnimatedModel(asset);
    planRigidBatches(asset);
    loads.push(performance.now() - start);
  }
  const m = model!;
  m.animator.play(m.clips[m.asset.clips.findIndex((c) => c.name === 'spin')]);
  const [frame] = compare([{ name: 'evaluate', fn: () => { m.animator.update(1 / 60); m.evaluate(m.animator); } }], { warmupMs: 200, batchMs: 20, rounds: 15 });
  return { loadMs: median(loads), evaluateMs: frame.nsPerOp / 1e6 };
}

/** The browser figures (see the file's comment), or null without a Chromium. */
export async function manyNodesBrowserCost(glb: Uint8Array = manyNodesFile()): Promise<{ loadMs: number; frameMs: number; drawCalls: number } | null> {
  return withDevServerPage(async (page, origin) => {
    const body = Buffer.from(glb);
    await page.route('**/bench/many-nodes.glb', (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }));
    await page.addInitScript(countDrawCalls);
    await page.goto(`${origin}/tests/browser/pages/empty-page.html`);
    await page.waitForFunction(() => customElements.get('sinew-viewer') !== undefined, undefined, { timeout: 120_000 });
    const { loadMs } = await page.evaluate(() => new Promise<{ loadMs: number }>((done, fail) => {
      const viewer = document.createElement('sinew-viewer');
      viewer.id = 'v';
      viewer.style.cssText = 'width: 320px; height: 240px';
      document.body.append(viewer);
      const start = performance.now();
      viewer.addEventListener('sinew-error', (e) => fail(new Error((e as CustomEvent).detail.message)), { once: true });
      viewer.addEventListener('load', () => done({ loadMs: performance.now() - start }), { once: true });
      viewer.setAttribute('src', '/bench/many-nodes.glb');
      // A page that never loads it (reloaded by the dev server, say) fails the case instead of hanging the bench.
      setTimeout(() => fail(new Error('many-nodes bench: no load within 300 s')), 300_000);
    }));
    const frames = await page.evaluate(measureElementFrames, { id: 'v', frames: 5 });
    return { loadMs, frameMs: median(frames.times), drawCalls: frames.drawCalls };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const glb = manyNodesFile();
  const cpu = await manyNodesCpuCost(glb);
  console.log(`nodes20k.load_ms ${cpu.loadMs.toFixed(0)}  nodes20k.evaluate_ms ${cpu.evaluateMs.toFixed(3)}`);
  const browser = await manyNodesBrowserCost(glb);
  if (browser) {
    console.log(`nodes20k.element_load_ms ${browser.loadMs.toFixed(0)}  nodes20k.frame_ms ${browser.frameMs.toFixed(1)}  nodes20k.draw_calls ${browser.drawCalls}`);
  }
}
