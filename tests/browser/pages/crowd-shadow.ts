// Harness for tests/browser/crowd/crowd-shadow.spec.ts: a CrowdStage (the crowd page's own stage) of 9 Foxes drawn with
// and without its contact shadow (window.sinewCrowdShadow), each frame read back.
import { loadModelFromUrl } from '../../../src/loaders/fetch/load-model-from-url.ts';
import { CrowdStage } from '../../../src/crowd/crowd-stage.ts';
import type { CrowdMode } from '../../../src/crowd/crowd.ts';

/** One drawn frame: RGBA rows bottom-up, as readPixels gives them. */
export interface CrowdShadowFrame {
  pixels: number[];
  width: number;
  height: number;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const asset = await loadModelFromUrl('/shared/assets/gltf/Fox.glb');

/** Draws 9 Foxes `seconds` into their clips, with the shadow at `intensity`; returns the frame. */
async function render(mode: CrowdMode, seconds: number, intensity: number): Promise<CrowdShadowFrame> {
  const stage = new CrowdStage(gl, asset, 9, mode);
  try {
    await stage.texturesReady;
    stage.setMode(mode);
    stage.setCount(9, canvas.width / canvas.height);
    stage.shadow.intensity = intensity;
    stage.shadow.softness = 0.5;
    stage.frame(seconds, canvas.width, canvas.height);
    const pixels = new Uint8Array(4 * canvas.width * canvas.height);
    gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return { pixels: Array.from(pixels), width: canvas.width, height: canvas.height };
  } finally {
    stage.dispose();
  }
}

(window as unknown as { sinewCrowdShadow: { render: typeof render } }).sinewCrowdShadow = { render };
(window as unknown as { sinewCrowdShadowReady: boolean }).sinewCrowdShadowReady = true;
