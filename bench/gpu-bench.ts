/**
 * The GPU half of `npm run bench` (called by bench/run-bench.ts): Sinew's crowd bench page
 * (dist/bench/crowd-bench.html, built by `npm run build`) against three.js's (bench/pages/three-crowd-bench.html,
 * built here into the temporary folder), both in one headless Chromium (SwiftShader: no GPU), served by the
 * static file server, driven through the same `window.bench` contract, the pages' runs interleaved; each
 * figure is the median over runs of each run's median frame time.
 *
 * Both pages draw the same scene: the same built-in model (src/crowd/built-in-models.ts) at the same grid
 * places under the same camera, shaded by glTF metallic-roughness under image-based light — Sinew's lit.frag
 * with its studio environment, three.js's `MeshStandardMaterial` with a PMREM of its `RoomEnvironment` and the
 * same PBR Neutral tone mapper (different environments: the same work per pixel, not the same picture). three.js's page with `?material=phong` (`MeshPhongMaterial`, an ambient and a
 * directional light: cheaper per pixel) gives the secondary `three_phong.*` figures at N = 50.
 *
 * - `gpu.N{1,10,50}.*`: the 5 000-vertex, 64-joint worm (`worm-5000`), live. `gpu.N50.speedup_vs_three` =
 *   three.js ms / Sinew ms; `gpu.N50.ratio_to_rigid` = Sinew skinned / the same geometry drawn without
 *   skinning (the model's skins dropped: the rigid shader variant, one draw per instance, same material;
 *   `three.gpu.N50.ratio_to_rigid` the same for three.js with plain `Mesh`es). `gpu.N50.speedup_vs_three_phong`:
 *   against three.js's Phong page.
 * - `crowd.N{200,1000}.speedup_vs_three.{live,baked}`: the 800-vertex, 16-joint worm (`worm`), Sinew live and
 *   baked against three.js (which has no baked mode: its live figure is the baseline of both).
 *   `crowd.N1000.vertex_share.*`: Sinew's frame with rasterisation discarded over its full frame — the share
 *   of the frame spent shading vertices (SwiftShader shades them on the CPU).
 * - `crowd.N1000.ratio_to_rigid.{live,baked}` (case `vertex_stage`): the 5 000-vertex worm, N = 1 000, Sinew's
 *   skinned instanced frame over the same vertices drawn rigid and instanced (the model's skins dropped, drawn as
 *   a crowd: each mesh placed by its node's matrix and the instance's world matrix, the page's
 *   `rigid-instanced` mode); `crowd.N1000.vertex_ratio_to_rigid.*` the same with rasterisation discarded (the
 *   vertex stages alone, the fairer figure on SwiftShader); `crowd.N1000.ratio_to_rigid` is the larger of the
 *   two full-frame modes.
 *
 * - `skin_once.*`: skin once per frame (transform feedback) against skinning in each pass, main draw + contact
 *   shadow, on Fox (when ../shared/assets is there, served at /shared/assets/) and `worm-5000`
 *   (bench/skin-once-bench.ts).
 * - `vrm.mtoon_frame_ratio` (case `mtoon`): the generated avatar with MToon and outlines over the same avatar with
 *   PBR and no outline, each drawn as a view draws it (bench/mtoon-bench.ts).
 *
 * `only` (run-bench's `--gpu-cases=N50,N1000,vertex_stage,skin_once,mtoon`) runs some of the cases.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { CHROMIUM_ARGS, findChromium } from '../src/node/find-chromium.ts';
import { startFileServer } from '../src/node/file-server.ts';
import { median } from './pages/bench-page-common.ts';
import { measureSkinOnce } from './skin-once-bench.ts';
import { measureMToon } from './mtoon-bench.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

interface Options { model: string; N: number; frames: number; warmup: number; mode: string; rasterize?: boolean }
interface Result { frameMs: number[]; animMs: number; submitMs: number; syncMs: number; drawCalls: number; verts: number }


const round = (x: number) => Math.round(x * 1000) / 1000;

/** Runs the GPU cases (those named in `only`, e.g. `['N50', 'N1000']`, when given); returns the figures and table rows (case, Sinew ms, three.js ms, ratio). Null when it cannot run. */
export async function runGpuBench(log: (line: string) => void, only?: readonly string[]): Promise<{ figures: Record<string, number | string>; rows: string[][] } | null> {
  const page = resolve(root, 'dist/bench/crowd-bench.html');
  if (!existsSync(page)) {
    log('gpu bench: dist/bench/crowd-bench.html is missing (run `npm run build`); GPU figures skipped');
    return null;
  }
  const found = await findChromium();
  if (!found) {
    log('gpu bench: no Chromium found; GPU figures skipped');
    return null;
  }
  const wanted = (name: string) => !only || only.includes(name);
  const crowdCases = [1, 10, 50, 200, 1000].some((N) => wanted(`N${N}`)) || wanted('vertex_stage');
  const threeOut = mkdtempSync(join(os.tmpdir(), 'sinew-three-bench-'));
  if (crowdCases) {
    const { build } = await import('vite');
    await build({
      configFile: false, logLevel: 'warn', root: resolve(here, 'pages'), base: './', publicDir: false,
      build: { outDir: threeOut, emptyOutDir: true, target: 'es2022', rolldownOptions: { input: resolve(here, 'pages/three-crowd-bench.html') } },
    });
  }
  const shared = resolve(root, '../shared/assets');
  const server = await startFileServer([
    { prefix: '/sinew/', folder: resolve(root, 'dist/bench') }, { prefix: '/three/', folder: threeOut }, { prefix: '/shared/assets/', folder: shared },
  ]);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], headless: true });
  const figures: Record<string, number | string> = {};
  const rows: string[][] = [];
  try {
    if (wanted('skin_once')) {
      const models = [{ key: 'worm_5000', url: 'worm-5000' }];
      if (existsSync(resolve(shared, 'gltf/Fox.glb'))) models.unshift({ key: 'Fox', url: '/shared/assets/gltf/Fox.glb' });
      else log('skin once: ../shared/assets/gltf/Fox.glb not found; Fox skipped');
      const skinOnce = await measureSkinOnce(browser, `${server.url}/sinew/skin-once-bench.html`, models, log);
      Object.assign(figures, skinOnce.figures);
      rows.push(...skinOnce.rows);
    }
    if (wanted('mtoon')) {
      const mtoon = await measureMToon(browser, `${server.url}/sinew/mtoon-bench.html`, log);
      Object.assign(figures, mtoon.figures);
      rows.push(...mtoon.rows);
    }
    if (!crowdCases) return { figures, rows };
    const sinew = await browser.newPage();
    const three = await browser.newPage();
    const threePhong = await browser.newPage();
    await sinew.goto(`${server.url}/sinew/crowd-bench.html`);
    await three.goto(`${server.url}/three/three-crowd-bench.html`);
    await threePhong.goto(`${server.url}/three/three-crowd-bench.html?material=phong`);
    for (const p of [sinew, three, threePhong]) await p.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const info = await sinew.evaluate(() => (window as unknown as { info: () => Record<string, unknown> }).info());
    const run = (p: typeof sinew, options: Options) => p.evaluate((o) => (window as unknown as { bench: (o: Options) => Promise<Result> }).bench(o), options);
    figures['gpu.renderer'] = String(info.renderer);
    /** Median over `runs` interleaved runs of each side's median frame ms. */
    const measure = async (cases: { key: string; page: typeof sinew; options: Options }[], runs: number) => {
      const medians = new Map<string, number[]>();
      const last = new Map<string, Result>();
      for (let r = 0; r < runs; r++) {
        for (const c of cases) {
          const result = await run(c.page, c.options);
          medians.set(c.key, [...(medians.get(c.key) ?? []), median(result.frameMs)]);
          last.set(c.key, result);
        }
      }
      return { ms: (key: string) => median(medians.get(key)!), last: (key: string) => last.get(key)! };
    };

    for (const N of [1, 10, 50].filter((N) => wanted(`N${N}`))) {
      const o = { model: 'worm-5000', N, frames: 8, warmup: 3 };
      const cases = [
        { key: 'sinew', page: sinew, options: { ...o, mode: 'live' } },
        { key: 'three', page: three, options: { ...o, mode: 'live' } },
        { key: 'sinew-rigid', page: sinew, options: { ...o, mode: 'rigid' } },
        { key: 'three-rigid', page: three, options: { ...o, mode: 'rigid' } },
      ];
      if (N === 50) cases.push({ key: 'three-phong', page: threePhong, options: { ...o, mode: 'live' } });
      const m = await measure(cases, 3);
      const s = m.ms('sinew'), t = m.ms('three');
      figures[`gpu.N${N}.sinew_ms`] = round(s);
      figures[`gpu.N${N}.three_ms`] = round(t);
      figures[`gpu.N${N}.speedup_vs_three`] = round(t / s);
      figures[`gpu.N${N}.ratio_to_rigid`] = round(s / m.ms('sinew-rigid'));
      figures[`three.gpu.N${N}.ratio_to_rigid`] = round(t / m.ms('three-rigid'));
      figures[`gpu.N${N}.draw_calls`] = m.last('sinew').drawCalls;
      figures[`three.gpu.N${N}.draw_calls`] = m.last('three').drawCalls;
      if (N === 50) {
        figures[`three_phong.gpu.N${N}.ms`] = round(m.ms('three-phong'));
        figures[`gpu.N${N}.speedup_vs_three_phong`] = round(m.ms('three-phong') / s);
      }
      rows.push([`gpu: worm 5 000 vertices, 64 joints, N = ${N}, live (rigid: ${m.ms('sinew-rigid').toFixed(2)} / ${m.ms('three-rigid').toFixed(2)} ms)`, `${s.toFixed(2)} ms`, `${t.toFixed(2)} ms`, `${(t / s).toFixed(2)}×`, '']);
      log(rows[rows.length - 1].join('  '));
      if (N === 50) {
        const p = m.ms('three-phong');
        rows.push([`gpu: N = 50 against three.js's MeshPhongMaterial page`, `${s.toFixed(2)} ms`, `${p.toFixed(2)} ms`, `${(p / s).toFixed(2)}×`, '']);
        log(rows[rows.length - 1].join('  '));
      }
    }
    for (const N of [200, 1000].filter((N) => wanted(`N${N}`))) {
      const o = { model: 'worm', N, frames: N > 500 ? 3 : 5, warmup: 1 };
      const cases: { key: string; page: typeof sinew; options: Options }[] = [
        { key: 'live', page: sinew, options: { ...o, mode: 'live' } },
        { key: 'baked', page: sinew, options: { ...o, mode: 'baked' } },
        { key: 'three', page: three, options: { ...o, mode: 'live' } },
      ];
      if (N === 1000) {
        cases.push({ key: 'live-vertices', page: sinew, options: { ...o, mode: 'live', rasterize: false } });
        cases.push({ key: 'baked-vertices', page: sinew, options: { ...o, mode: 'baked', rasterize: false } });
      }
      const m = await measure(cases, 2);
      const t = m.ms('three');
      for (const mode of ['live', 'baked']) {
        const s = m.ms(mode);
        figures[`crowd.N${N}.${mode}_ms`] = round(s);
        figures[`crowd.N${N}.speedup_vs_three.${mode}`] = round(t / s);
        figures[`crowd.N${N}.${mode}_anim_ms`] = round(m.last(mode).animMs);
        if (N === 1000) figures[`crowd.N${N}.vertex_share.${mode}`] = round(m.ms(`${mode}-vertices`) / s);
        rows.push([`crowd: worm 800 vertices, 16 joints, N = ${N}, ${mode}`, `${s.toFixed(1)} ms`, `${t.toFixed(1)} ms`, `${(t / s).toFixed(2)}×`, '']);
        log(rows[rows.length - 1].join('  '));
      }
      figures[`three.crowd.N${N}.ms`] = round(t);
      figures[`three.crowd.N${N}.anim_ms`] = round(m.last('three').animMs);
    }
    if (wanted('vertex_stage')) {
      const N = 1000, o = { model: 'worm-5000', N, frames: 3, warmup: 1 };
      const cases: { key: string; page: typeof sinew; options: Options }[] = [];
      for (const rasterize of [true, false]) {
        for (const mode of ['live', 'baked', 'rigid-instanced']) cases.push({ key: `${mode}${rasterize ? '' : '-vertices'}`, page: sinew, options: { ...o, mode, rasterize } });
      }
      const m = await measure(cases, 2);
      let worst = 0;
      for (const mode of ['live', 'baked']) {
        const full = m.ms(mode) / m.ms('rigid-instanced'), vertices = m.ms(`${mode}-vertices`) / m.ms('rigid-instanced-vertices');
        worst = Math.max(worst, full);
        figures[`crowd.N${N}.ratio_to_rigid.${mode}`] = round(full);
        figures[`crowd.N${N}.vertex_ratio_to_rigid.${mode}`] = round(vertices);
        figures[`crowd.N${N}.worm_5000.${mode}_ms`] = round(m.ms(mode));
        figures[`crowd.N${N}.worm_5000.${mode}_vertices_ms`] = round(m.ms(`${mode}-vertices`));
        rows.push([`crowd: worm 5 000 vertices, 64 joints, N = ${N}, ${mode} / rigid instanced (vertex stages: ${m.ms(`${mode}-vertices`).toFixed(0)} / ${m.ms('rigid-instanced-vertices').toFixed(0)} ms, ${vertices.toFixed(2)})`,
          `${m.ms(mode).toFixed(0)} ms`, `${m.ms('rigid-instanced').toFixed(0)} ms`, `${full.toFixed(2)}`, '']);
        log(rows[rows.length - 1].join('  '));
      }
      figures[`crowd.N${N}.ratio_to_rigid`] = round(worst);
      figures[`crowd.N${N}.worm_5000.rigid_instanced_ms`] = round(m.ms('rigid-instanced'));
      figures[`crowd.N${N}.worm_5000.rigid_instanced_vertices_ms`] = round(m.ms('rigid-instanced-vertices'));
    }
    return { figures, rows };
  } finally {
    await browser.close();
    await server.close();
    rmSync(threeOut, { recursive: true, force: true });
  }
}
