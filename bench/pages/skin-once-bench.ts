/**
 * `dist/bench/skin-once-bench.html` (built by `npm run build`): issue 23's question, "skin once per frame or
 * skin in each pass?", measured on what ships — a frame of one model with its contact shadow, the two passes
 * that need the whole skinned mesh. Driven by bench/skin-once-bench.ts.
 *
 * - `window.ready = true` once the page can take calls; `window.info()` as the crowd page's;
 * - `await window.bench({ model, mode, frames, warmup, rasterize })` → `{ frameMs }`: `model` a glTF/GLB URL or
 *   a built-in model's name (src/crowd/built-in-models.ts); `mode`
 *   - `'per-pass'`: `SkinnedRenderer.draw` skins in the vertex shader, then `ContactShadow` draws the model again
 *     (skinning again) into its depth map, blurs it and lays it on the ground;
 *   - `'once'`: `SkinnedRenderer.skinInto` skins once by transform feedback into `SkinnedVertexBuffers`, then the
 *     main draw and the shadow's depth draw both draw those (what a view does when a stage draws the skinned
 *     model again: src/view/view-stages.ts);
 *   `rasterize: false` runs every pass under RASTERIZER_DISCARD: the vertex stages alone. A frame poses the model
 *   (not timed), then draws and waits with `gl.finish()` and a 1-pixel read.
 * - `await window.check({ model })` → `{ covered, differing }`: on one pose, the frame's pixels off the clear
 *   colour and those whose colour differs by more than 2/255 between the modes (the comparison's honesty check).
 */
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../src/asset/model-asset.ts';
import { BUILT_IN_MODELS } from '../../src/crowd/built-in-models.ts';
import { ContactShadow, ModelShadowCaster, type ModelShadowFrame } from '../../src/gpu/passes/contact-shadow.ts';
import type { GpuModel } from '../../src/gpu/skinning/gpu-model.ts';
import { SkinnedRenderer, type CameraMatrices } from '../../src/gpu/passes/renderer.ts';
import { SkinnedVertexBuffers } from '../../src/gpu/skinning/skinned-vertex-buffers.ts';
import { loadModelFromUrl } from '../../src/loaders/fetch/load-model-from-url.ts';
import { AnimatedModel } from '../../src/scene/animated-model.ts';
import { computeModelBounds, type ModelBounds } from '../../src/scene/model-bounds.ts';
import { contextInfo } from './bench-page-common.ts';
import { createRenderItem } from '../../src/gpu/passes/render-item.ts';

type Mode = 'per-pass' | 'once';
interface BenchOptions { model: string; mode: Mode; frames: number; warmup?: number; rasterize?: boolean }

const SIZE = 512;
const SHADOW = { intensity: 1, softness: 0.5 };
const BACKGROUND = [0.1, 0.1, 0.12, 1] as const;

const canvas = document.getElementById('bench-canvas') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: false, powerPreference: 'high-performance' })!;
const renderer = new SkinnedRenderer(gl);
const shadow = new ContactShadow();
const caster = new ModelShadowCaster();
const pixel = new Uint8Array(4);

/** What a model's runs share: its GPU form, pose, skinned-vertex buffers, camera and the frame the shadow reads. */
interface Scene {
  url: string;
  gpu: GpuModel;
  animated: AnimatedModel;
  clip: number;
  buffers: SkinnedVertexBuffers;
  bounds: ModelBounds;
  frame: ModelShadowFrame;
}

let scene: Scene | null = null;
let frameIndex = 0;
const IDENTITY = mat4.create() as Float32Array;

async function sceneOf(url: string): Promise<Scene> {
  if (scene?.url === url) return scene;
  const asset: ModelAsset = BUILT_IN_MODELS[url]?.() ?? await loadModelFromUrl(url);
  const gpu = await renderer.upload(asset);
  await gpu.texturesReady;
  const animated = new AnimatedModel(asset);
  const bounds = computeModelBounds(asset, animated);
  const { min, max } = bounds;
  const centre = new Float32Array([0, 1, 2].map((k) => 0.5 * (min[k] + max[k])));
  const radius = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const eye = new Float32Array([centre[0] + 1.2 * radius, centre[1] + 0.8 * radius, centre[2] + 2 * radius]);
  const camera: CameraMatrices = {
    view: mat4.lookAt(new Float32Array(16), eye, centre, new Float32Array([0, 1, 0])) as Float32Array,
    projection: mat4.perspective(new Float32Array(16), Math.PI / 4, 1, 0.05 * radius, 10 * radius) as Float32Array,
    eye,
  };
  scene?.buffers.dispose();
  scene?.gpu.dispose();
  scene = {
    url, gpu, animated, clip: asset.clips.length > 0 ? 0 : -1, buffers: new SkinnedVertexBuffers(gl, gpu), bounds,
    frame: { renderer, item: createRenderItem(gpu, animated, IDENTITY), camera, width: SIZE, height: SIZE },
  };
  return scene;
}

/** One frame: the model and its contact shadow, skinned in each pass or once for both. */
function drawFrame(s: Scene, mode: Mode, rasterize: boolean): void {
  const f = s.frame;
  renderer.beginFrame(SIZE, SIZE, BACKGROUND);
  if (!rasterize) gl.enable(gl.RASTERIZER_DISCARD);
  f.item.skinnedVertices = null;
  if (mode === 'once') {
    renderer.skinInto(s.buffers, f.item);
    f.item.skinnedVertices = s.buffers;
  }
  renderer.draw(f.item, f.camera);
  shadow.draw(caster.use(f), s.bounds, SHADOW, true);
  gl.disable(gl.RASTERIZER_DISCARD);
}

function pose(s: Scene, time: number): void {
  s.animated.evaluate(s.animated.clipSample(s.clip).at(time));
}

async function bench(options: BenchOptions): Promise<{ frameMs: number[] }> {
  const s = await sceneOf(options.model);
  const warmup = options.warmup ?? 3, rasterize = options.rasterize ?? true;
  if (options.mode !== 'per-pass' && options.mode !== 'once') throw new Error(`skin-once-bench: mode must be 'per-pass' or 'once', not ${String(options.mode)}`);
  const frameMs: number[] = [];
  for (let i = 0; i < warmup + options.frames; i++) {
    pose(s, ++frameIndex / 60);
    const t0 = performance.now();
    drawFrame(s, options.mode, rasterize);
    gl.finish();
    gl.readPixels(SIZE >> 1, SIZE >> 1, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    if (i >= warmup) frameMs.push(performance.now() - t0);
  }
  const error = gl.getError();
  if (error !== gl.NO_ERROR) throw new Error(`skin-once-bench: GL error 0x${error.toString(16)}`);
  return { frameMs };
}

/** Both modes' frames of one pose, compared. */
async function check(options: { model: string }): Promise<{ covered: number; differing: number }> {
  const s = await sceneOf(options.model);
  const read = (mode: Mode): Uint8Array => {
    pose(s, 0.37);
    drawFrame(s, mode, true);
    const pixels = new Uint8Array(4 * SIZE * SIZE);
    gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels;
  };
  const a = read('per-pass'), b = read('once');
  const clear = BACKGROUND.map((c) => Math.round(255 * c));
  let covered = 0, differing = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.max(Math.abs(a[i] - clear[0]), Math.abs(a[i + 1] - clear[1]), Math.abs(a[i + 2] - clear[2])) > 2) covered++;
    if (Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2])) > 2) differing++;
  }
  return { covered, differing };
}

Object.assign(window, { bench, check, info: () => contextInfo(gl), ready: true });
