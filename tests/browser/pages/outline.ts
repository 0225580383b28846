// Harness for tests/browser/gpu/passes/outline.spec.ts (window.sinewOutline): the outlined sphere
// (helpers/outlined-sphere.ts) drawn as a view draws it — ViewStages.skinOnce, then SkinnedRenderer.draw — under a
// fixed perspective camera on the +z axis, with the GL calls of the frame counted.
import { mat4 } from 'gl-matrix';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import type { CameraMatrices } from '../../../src/gpu/passes/folded-camera.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { ViewStages } from '../../../src/view/view-stages.ts';
import { Crowd, type CrowdMode } from '../../../src/crowd/crowd.ts';
import { GpuInstances } from '../../../src/crowd/gpu/instance-draw.ts';
import { drawCrowd } from '../../../src/crowd/gpu/crowd-pass.ts';
import type { ViewFrame } from '../../../src/view/view-frame.ts';
import { createOutlinedSphere, type OutlinedSphereOptions } from '../helpers/outlined-sphere.ts';
import { encodePngRgba } from '../../../src/procedural/avatar/png-encode.ts';

export interface OutlineRequest extends Omit<OutlinedSphereOptions, 'widthTexture'> {
  /**
   * A 2 × 1 outline width multiply texture whose G is 255 over u < ½ (the sphere's right half seen from the camera)
   * and 0 over u ≥ ½ (its left half). Absent: no width texture.
   */
  halfWidthTexture?: boolean;
  /** Camera distance from the sphere's centre, metres. */
  distance: number;
  /** Frames drawn (the counts are the last frame's). Default 2. */
  frames?: number;
}

export interface OutlineReport {
  /** Width and height in pixels of the box around the pixels that differ from the clear colour. */
  extent: [number, number];
  /** That box: first and last column, first and last row (rows bottom-up). */
  box: [number, number, number, number];
  /** Pixels that differ from the clear colour. */
  covered: number;
  /** Pixels close to the outline colour (red). */
  outlinePixels: number;
  /** In the last frame: transform feedback passes (skin once), triangle draws from the skin-once buffers, other triangle draws. */
  skinPasses: number;
  skinOnceDraws: number;
  otherDraws: number;
  glError: number;
}

/** See {@link OutlineRequest.halfWidthTexture}. */
const HALF_WIDTH_TEXTURE = { name: 'half width', mimeType: 'image/png', data: encodePngRgba(2, 1, new Uint8Array([0, 255, 0, 255, 0, 0, 0, 255])) };

/** Vertical field of view of the harness camera, radians. */
export const FOV_Y = Math.PI / 4;

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const CLEAR: [number, number, number, number] = [0.2, 0.6, 0.25, 1];
const renderer = new SkinnedRenderer(gl);

let counting = { skinPasses: 0, skinOnceDraws: 0, otherDraws: 0 };
let skinOnceVaos = new Set<WebGLVertexArrayObject>();
const beginTransformFeedback = gl.beginTransformFeedback.bind(gl);
gl.beginTransformFeedback = (mode: number) => {
  counting.skinPasses++;
  beginTransformFeedback(mode);
};
const drawElements = gl.drawElements.bind(gl);
gl.drawElements = (mode: number, count: number, type: number, offset: number) => {
  if (skinOnceVaos.has(gl.getParameter(gl.VERTEX_ARRAY_BINDING) as WebGLVertexArrayObject)) counting.skinOnceDraws++;
  else counting.otherDraws++;
  drawElements(mode, count, type, offset);
};

function cameraAt(distance: number): CameraMatrices {
  const view = mat4.lookAt(mat4.create(), [0, 0, distance], [0, 0, 0], [0, 1, 0]) as Float32Array;
  const projection = mat4.perspective(mat4.create(), FOV_Y, canvas.width / canvas.height, 0.05, 100) as Float32Array;
  return { view, projection, eye: new Float32Array([0, 0, distance]) };
}

/** Extent, coverage and outline-coloured pixels of the frame in the canvas. */
function measure(): Pick<OutlineReport, 'extent' | 'box' | 'covered' | 'outlinePixels'> {
  const pixels = new Uint8Array(4 * canvas.width * canvas.height);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const clear = CLEAR.map((c) => Math.round(c * 255));
  let covered = 0, outlinePixels = 0, x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < pixels.length; i += 4) {
    if (Math.abs(pixels[i] - clear[0]) + Math.abs(pixels[i + 1] - clear[1]) + Math.abs(pixels[i + 2] - clear[2]) <= 24) continue;
    covered++;
    if (pixels[i] > 150 && pixels[i + 1] < 60 && pixels[i + 2] < 60) outlinePixels++;
    const x = (i / 4) % canvas.width, y = Math.floor(i / 4 / canvas.width);
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  return { extent: covered > 0 ? [x1 - x0 + 1, y1 - y0 + 1] : [0, 0], box: [x0, x1, y0, y1], covered, outlinePixels };
}

const api = {
  /** The sphere as a crowd of one instance at the origin (drawCrowd), in `mode`: counts are the instanced draw calls. */
  async crowd(request: OutlineRequest & { crowdMode: CrowdMode }): Promise<OutlineReport> {
    const asset = createOutlinedSphere({ ...request, widthTexture: request.halfWidthTexture ? HALF_WIDTH_TEXTURE : undefined });
    const crowd = new Crowd(asset, { capacity: 1, mode: request.crowdMode });
    crowd.add(-1, 0, 1, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    crowd.prepare(null);
    const gpuModel = await renderer.upload(crowd.asset);
    const instances = new GpuInstances(gl);
    try {
      const camera = cameraAt(request.distance);
      renderer.beginFrame(canvas.width, canvas.height, CLEAR);
      renderer.useLighting(null, camera, canvas.width, canvas.height);
      const stats = { drawCalls: 0, verts: 0 };
      drawCrowd(renderer, { gpuModel, instances, blocks: crowd }, camera, stats);
      return { ...measure(), skinPasses: 0, skinOnceDraws: 0, otherDraws: stats.drawCalls, glError: gl.getError() };
    } finally {
      instances.dispose();
      gpuModel.dispose();
    }
  },

  async render(request: OutlineRequest): Promise<OutlineReport> {
    const asset = createOutlinedSphere({ ...request, widthTexture: request.halfWidthTexture ? HALF_WIDTH_TEXTURE : undefined });
    const gpu = await renderer.upload(asset);
    const stages = new ViewStages();
    try {
      const animated = new AnimatedModel(asset);
      animated.evaluate(animated.clipSample(-1).at(0));
      const item = createRenderItem(gpu, animated);
      const camera = cameraAt(request.distance);
      const frame = { gl, renderer, gpu, item } as unknown as ViewFrame;
      for (let f = 0; f < (request.frames ?? 2); f++) {
        counting = { skinPasses: 0, skinOnceDraws: 0, otherDraws: 0 };
        renderer.beginFrame(canvas.width, canvas.height, CLEAR);
        renderer.useLighting(null, camera, canvas.width, canvas.height);
        counting.otherDraws = 0;   // the skybox's draw is not the model's
        const buffers = stages.skinOnce(frame);
        skinOnceVaos = new Set();
        if (buffers) for (let p = 0; p < asset.meshes[0].primitives.length; p++) skinOnceVaos.add(buffers.vaoOf(0, p)!);
        renderer.draw(item, camera);
      }
      return { ...measure(), ...counting, glError: gl.getError() };
    } finally {
      stages.dispose();
      gpu.dispose();
    }
  },
};

(window as unknown as { sinewOutline: typeof api; sinewOutlineReady: boolean }).sinewOutline = api;
(window as unknown as { sinewOutlineReady: boolean }).sinewOutlineReady = true;
