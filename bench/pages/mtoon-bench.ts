/**
 * `dist/bench/mtoon-bench.html` (built by `npm run build`): issue 35's cost question — the generated VRM avatar
 * drawn with MToon and its outlines against the same avatar drawn with glTF metallic-roughness and no outline, on
 * what ships, as a view draws each: `ViewStages.skinOnce` (which skins an outlined model once per frame by
 * transform feedback and leaves a PBR one to skin in the draw), then `SkinnedRenderer.draw` (surfaces, then the
 * outline pass). Driven by bench/mtoon-bench.ts.
 *
 * The avatar is `buildAvatarVrm1()`'s, each material given {@link STAND_IN_MTOON} (MToon at the specification's
 * defaults with a 5 mm world-space outline), and the PBR twin is the same asset with `mtoon` removed from every
 * material: one geometry, one pose, one camera.
 *
 * - `window.ready = true` once the page can take calls; `window.info()` as the crowd page's;
 * - `await window.bench({ mode, frames, warmup })` → `{ frameMs }`: `mode` `'mtoon'` or `'pbr'`. A frame poses the
 *   avatar (not timed: the same work in both modes), then skins (if the view would) and draws the model (no
 *   skybox), and waits with `gl.finish()` and a 1-pixel read; `rasterize: false` runs it under RASTERIZER_DISCARD
 *   (the vertex stages alone: SwiftShader shades vertices on the CPU).
 * - `await window.check()` → `{ mtoonCovered, pbrCovered }`: the pixels off the clear colour in each mode on one
 *   pose (the outline widens the silhouette: the honesty check that outlines were drawn).
 */
import { mat4 } from 'gl-matrix';
import type { MaterialAsset, ModelAsset } from '../../src/asset/model-asset.ts';
import type { MToonMaterialAsset } from '../../src/asset/mtoon-material-asset.ts';
import { SkinnedRenderer, type CameraMatrices } from '../../src/gpu/passes/renderer.ts';
import { createRenderItem, type RenderItem } from '../../src/gpu/passes/render-item.ts';
import type { GpuModel } from '../../src/gpu/skinning/gpu-model.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { buildAvatarVrm1 } from '../../src/procedural/avatar/avatar-vrm1.ts';
import { AnimatedModel } from '../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../src/scene/model-bounds.ts';
import type { ViewFrame } from '../../src/view/view-frame.ts';
import { ViewStages } from '../../src/view/view-stages.ts';
import { contextInfo } from './bench-page-common.ts';

type Mode = 'mtoon' | 'pbr';
interface BenchOptions { mode: Mode; frames: number; warmup?: number; rasterize?: boolean }

const SIZE = 512;
const BACKGROUND = [0.1, 0.1, 0.12, 1] as const;

/** MToon at the specification's defaults with a 5 mm world-space black outline (until the avatar has MToon of its own). */
export const STAND_IN_MTOON: MToonMaterialAsset = {
  transparentWithZWrite: false, renderQueueOffsetNumber: 0,
  shadeColorFactor: [0.3, 0.25, 0.3], shadingShiftFactor: 0, shadingShiftTextureScale: 1, shadingToonyFactor: 0.9, giEqualizationFactor: 0.9,
  matcapFactor: [1, 1, 1], parametricRimColorFactor: [0, 0, 0], parametricRimFresnelPowerFactor: 5, parametricRimLiftFactor: 0,
  rimLightingMixFactor: 1, outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.005, outlineColorFactor: [0, 0, 0], outlineLightingMixFactor: 1,
  uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
};

const canvas = document.getElementById('bench-canvas') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: false, powerPreference: 'high-performance' })!;
const renderer = new SkinnedRenderer(gl);
const pixel = new Uint8Array(4);

/** One mode's avatar on the GPU, its pose, render item, the view's stages and the frame they read. */
interface Side {
  gpu: GpuModel;
  animated: AnimatedModel;
  item: RenderItem;
  stages: ViewStages;
  frame: ViewFrame;
}

let sides: { mtoon: Side; pbr: Side; camera: CameraMatrices; clip: number } | null = null;
let frameIndex = 0;

async function avatars(): Promise<{ mtoon: ModelAsset; pbr: ModelAsset }> {
  const bytes = await buildAvatarVrm1();
  const loaded = await loadModel({ name: 'avatar.vrm', bytes }, async () => null);
  const mtoon: ModelAsset = { ...loaded, materials: loaded.materials.map((m) => ({ ...m, mtoon: m.mtoon ?? STAND_IN_MTOON })) };
  const pbr: ModelAsset = { ...loaded, materials: mtoon.materials.map(({ mtoon: _, ...m }): MaterialAsset => m) };
  return { mtoon, pbr };
}

async function side(asset: ModelAsset): Promise<Side> {
  const gpu = await renderer.upload(asset);
  await gpu.texturesReady;
  const animated = new AnimatedModel(asset);
  const item = createRenderItem(gpu, animated);
  return { gpu, animated, item, stages: new ViewStages(), frame: { gl, renderer, gpu, item } as unknown as ViewFrame };
}

async function scene(): Promise<NonNullable<typeof sides>> {
  if (sides) return sides;
  const assets = await avatars();
  const mtoon = await side(assets.mtoon), pbr = await side(assets.pbr);
  const { min, max } = computeModelBounds(assets.pbr, pbr.animated);
  const centre = new Float32Array([0, 1, 2].map((k) => 0.5 * (min[k] + max[k])));
  const radius = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const eye = new Float32Array([centre[0] + 0.6 * radius, centre[1] + 0.3 * radius, centre[2] + 2.2 * radius]);
  const camera: CameraMatrices = {
    view: mat4.lookAt(new Float32Array(16), eye, centre, new Float32Array([0, 1, 0])) as Float32Array,
    projection: mat4.perspective(new Float32Array(16), Math.PI / 4, 1, 0.05 * radius, 10 * radius) as Float32Array,
    eye,
  };
  sides = { mtoon, pbr, camera, clip: assets.pbr.clips.length > 0 ? 0 : -1 };
  return sides;
}

function pose(s: Side, clip: number, time: number): void {
  s.animated.evaluate(s.animated.clipSample(clip).at(time));
}

/**
 * One frame of the model as a view draws it: skin once when the view would (outlines), then the draw. The
 * skybox is left out (the renderer's default light, no background pass): the same fixed cost in both modes would
 * only pull the ratio towards 1.
 */
function drawFrame(s: Side, camera: CameraMatrices, rasterize = true): void {
  renderer.beginFrame(SIZE, SIZE, BACKGROUND);
  if (!rasterize) gl.enable(gl.RASTERIZER_DISCARD);
  s.stages.skinOnce(s.frame);
  renderer.draw(s.item, camera);
  gl.disable(gl.RASTERIZER_DISCARD);
}

async function bench(options: BenchOptions): Promise<{ frameMs: number[] }> {
  const all = await scene();
  if (options.mode !== 'mtoon' && options.mode !== 'pbr') throw new Error(`mtoon-bench: mode must be 'mtoon' or 'pbr', not ${String(options.mode)}`);
  const s = all[options.mode];
  const warmup = options.warmup ?? 3;
  const frameMs: number[] = [];
  for (let i = 0; i < warmup + options.frames; i++) {
    pose(s, all.clip, ++frameIndex / 60);
    const t0 = performance.now();
    drawFrame(s, all.camera, options.rasterize ?? true);
    gl.finish();
    gl.readPixels(SIZE >> 1, SIZE >> 1, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    if (i >= warmup) frameMs.push(performance.now() - t0);
  }
  const error = gl.getError();
  if (error !== gl.NO_ERROR) throw new Error(`mtoon-bench: GL error 0x${error.toString(16)}`);
  return { frameMs };
}

async function check(): Promise<{ mtoonCovered: number; pbrCovered: number }> {
  const all = await scene();
  const covered = (s: Side): number => {
    pose(s, all.clip, 0.37);
    drawFrame(s, all.camera);
    const pixels = new Uint8Array(4 * SIZE * SIZE);
    gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const clear = BACKGROUND.map((c) => Math.round(255 * c));
    let n = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (Math.max(Math.abs(pixels[i] - clear[0]), Math.abs(pixels[i + 1] - clear[1]), Math.abs(pixels[i + 2] - clear[2])) > 2) n++;
    }
    return n;
  };
  return { mtoonCovered: covered(all.mtoon), pbrCovered: covered(all.pbr) };
}

Object.assign(window, { bench, check, info: () => contextInfo(gl), ready: true });
