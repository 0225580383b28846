/**
 * Issue 23's measurement, run by bench/gpu-bench.ts in its headless Chromium: a frame of one model with its
 * contact shadow, skinned once (`SkinnedRenderer.skinInto`: one transform-feedback pass that the main draw and
 * the shadow's depth draw both read; what a view does when a stage draws the model again) against skinned in
 * each pass (`SkinnedRenderer.draw` skinning in both), on the page dist/bench/skin-once-bench.html
 * (bench/pages/skin-once-bench.ts, which says exactly what each mode draws).
 * Picking is outside the comparison: `pickModel` (src/scene/pick-model.ts) skins only the candidate vertices
 * of a few clusters on the CPU, never the whole mesh, and reads nothing back from the GPU.
 *
 * Keys, per model (`Fox` when ../shared/assets/gltf/Fox.glb is there, `worm_5000`):
 * - `skin_once.<model>.ratio`: skin-once frame ms / skin-per-pass frame ms (< 1: skinning once is faster),
 *   with `.once_ms` and `.per_pass_ms`;
 * - `skin_once.<model>.vertex_ratio`: the same with every pass under RASTERIZER_DISCARD (the vertex stages
 *   alone: SwiftShader shades vertices on the CPU), with `.vertex_once_ms` and `.vertex_per_pass_ms`;
 * - `skin_once.<model>.covered_px` and `.differing_px`: the picture check, both modes' frames (model and shadow)
 *   on one pose (differing: colour beyond 2 levels).
 * Each figure is the median over interleaved runs (the order alternating, after one unrecorded run of each
 * case) of each run's median frame.
 */
import type { Browser } from 'playwright-core';
import { median } from './pages/bench-page-common.ts';

type Mode = 'per-pass' | 'once';
interface Options { model: string; mode: Mode; frames: number; warmup: number; rasterize: boolean }
interface Check { covered: number; differing: number }

const RUNS = 7;
const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Measures each of `models` (`key` for the figures, `url` as the page takes it) on the page at `pageUrl`;
 * returns the figures (keys above) and table rows (case, skin-once ms, per-pass ms, ratio).
 */
export async function measureSkinOnce(
  browser: Browser, pageUrl: string, models: readonly { key: string; url: string }[], log: (line: string) => void,
): Promise<{ figures: Record<string, number>; rows: string[][] }> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => log(`skin-once page error: ${error.message}`));
  const figures: Record<string, number> = {};
  const rows: string[][] = [];
  try {
    await page.goto(pageUrl);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const info = await page.evaluate(() => (window as unknown as { info: () => Record<string, unknown> }).info());
    log(`skin once: on ${String(info.renderer)}`);
    for (const { key, url } of models) {
      const check = await page.evaluate((model) => (window as unknown as { check: (o: { model: string }) => Promise<Check> }).check({ model }), url);
      figures[`skin_once.${key}.covered_px`] = check.covered;
      figures[`skin_once.${key}.differing_px`] = check.differing;
      log(`skin once, ${key}: picture check ${check.differing} of ${check.covered} covered pixels differ`);
      const cases: { name: string; options: Options }[] = [];
      for (const rasterize of [true, false]) {
        for (const mode of ['per-pass', 'once'] as const) cases.push({ name: `${rasterize ? '' : 'vertex '}${mode}`, options: { model: url, mode, frames: 16, warmup: 2, rasterize } });
      }
      const medians = new Map<string, number[]>(cases.map((c) => [c.name, []]));
      // Run −1 is not recorded: each case's first run compiles its shaders and warms the JIT.
      for (let r = -1; r < RUNS; r++) {
        for (const c of r % 2 ? [...cases].reverse() : cases) {
          const { frameMs } = await page.evaluate((o) => (window as unknown as { bench: (o: Options) => Promise<{ frameMs: number[] }> }).bench(o), c.options);
          if (r >= 0) medians.get(c.name)!.push(median(frameMs));
        }
      }
      const ms = (name: string) => median(medians.get(name)!);
      for (const [prefix, label] of [['', 'model + contact shadow frame'], ['vertex ', 'vertex stages only (rasterizer discard)']] as const) {
        const once = ms(`${prefix}once`), perPass = ms(`${prefix}per-pass`);
        const k = prefix ? 'vertex_' : '';
        figures[`skin_once.${key}.${k}once_ms`] = round(once);
        figures[`skin_once.${key}.${k}per_pass_ms`] = round(perPass);
        figures[`skin_once.${key}.${k}ratio`] = round(once / perPass);
        // The shared table's columns are Sinew / three.js / speedup: each cell says what it holds here.
        rows.push([`skin once vs per pass: ${key}, ${label}`, `once ${once.toFixed(2)} ms`, `per pass ${perPass.toFixed(2)} ms`, `ratio ${(once / perPass).toFixed(2)}`, '']);
        const spread = (name: string) => medians.get(name)!.map((x) => x.toFixed(1)).join(' ');
        log(`${rows[rows.length - 1].join('  ')}  (run medians: once ${spread(`${prefix}once`)}; per pass ${spread(`${prefix}per-pass`)})`);
      }
    }
  } finally {
    await page.close();
  }
  return { figures, rows };
}
