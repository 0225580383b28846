// Harness for tests/browser/scene/pick.spec.ts: draws a model with SkinnedRenderer, reads the frame's coverage back,
// picks through pixel centres with pickModel and PixelRays, and checks the hit triangles against the GPU's own
// vertices (transform feedback). Exposes window.sinewPick once ready (window.sinewPickReady).
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { uploadModel } from '../../../src/gpu/skinning/gpu-model.ts';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { TransformFeedbackCapture, type CapturedVertices } from '../../../src/gpu/skinning/transform-feedback-capture.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { OrbitCamera } from '../../../src/scene/orbit-camera.ts';
import { createRay, createSurfaceHit, PickContext, pickModel } from '../../../src/scene/pick-model.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { PixelRays } from '../../../src/view/pixel-ray.ts';
import { loadGltf } from '../helpers/load-gltf.ts';
import { loadMd5 } from '../helpers/load-md5.ts';

export interface PickRequest {
  /** URL of a glTF/GLB or an .md5mesh (its .md5anim next to it). */
  model: string;
  clip: number;
  /** Fraction of the clip's duration. */
  at: number;
  method: SkinningMethod;
  yaw: number;
  pitch: number;
  /** Every `stride`-th pixel in x and y is picked. */
  stride: number;
  /** Rotation about Y of the display matrix (radians), so world space is not model space. */
  turn: number;
}

export interface PickReport {
  width: number;
  height: number;
  picked: number;
  hits: number;
  /** Hits whose point projects within 1 px of the pixel centre picked through. */
  projectedWithin1px: number;
  worstProjection: number;
  /** Hits where the GPU drew the model at that pixel or a neighbour (a 1-px silhouette allowance). */
  hitsOnGpu: number;
  hitsOffGpu: string[];
  /** Pixels the GPU drew whose 8 neighbours it drew too (away from edges). */
  interior: number;
  interiorHit: number;
  interiorMissed: string[];
  /** Hit triangles whose three vertices were held against the GPU's transform-feedback vertices. */
  trianglesChecked: number;
  /** Max |CPU − GPU| over those vertices, and the model's posed diagonal (the parity tolerance is 1e-5 × it). */
  maxVertexError: number;
  diagonal: number;
  pickMsMean: number;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const renderer = new SkinnedRenderer(gl);
// One capture for every run: its programs are compiled once per variant, not once per checked triangle.
const capture = new TransformFeedbackCapture(gl);
const CLEAR: [number, number, number, number] = [1, 0, 1, 1];
const assets = new Map<string, Promise<ModelAsset>>();

function load(url: string): Promise<ModelAsset> {
  let asset = assets.get(url);
  if (!asset) assets.set(url, (asset = url.endsWith('.md5mesh') ? loadMd5(url) : loadGltf(url)));
  return asset;
}

async function run(request: PickRequest): Promise<PickReport> {
  const asset = await load(request.model);
  const gpu = uploadModel(gl, asset);
  try {
    const animated = new AnimatedModel(asset);
    const clip = asset.clips.length > 0 ? request.clip : -1;
    animated.evaluate(animated.clipSample(clip).at(clip >= 0 ? request.at * asset.clips[clip].duration : 0));
    const c = Math.cos(request.turn), s = Math.sin(request.turn);
    const display = new Float32Array([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]);
    animated.world.set(display);
    const width = canvas.width, height = canvas.height, aspect = width / height;
    const camera = new OrbitCamera();
    camera.yaw = request.yaw; camera.pitch = request.pitch;
    const bounds = computeModelBounds(asset, animated, display);
    camera.frame(bounds, aspect);
    camera.viewOffsetX = 0.1;
    camera.update(aspect);
    renderer.beginFrame(width, height, CLEAR);
    renderer.draw({ ...createRenderItem(gpu, animated, display), paletteRequest: 'auto', method: request.method }, camera);
    const pixels = new Uint8Array(4 * width * height);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    // Coverage, top row first (readPixels rows start at the bottom).
    const covered = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = 4 * ((height - 1 - y) * width + x);
        covered[y * width + x] = Math.abs(pixels[i] - 255) + pixels[i + 1] + Math.abs(pixels[i + 2] - 255) > 24 ? 1 : 0;
      }
    }
    const near = (x: number, y: number, all: boolean): boolean => {
      let any = false, every = true;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx, Y = y + dy;
          const on = X >= 0 && Y >= 0 && X < width && Y < height && covered[Y * width + X] === 1;
          any ||= on; every &&= on;
        }
      }
      return all ? every : any;
    };
    const report: PickReport = {
      width, height, picked: 0, hits: 0, projectedWithin1px: 0, worstProjection: 0, hitsOnGpu: 0, hitsOffGpu: [], interior: 0, interiorHit: 0,
      interiorMissed: [], trianglesChecked: 0, maxVertexError: 0, diagonal: Math.hypot(bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.max[2] - bounds.min[2]), pickMsMean: 0,
    };
    const rays = new PixelRays(), ray = createRay(), hit = createSurfaceHit(), context = new PickContext(animated), out = new Float64Array(3);
    const hitTriangles = new Map<string, { instance: number; slot: number; vertices: number[] }>();
    const started = performance.now();
    for (let y = 0; y < height; y += request.stride) {
      for (let x = 0; x < width; x += request.stride) {
        rays.through(ray, camera, width, height, x + 0.5, y + 0.5);
        report.picked++;
        const found = pickModel(animated, ray, hit, context, request.method);
        const interior = near(x, y, true);
        if (interior) report.interior++;
        if (!found) {
          if (interior) report.interiorMissed.push(`${x},${y}`);
          continue;
        }
        report.hits++;
        if (interior) report.interiorHit++;
        rays.project(out, camera, width, height, hit.point);
        const error = Math.max(Math.abs(out[0] - (x + 0.5)), Math.abs(out[1] - (y + 0.5)));
        report.worstProjection = Math.max(report.worstProjection, error);
        if (error <= 1) report.projectedWithin1px++;
        if (near(x, y, false)) report.hitsOnGpu++;
        else report.hitsOffGpu.push(`${x},${y}`);
        // Some hit triangles, their posed vertices as pickModel skinned them (pose space), for the GPU check.
        const slot = asset.meshes[hit.mesh].primitives.findIndex((p, k) => (p.sourceIndex ?? k) === hit.primitive);
        if (hitTriangles.size < 40 && (report.hits % 7) === 0) {
          const positions = context.positions[hit.meshInstance][slot];
          hitTriangles.set(`${hit.meshInstance}/${slot}/${hit.triangle}`, {
            instance: hit.meshInstance, slot, vertices: Array.from(hit.vertexIndices).flatMap((v) => [v, positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]]),
          });
        }
      }
    }
    report.pickMsMean = (performance.now() - started) / report.picked;
    // The GPU's vertices of the same primitives at the same pose, by transform feedback: one capture per primitive
    // holding a checked triangle (the pose does not change between them), all in flight at once.
    const captures = new Map<string, Promise<CapturedVertices>>();
    for (const { instance, slot } of hitTriangles.values()) {
      const skin = asset.meshInstances[instance].skin;
      const key = `${instance}/${slot}`;
      if (skin < 0 || !asset.meshes[asset.meshInstances[instance].mesh].primitives[slot].joints || captures.has(key)) continue;
      captures.set(key, capture.captureAsync({
        gpuModel: gpu, instanceIndex: instance, primitiveIndex: slot, skinMatrices: animated.skinMatrices[skin],
        palettePath: renderer.palettePathFor(asset, 'auto', request.method), method: request.method, origin: animated.origin, morphWeights: animated.morphWeights,
      }));
    }
    for (const { instance, slot, vertices } of hitTriangles.values()) {
      const pending = captures.get(`${instance}/${slot}`);
      if (!pending) continue;
      const captured = await pending;
      for (let k = 0; k < 3; k++) {
        const v = vertices[4 * k];
        const d = Math.hypot(captured.positions[3 * v] - vertices[4 * k + 1], captured.positions[3 * v + 1] - vertices[4 * k + 2], captured.positions[3 * v + 2] - vertices[4 * k + 3]);
        report.maxVertexError = Math.max(report.maxVertexError, Number.isNaN(d) ? Infinity : d);
      }
      report.trianglesChecked++;
    }
    report.hitsOffGpu = report.hitsOffGpu.slice(0, 10);
    report.interiorMissed = report.interiorMissed.slice(0, 10);
    return report;
  } finally {
    gpu.dispose();
  }
}

(window as unknown as { sinewPick: { run: typeof run } }).sinewPick = { run };
(window as unknown as { sinewPickReady: boolean }).sinewPickReady = true;
