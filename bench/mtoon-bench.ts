/**
 * Issue 35's measurement, run by bench/gpu-bench.ts in its headless Chromium (SwiftShader): a frame of the
 * generated VRM avatar drawn with MToon and its outlines over the same avatar drawn with glTF metallic-roughness and
 * no outline, on the page dist/bench/mtoon-bench.html (bench/pages/mtoon-bench.ts, which says exactly what each mode
 * draws: as a view draws it, the outlined avatar skinned once per frame for its surfaces and its outlines).
 *
 * Keys:
 * - `vrm.mtoon_frame_ratio`: MToon + outlines frame ms / PBR frame ms (target ≤ 1.5), with `vrm.mtoon_frame_ms` and
 *   `vrm.pbr_frame_ms`;
 * - `vrm.mtoon_vertex_ratio`: the same with every pass under RASTERIZER_DISCARD (the vertex stages alone), with
 *   `vrm.mtoon_vertex_ms` and `vrm.pbr_vertex_ms`: what is left of the frame ratio is fragment work;
 * - `vrm.mtoon_covered_px`, `vrm.pbr_covered_px`: the picture check, pixels off the clear colour on one pose in
 *   each mode (the outline widens the silhouette).
 * Each figure is the median over interleaved runs (the order alternating, after one unrecorded run of each
 * mode) of each run's median frame.
 */
import type { Browser } from 'playwright-core';
import { median } from './pages/bench-page-common.ts';

type Mode = 'mtoon' | 'pbr';
type Case = `${'' | 'vertex '}${Mode}`;

const RUNS = 7;
const round = (x: number) => Math.round(x * 1000) / 1000;

/** Measures both modes on the page at `pageUrl`; returns the figures (keys above) and one table row. */
export async function measureMToon(browser: Browser, pageUrl: string, log: (line: string) => void): Promise<{ figures: Record<string, number>; rows: string[][] }> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => log(`mtoon page error: ${error.message}`));
  const figures: Record<string, number> = {};
  const rows: string[][] = [];
  try {
    await page.goto(pageUrl);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const info = await page.evaluate(() => (window as unknown as { info: () => Record<string, unknown> }).info());
    log(`mtoon: on ${String(info.renderer)}`);
    const check = await page.evaluate(() => (window as unknown as { check: () => Promise<{ mtoonCovered: number; pbrCovered: number }> }).check());
    figures['vrm.mtoon_covered_px'] = check.mtoonCovered;
    figures['vrm.pbr_covered_px'] = check.pbrCovered;
    log(`mtoon: picture check, ${check.mtoonCovered} pixels covered with MToon + outlines, ${check.pbrCovered} with PBR`);
    const cases: Case[] = ['pbr', 'mtoon', 'vertex pbr', 'vertex mtoon'];
    const medians = new Map<Case, number[]>(cases.map((c) => [c, []]));
    // Run −1 is not recorded: each case's first run compiles its shaders and warms the JIT.
    for (let r = -1; r < RUNS; r++) {
      for (const c of r % 2 ? [...cases].reverse() : cases) {
        const options = { mode: c.replace('vertex ', ''), rasterize: !c.startsWith('vertex '), frames: 16, warmup: 2 };
        const { frameMs } = await page.evaluate((o) => (window as unknown as { bench: (o: unknown) => Promise<{ frameMs: number[] }> }).bench(o), options);
        if (r >= 0) medians.get(c)!.push(median(frameMs));
      }
    }
    for (const [prefix, label] of [['', 'generated avatar frame'], ['vertex ', 'vertex stages only (rasterizer discard)']] as const) {
      const mtoon = median(medians.get(`${prefix}mtoon`)!), pbr = median(medians.get(`${prefix}pbr`)!);
      const k = prefix ? 'vertex_' : 'frame_';
      figures[`vrm.mtoon_${k}ms`] = round(mtoon);
      figures[`vrm.pbr_${k}ms`] = round(pbr);
      figures[`vrm.mtoon_${k}ratio`] = round(mtoon / pbr);
      // The shared table's columns are Sinew / three.js / speedup: each cell says what it holds here.
      rows.push([`MToon + outlines vs PBR: ${label}`, `MToon ${mtoon.toFixed(2)} ms`, `PBR ${pbr.toFixed(2)} ms`, `ratio ${(mtoon / pbr).toFixed(2)}`, '']);
      const spread = (c: Case) => medians.get(c)!.map((x) => x.toFixed(1)).join(' ');
      log(`${rows[rows.length - 1].join('  ')}  (run medians: MToon ${spread(`${prefix}mtoon`)}; PBR ${spread(`${prefix}pbr`)})`);
    }
  } finally {
    await page.close();
  }
  return { figures, rows };
}
