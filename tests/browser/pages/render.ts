// Harness for tests/browser/gpu/passes/parity-render.spec.ts: draws one frame of a model with SkinnedRenderer and a
// fixed camera (window.sinewRender), and exercises context loss and restore.
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { SkinnedRenderer, type GpuModel, type PalettePath } from '../../../src/gpu/passes/renderer.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { OrbitCamera } from '../../../src/scene/orbit-camera.ts';
import { createJointChain } from '../helpers/joint-chain.ts';
import { atOffset } from '../helpers/far-offset.ts';
import { createBendingBox } from '../helpers/bending-box.ts';
import { loadGltf } from '../helpers/load-gltf.ts';
import { createTgaQuad } from '../helpers/tga-quad.ts';
import { avatarAsset, expression } from '../../unit/avatar/avatar-fixtures.ts';
import { createMirroredSkinnedQuad } from '../helpers/mirrored-quad.ts';

export interface RenderRequest {
  /**
   * URL of a glTF/GLB, `generated` for the bending box, `tga-quad` for a rigid quad with a TGA texture, or
   * `mirrored-quad` for a single-sided quad whose skinning palette mirrors it, `chain` for the 32-joint chain and
   * `chain-far` for it 10 km from the origin (helpers/far-offset.ts).
   */
  model: string;
  clip: number;
  time: number;
  palette: PalettePath | 'auto';
  yaw?: number;
  pitch?: number;
  /** `Float32Array(16)` contents, column-major, or omitted. */
  display?: number[];
  /**
   * Linear RGBA: the model drawn as an avatar whose one expression, at weight 1, drives material 0's base colour
   * to this (a material colour bind; `RenderItem.materialValues`), or omitted.
   */
  expressionColor?: [number, number, number, number];
}

export interface RenderReport {
  palette: PalettePath;
  textureErrors: string[];
  /** Fraction of pixels that differ from the clear colour. */
  coverage: number;
  /** Width and height in pixels of the box around those pixels. */
  extent: [number, number];
  glError: number;
  /** RGBA at the middle of the upper and lower quarter of the covered box (top, bottom). */
  probes: [number[], number[]];
  /** Mean RGB (0–255) of the covered pixels. */
  coveredMean: [number, number, number];
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: true })!;
const CLEAR: [number, number, number, number] = [0.1, 0.1, 0.12, 1];
let state: { renderer: SkinnedRenderer; gpu: GpuModel | null; asset: ModelAsset; request: RenderRequest } | null = null;

async function load(model: string): Promise<ModelAsset> {
  if (model === 'tga-quad') return createTgaQuad();
  if (model === 'mirrored-quad') return createMirroredSkinnedQuad();
  if (model === 'chain') return createJointChain(32);
  if (model === 'chain-far') return atOffset(createJointChain(32));
  return model === 'generated' ? createBendingBox() : loadGltf(model);
}

function drawFrame(): RenderReport {
  const { renderer, gpu, asset, request } = state!;
  if (!gpu) throw new Error('no GPU model (context lost?)');
  const color = request.expressionColor;
  const animated = new AnimatedModel(color
    ? { ...asset, avatar: avatarAsset([expression('angry', { materialColorBinds: [{ material: 0, type: 'color', targetValue: color }] })]) }
    : asset);
  animated.avatar?.setExpression('angry', 1);
  animated.evaluate(animated.clipSample(request.clip).at(request.time));
  const display = request.display ? new Float32Array(request.display) : undefined;
  const camera = new OrbitCamera();
  camera.yaw = request.yaw ?? 0.6;
  camera.pitch = request.pitch ?? 0.25;
  const aspect = canvas.width / canvas.height;
  camera.frame(computeModelBounds(asset, animated, display), aspect);
  camera.update(aspect);
  renderer.beginFrame(canvas.width, canvas.height, CLEAR);
  const item = createRenderItem(gpu, animated, display);
  item.materialValues = animated.avatar?.materialValues ?? null;
  renderer.draw(item, camera);
  const pixels = new Uint8Array(4 * canvas.width * canvas.height);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const clear = CLEAR.map((c) => Math.round(c * 255));
  let covered = 0, x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const sum = [0, 0, 0];
  for (let i = 0; i < pixels.length; i += 4) {
    if (Math.abs(pixels[i] - clear[0]) + Math.abs(pixels[i + 1] - clear[1]) + Math.abs(pixels[i + 2] - clear[2]) > 6) {
      covered++;
      sum[0] += pixels[i]; sum[1] += pixels[i + 1]; sum[2] += pixels[i + 2];
      const x = (i / 4) % canvas.width, y = Math.floor(i / 4 / canvas.width);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  }
  return {
    palette: renderer.palettePathFor(asset),
    textureErrors: [...gpu.textureErrors],
    coverage: covered / (pixels.length / 4),
    extent: covered > 0 ? [x1 - x0 + 1, y1 - y0 + 1] : [0, 0],
    glError: gl.getError(),
    coveredMean: sum.map((c) => (covered > 0 ? c / covered : 0)) as [number, number, number],
    // readPixels rows run bottom-up: y1 is the top of the covered box.
    probes: [Math.round(y1 - (y1 - y0) / 4), Math.round(y0 + (y1 - y0) / 4)].map((y) => {
      const i = 4 * (y * canvas.width + Math.round((x0 + x1) / 2));
      return Array.from(pixels.subarray(i, i + 4));
    }) as [number[], number[]],
  };
}

const api = {
  async render(request: RenderRequest): Promise<RenderReport> {
    state?.gpu?.dispose();
    state?.renderer.dispose();
    const asset = await load(request.model);
    const renderer = new SkinnedRenderer(gl, { palette: request.palette });
    state = { renderer, gpu: await renderer.upload(asset), asset, request };
    return drawFrame();
  },
  /**
   * Loses and restores the context (WEBGL_lose_context); the context's device (src/gpu/device/gpu-context.ts)
   * restores the model's GL objects, and the model uploaded before the loss is drawn again. Reports what
   * happened at each step (`staleDrawThrew`: a draw of the model made before the loss threw after the restore).
   */
  async loseAndRestore(): Promise<{ lostSeen: boolean; drawWhileLostThrew: boolean; staleDrawThrew: boolean; report: RenderReport }> {
    const s = state!;
    const extension = gl.getExtension('WEBGL_lose_context');
    if (!extension) throw new Error('WEBGL_lose_context is not available');
    const lost = new Promise<void>((resolve) => canvas.addEventListener('webglcontextlost', (event) => {
      resolve();
    }, { once: true }));
    const restored = new Promise<void>((resolve) => canvas.addEventListener('webglcontextrestored', () => resolve(), { once: true }));
    extension.loseContext();
    await lost;
    // Leave the event dispatch first: Chrome reads defaultPrevented (restore allowed) after the listeners.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const lostSeen = s.renderer.contextLost;
    let drawWhileLostThrew = false;
    try {
      s.renderer.beginFrame(canvas.width, canvas.height, CLEAR);
      s.renderer.draw(createRenderItem(s.gpu!, new AnimatedModel(s.asset)), { view: new Float32Array(16), projection: new Float32Array(16), eye: new Float32Array(3) });
    } catch {
      drawWhileLostThrew = true;
    }
    extension.restoreContext();
    await restored;
    // The context's device restores every resource, then reports the context usable.
    while (s.renderer.contextLost) await new Promise((resolve) => setTimeout(resolve, 0));
    let staleDrawThrew = false;
    try {
      s.renderer.draw(createRenderItem(s.gpu!, new AnimatedModel(s.asset)), { view: new Float32Array(16), projection: new Float32Array(16), eye: new Float32Array(3) });
    } catch {
      staleDrawThrew = true;
    }
    return { lostSeen, drawWhileLostThrew, staleDrawThrew, report: drawFrame() };
  },
};
(window as unknown as { sinewRender: typeof api }).sinewRender = api;
(window as unknown as { sinewRenderReady: boolean }).sinewRenderReady = true;
