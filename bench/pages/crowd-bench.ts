/**
 * `dist/bench/crowd-bench.html` (built by `npm run build`, static, no dev server): the benchmark page contract
 * of issue 13, driven by `npm run bench` (bench/gpu-bench.ts) interleaved with three.js's page, and by other tools.
 *
 * - `window.ready = true` once the page can take calls;
 * - `window.info()` → `{ renderer, vendor, maxTextureSize, maxVertexTextureImageUnits, maxVertexUniformVectors }`
 *   (renderer: `WEBGL_debug_renderer_info`'s unmasked string when offered);
 * - `await window.bench({ model, N, frames, warmup, mode })` → `{ frameMs, animMs, submitMs, syncMs, drawCalls, verts }`:
 *   `model` a glTF/GLB URL, or a built-in model's name (`worm`, `worm-5000`, `octopus`: src/crowd/built-in-models.ts), `N` instances, `mode` `'live' | 'baked'`,
 *   `warmup` frames run first and not recorded, then `frames` frames. A frame advances every instance by 1/60 s,
 *   draws all N into the 512×512 canvas, laid out as a grid, and reads one pixel back (`readPixels`) to finish.
 *   `frameMs[i]` is frame i's wall time; `animMs`, `submitMs`, `syncMs` are the medians of its parts (CPU
 *   animation and culling; GL calls issued; the read-back wait); `drawCalls` and `verts` (vertices shaded:
 *   vertex count × instances per draw) are the last frame's.
 * A model is loaded once and kept for later calls with the same URL.
 *
 * More modes and an option serve `npm run bench` (bench/gpu-bench.ts): `mode: 'rigid'` draws the same
 * geometry without skinning (the model's skins dropped: one `SkinnedRenderer.draw` per instance, at the
 * same grid places); `mode: 'rigid-instanced'` draws that skinless model as a crowd (one instanced draw per
 * primitive, each mesh placed by its node's matrix and the instance's world matrix: the instanced rigid floor
 * of `crowd.N1000.ratio_to_rigid`); `rasterize: false` shades the vertices but rasterises nothing
 * (RASTERIZER_DISCARD), so the share of a frame spent shading vertices can be measured.
 */
import type { ModelAsset } from '../../src/asset/model-asset.ts';
import { contextInfo, median } from './bench-page-common.ts';
import { CrowdStage, type CrowdFrameStats } from '../../src/crowd/crowd-stage.ts';
import { uploadModel } from '../../src/gpu/skinning/gpu-model.ts';
import { createRenderItem, type RenderItem } from '../../src/gpu/passes/render-item.ts';
import { AnimatedModel } from '../../src/scene/animated-model.ts';
import type { CrowdMode } from '../../src/crowd/crowd.ts';
import { BUILT_IN_MODELS } from '../../src/crowd/built-in-models.ts';
import { loadModelFromUrl } from '../../src/loaders/fetch/load-model-from-url.ts';

interface BenchOptions {
  model: string;
  N: number;
  frames: number;
  warmup?: number;
  mode?: CrowdMode | 'rigid' | 'rigid-instanced';
  rasterize?: boolean;
}

interface BenchResult {
  frameMs: number[];
  animMs: number;
  submitMs: number;
  syncMs: number;
  drawCalls: number;
  verts: number;
}

const SIZE = 512;
const canvas = document.getElementById('bench-canvas') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: false, powerPreference: 'high-performance' });
const pixel = new Uint8Array(4);
let loaded: { url: string; asset: ModelAsset } | null = null;
let stage: { key: string; stage: CrowdStage } | null = null;
let rigidStage: { key: string; stage: CrowdStage } | null = null;


async function assetOf(url: string): Promise<ModelAsset> {
  if (loaded?.url !== url) loaded = { url, asset: BUILT_IN_MODELS[url]?.() ?? await loadModelFromUrl(url) };
  return loaded.asset;
}

async function bench(options: BenchOptions): Promise<BenchResult> {
  if (!gl) throw new Error('crowd-bench: no WebGL2');
  const { model, N, frames } = options;
  const warmup = options.warmup ?? 10, mode = options.mode ?? 'live';
  if (!(Number.isInteger(N) && N >= 1)) throw new Error(`crowd-bench: N must be a positive integer, not ${N}`);
  if (mode !== 'live' && mode !== 'baked' && mode !== 'rigid' && mode !== 'rigid-instanced') {
    throw new Error(`crowd-bench: mode must be 'live', 'baked', 'rigid' or 'rigid-instanced', not ${String(mode)}`);
  }
  const asset = await assetOf(model);
  // The rigid crowd has its own stage (another asset), kept beside the skinned one so interleaved runs reuse both.
  const instancedRigid = mode === 'rigid-instanced';
  const key = `${model} ${N}${instancedRigid ? ' rigid' : ''}`;
  const held = instancedRigid ? rigidStage : stage;
  let s: CrowdStage;
  if (held?.key === key) {
    s = held.stage;
  } else {
    held?.stage.dispose();
    s = new CrowdStage(gl, instancedRigid ? rigidAssetOf(asset) : asset, N);
    if (instancedRigid) rigidStage = { key, stage: s };
    else stage = { key, stage: s };
    await s.texturesReady;
  }
  s.setCount(N, 1);
  s.rasterize = options.rasterize ?? true;
  const rigid = mode === 'rigid' ? rigidOf(asset) : null;
  if (mode === 'live' || mode === 'baked') s.setMode(mode);
  const frameMs: number[] = [], anim: number[] = [], submit: number[] = [], sync: number[] = [];
  let drawCalls = 0, verts = 0;
  for (let i = 0; i < warmup + frames; i++) {
    const t0 = performance.now();
    const stats = rigid ? rigid.frame(s) : s.frame(1 / 60, SIZE, SIZE);
    const t1 = performance.now();
    gl.readPixels(SIZE >> 1, SIZE >> 1, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    const t2 = performance.now();
    if (i < warmup) continue;
    frameMs.push(t2 - t0);
    anim.push(stats.animMs);
    submit.push(stats.submitMs);
    sync.push(t2 - t1);
    drawCalls = stats.drawCalls;
    verts = stats.verts;
  }
  return { frameMs, animMs: median(anim), submitMs: median(submit), syncMs: median(sync), drawCalls, verts };
}

/** The model with its skins dropped: the same vertices, each mesh placed by its node (the same object per `asset`). */
let rigidAssetCache: { asset: ModelAsset; rigid: ModelAsset } | null = null;
function rigidAssetOf(asset: ModelAsset): ModelAsset {
  if (rigidAssetCache?.asset !== asset) {
    rigidAssetCache = {
      asset,
      rigid: {
        ...asset,
        meshInstances: asset.meshInstances.map((instance) => ({ ...instance, skin: -1 })),
        meshes: asset.meshes.map((mesh) => ({ ...mesh, primitives: mesh.primitives.map((p) => ({ ...p, joints: null, weights: null })) })),
        skins: [],
      },
    };
  }
  return rigidAssetCache.rigid;
}

/** The model without skins, drawn one instance per draw where the crowd's instances stand. */
let rigidCache: { asset: ModelAsset; frame: (stage: CrowdStage) => CrowdFrameStats } | null = null;
function rigidOf(asset: ModelAsset): { frame: (stage: CrowdStage) => CrowdFrameStats } {
  if (rigidCache?.asset === asset) return rigidCache;
  const rigidAsset = rigidAssetOf(asset);
  const pose = new AnimatedModel(rigidAsset);
  let item: RenderItem | null = null;
  let worlds: Float32Array[] = [];
  const stats: CrowdFrameStats = { animMs: 0, submitMs: 0, drawCalls: 0, verts: 0, drawn: 0 };
  const vertices = rigidAsset.meshes.reduce((sum, mesh) => sum + mesh.primitives.reduce((n, p) => n + p.vertexCount, 0), 0);
  const frame = (stage: CrowdStage): CrowdFrameStats => {
    item ??= createRenderItem(uploadModel(gl!, rigidAsset), pose);
    const n = stage.crowd.count;
    if (worlds.length !== n) worlds = Array.from({ length: n }, (_, k) => stage.crowd.worlds.subarray(16 * k, 16 * k + 16));
    stage.camera.update(1);
    const t0 = performance.now();
    stage.renderer.beginFrame(SIZE, SIZE);
    if (!stage.rasterize) gl!.enable(gl!.RASTERIZER_DISCARD);
    for (let k = 0; k < n; k++) {
      item.displayMatrix = worlds[k];
      stage.renderer.draw(item, stage.camera);
    }
    gl!.disable(gl!.RASTERIZER_DISCARD);
    stats.submitMs = performance.now() - t0;
    stats.drawCalls = n * rigidAsset.meshInstances.length;
    stats.verts = n * vertices;
    stats.drawn = n;
    return stats;
  };
  rigidCache = { asset, frame };
  return rigidCache;
}


Object.assign(window, { bench, info: () => (gl ? contextInfo(gl) : { renderer: 'no WebGL2' }), ready: true });
