// Harness for tests/browser/gpu/device/context-loss.spec.ts: a CrowdStage (the crowd page's own stage: instance textures,
// the prepass, the contact shadow) of Foxes, drawn at a fixed time, its context lost and restored again and again
// (window.sinewContextLoss). The frame after each restore is compared with the one before, byte for byte, and the
// device's live resources are counted on both sides.
import { loadModelFromUrl } from '../../../src/loaders/fetch/load-model-from-url.ts';
import { CrowdStage } from '../../../src/crowd/crowd-stage.ts';
import type { CrowdMode } from '../../../src/crowd/crowd.ts';
import { GpuContext, type ResourceCounts } from '../../../src/gpu/device/gpu-context.ts';

/** One loss and restore: bytes of the frame that differ, pixels the model covers, and the live resources before and after. */
export interface LossCycle {
  differing: number;
  covered: number;
  before: ResourceCounts;
  after: ResourceCounts;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const device = GpuContext.of(gl);
const asset = await loadModelFromUrl('/shared/assets/gltf/Fox.glb');
let stage: CrowdStage | null = null;

/** The frame at the stage's current time (no time passes), read back. */
function draw(): Uint8Array {
  stage!.frame(0, canvas.width, canvas.height);
  const pixels = new Uint8Array(4 * canvas.width * canvas.height);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  return pixels;
}

/** Resolves after `event` on the canvas, or rejects after 30 s. */
function next(event: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 30 s`)), 30_000);
    canvas.addEventListener(event, () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/** Loses the context, restores it, and waits until the device has restored every resource. */
async function loseAndRestore(): Promise<void> {
  const ext = gl.getExtension('WEBGL_lose_context')!;
  const lost = next('webglcontextlost');
  ext.loseContext();
  await lost;
  // Leave the event dispatch first: Chrome reads defaultPrevented (restore allowed) after the listeners.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const restored = next('webglcontextrestored');
  ext.restoreContext();
  await restored;
  for (let i = 0; device.isLost; i++) {
    if (i > 3000) throw new Error('the device did not report the context restored within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A stage of 9 Foxes, `seconds` into their clips, with its shadow. */
async function open(mode: CrowdMode, seconds: number): Promise<void> {
  stage = new CrowdStage(gl, asset, 9, mode);
  await stage.texturesReady;
  stage.setMode(mode);
  stage.setCount(9, canvas.width / canvas.height);
  stage.shadow.intensity = 0.8;
  stage.shadow.softness = 0.5;
  stage.frame(seconds, canvas.width, canvas.height);
}

/** `cycles` losses and restores, each compared with the frame before it. */
async function cycle(cycles: number): Promise<LossCycle[]> {
  const out: LossCycle[] = [];
  for (let k = 0; k < cycles; k++) {
    const before = draw();
    const countsBefore = device.liveCounts();
    await loseAndRestore();
    const after = draw();
    let differing = 0, covered = 0;
    for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) differing++;
    // Pixels other than the corner's (the clear colour): the Foxes and their shadow.
    for (let i = 0; i < before.length; i += 4) if (Math.abs(before[i] - before[0]) + Math.abs(before[i + 1] - before[1]) + Math.abs(before[i + 2] - before[2]) > 6) covered++;
    out.push({ differing, covered, before: countsBefore, after: device.liveCounts() });
  }
  return out;
}

/** Disposes the stage; the live resources left (the device's registry is empty of the stage's). */
function close(): ResourceCounts {
  stage?.dispose();
  stage = null;
  return device.liveCounts();
}

(window as unknown as { sinewContextLoss: unknown }).sinewContextLoss = { open, cycle, close };
(window as unknown as { sinewContextLossReady: boolean }).sinewContextLossReady = true;
