// Harness for tests/browser/crowd/crowd-render.spec.ts: draws a crowd with drawCrowd (window.sinewCrowdRender)
// — the worm holding a rigid box, one instance as it is beside one mirrored in x — and compares it with the same
// crowd made double-sided (no back-face culling).
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { Crowd, type CrowdMode } from '../../../src/crowd/crowd.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { GpuInstances } from '../../../src/crowd/gpu/instance-draw.ts';
import { drawCrowd } from '../../../src/crowd/gpu/crowd-pass.ts';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { withRigidProp } from '../helpers/rigid-prop.ts';

export interface CrowdRenderReport {
  /** Instances drawn, and how many of them mirror. */
  drawn: number;
  mirrored: number;
  /** Pixels differing from the clear colour. */
  covered: number;
  /** Pixels whose RGB differs by more than 2/255 between the culled (single-sided) and unculled frames. */
  differFromUnculled: number;
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const renderer = new SkinnedRenderer(gl);
const CLEAR: [number, number, number, number] = [0.1, 0.1, 0.12, 1];

/** The worm with a box held by joint 4, off to its side: a mirror in x moves the box to the other side. */
function wormWithProp(doubleSided: boolean): ModelAsset {
  const worm = createWorm(WORM_800);
  const asset = withRigidProp(worm, 4, 0.25, [0.3, 0.1, 0]);
  return { ...asset, materials: asset.materials.map((m) => ({ ...m, doubleSided })) };
}

/** Draws the two instances (left as it is, right mirrored by scale(−1, 1, 1)); returns the frame's RGBA. */
async function drawFrame(doubleSided: boolean, mode: CrowdMode, method: SkinningMethod): Promise<{ pixels: Uint8Array; drawn: number; mirrored: number }> {
  const asset = wormWithProp(doubleSided);
  const crowd = new Crowd(asset, { capacity: 2, mode, method });
  const clip = crowd.model.clips.length > 0 ? 0 : -1;
  const time = clip >= 0 ? 0.3 * crowd.model.clips[0].duration : 0;
  crowd.add(clip, time, 1, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.7, 0, 0, 1]);
  crowd.add(clip, time, 1, [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.7, 0, 0, 1]);
  crowd.prepare(null);
  // Frame the union of the instances' world boxes from the front, a little from above.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < 2; k++) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], crowd.worldBounds[6 * k + a]); hi[a] = Math.max(hi[a], crowd.worldBounds[6 * k + 3 + a]); }
  const centre = [0, 1, 2].map((a) => 0.5 * (lo[a] + hi[a]));
  const radius = 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const eye = new Float32Array([centre[0], centre[1] + 0.5 * radius, centre[2] + 1.7 * radius]);
  const view = mat4.lookAt(new Float32Array(16), eye, new Float32Array(centre), new Float32Array([0, 1, 0])) as Float32Array;
  const projection = mat4.perspective(new Float32Array(16), Math.PI / 4, canvas.width / canvas.height, 0.05 * radius, 10 * radius) as Float32Array;
  const gpuModel = await renderer.upload(asset);
  const instances = new GpuInstances(gl);
  renderer.beginFrame(canvas.width, canvas.height, CLEAR);
  drawCrowd(renderer, { gpuModel, instances, blocks: crowd }, { view, projection, eye });
  const pixels = new Uint8Array(4 * canvas.width * canvas.height);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  instances.dispose();
  gpuModel.dispose();
  return { pixels, drawn: crowd.drawCount, mirrored: crowd.drawCount - crowd.mirroredFrom };
}

/**
 * Renders the unculled (double-sided) frame, then the single-sided one, which stays on the canvas for the
 * screenshot; reports how far they differ (0 when every mirrored triangle keeps its front face).
 */
async function render(mode: CrowdMode, method: SkinningMethod): Promise<CrowdRenderReport> {
  const unculled = await drawFrame(true, mode, method);
  const culled = await drawFrame(false, mode, method);
  let covered = 0, differ = 0;
  const clear = CLEAR.map((c) => Math.round(255 * c));
  for (let i = 0; i < culled.pixels.length; i += 4) {
    const a = culled.pixels, b = unculled.pixels;
    if (Math.abs(a[i] - clear[0]) > 2 || Math.abs(a[i + 1] - clear[1]) > 2 || Math.abs(a[i + 2] - clear[2]) > 2) covered++;
    if (Math.abs(a[i] - b[i]) > 2 || Math.abs(a[i + 1] - b[i + 1]) > 2 || Math.abs(a[i + 2] - b[i + 2]) > 2) differ++;
  }
  return { drawn: culled.drawn, mirrored: culled.mirrored, covered, differFromUnculled: differ };
}

(window as unknown as { sinewCrowdRender: unknown }).sinewCrowdRender = { render };
(window as unknown as { sinewCrowdRenderReady: boolean }).sinewCrowdRenderReady = true;
