// Harness for tests/browser/gpu/passes/outline.spec.ts (window.sinewOutline): the outlined sphere
// (helpers/outlined-sphere.ts) drawn as a view draws it — ViewStages.skinOnce, then SkinnedRenderer.draw — under a
// fixed perspective camera on the +z axis, with the GL calls of the frame counted.
import { mat4 } from 'gl-matrix';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import type { CameraMatrices } from '../../../src/gpu/passes/folded-camera.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { ViewStages } from '../../../src/view/view-stages.ts';
import type { ViewFrame } from '../../../src/view/view-frame.ts';
import { createOutlinedSphere, type OutlinedSphereOptions } from '../helpers/outlined-sphere.ts';

export interface OutlineRequest extends OutlinedSphereOptions {
  /** Camera distance from the sphere's centre, metres. */
  distance: number;
  /** Frames drawn (the counts are the last frame's). Default 2. */
  frames?: number;
}

export interface OutlineReport {
  /** Width and height in pixels of the box around the pixels that differ from the clear colour. */
  extent: [number, number];
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

const api = {
  async render(request: OutlineRequest): Promise<OutlineReport> {
    const asset = createOutlinedSphere(request);
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
      return {
        extent: covered > 0 ? [x1 - x0 + 1, y1 - y0 + 1] : [0, 0], covered, outlinePixels,
        ...counting, glError: gl.getError(),
      };
    } finally {
      stages.dispose();
      gpu.dispose();
    }
  },
};

(window as unknown as { sinewOutline: typeof api; sinewOutlineReady: boolean }).sinewOutline = api;
(window as unknown as { sinewOutlineReady: boolean }).sinewOutlineReady = true;
