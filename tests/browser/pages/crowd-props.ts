// Harness for tests/browser/crowd/crowd-props.spec.ts (window.sinewCrowdProps): a crowd of three instances — one as it is,
// one mirrored, one turned — drawn without props, then carrying the built-in sword (CrowdOptions.props), which stays
// on the canvas for the screenshot. Every pixel the sword changes must lie where the single-model attachment puts
// the sword (propMatrix on the character alone, projected), and each instance's sword must change some.
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { withProp } from '../../../src/asset/with-prop.ts';
import { BUILT_IN_MODELS } from '../../../src/crowd/built-in-models.ts';
import { Crowd, type CrowdMode, type CrowdProp } from '../../../src/crowd/crowd.ts';
import { GpuInstances } from '../../../src/crowd/gpu/instance-draw.ts';
import { drawCrowd } from '../../../src/crowd/gpu/crowd-pass.ts';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { createSwordAsset } from '../../../src/procedural/sword.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { defaultPropJoint, propMatrix, swordOffset } from '../../../src/scene/prop-placement.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { loadGltf } from '../helpers/load-gltf.ts';

export interface CrowdPropsReport {
  drawn: number;
  mirrored: number;
  /** The joint carrying the sword. */
  joint: string;
  /** Pixels whose RGB changes by more than 2/255 when the instances carry the sword. */
  changed: number;
  /** Of those, how many lie outside every instance's projected sword box (grown by 2 pixels). */
  changedOutside: number;
  /** Per instance, changed pixels inside its projected sword box. */
  changedPerInstance: number[];
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const renderer = new SkinnedRenderer(gl);
const CLEAR: [number, number, number, number] = [0.1, 0.1, 0.12, 1];
const COUNT = 3;

/** Instance k's world matrix: side by side `spacing` apart; k = 1 mirrored in x, k = 2 turned 90° about Y. */
function worldOf(k: number, spacing: number): Float32Array {
  const x = spacing * (k - 1);
  if (k === 1) return Float32Array.of(-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1);
  if (k === 2) return Float32Array.of(0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, x, 0, 0, 1);
  return Float32Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1);
}

/** Draws the crowd (with `props`) framed by `view`/`projection`; returns the frame's RGBA and the crowd. */
async function drawFrame(character: ModelAsset, props: readonly CrowdProp[], mode: CrowdMode, method: SkinningMethod, spacing: number, camera: { view: Float32Array; projection: Float32Array; eye: Float32Array } | null) {
  const crowd = new Crowd(character, { capacity: COUNT, mode, method, props });
  const baked = mode === 'baked' ? crowd.bakedClipsOrBake() : null;
  for (let k = 0; k < COUNT; k++) {
    const clip = crowd.model.clips.length > 0 ? 0 : -1;
    let time = clip >= 0 ? crowd.model.clips[0].duration * (0.2 + 0.3 * k) : 0;
    if (baked && clip >= 0) {
      // On a baked frame: baked mode draws the CPU pose there (between frames it blends).
      const frames = baked.frameCounts[clip];
      time = (baked.durations[clip] * Math.round((time / baked.durations[clip]) * (frames - 1))) / (frames - 1);
    }
    crowd.add(clip, time, 1, worldOf(k, spacing));
  }
  crowd.prepare(null);
  if (!camera) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < COUNT; k++) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], crowd.worldBounds[6 * k + a]); hi[a] = Math.max(hi[a], crowd.worldBounds[6 * k + 3 + a]); }
    const centre = [0, 1, 2].map((a) => 0.5 * (lo[a] + hi[a]));
    const radius = 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    const eye = new Float32Array([centre[0], centre[1] + 0.3 * radius, centre[2] + 1.5 * radius]);
    camera = {
      view: mat4.lookAt(new Float32Array(16), eye, new Float32Array(centre), new Float32Array([0, 1, 0])) as Float32Array,
      projection: mat4.perspective(new Float32Array(16), Math.PI / 4, canvas.width / canvas.height, 0.05 * radius, 10 * radius) as Float32Array,
      eye,
    };
  }
  const gpuModel = await renderer.upload(crowd.asset);
  const instances = new GpuInstances(gl);
  renderer.beginFrame(canvas.width, canvas.height, CLEAR);
  drawCrowd(renderer, { gpuModel, instances, blocks: crowd }, camera);
  const pixels = new Uint8Array(4 * canvas.width * canvas.height);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  instances.dispose();
  gpuModel.dispose();
  return { pixels, crowd, camera };
}

/** `model`: a built-in name or a glTF URL. */
async function render(model: string, mode: CrowdMode, method: SkinningMethod): Promise<CrowdPropsReport> {
  const character = BUILT_IN_MODELS[model]?.() ?? await loadGltf(model);
  const animated = new AnimatedModel(character);
  const joint = defaultPropJoint(character.skeleton);
  const sword = createSwordAsset();
  const offset = swordOffset(animated, joint);
  let span = 0;
  {
    const m = animated.modelMatrices;
    for (let j = 0; j < character.skeleton.jointCount; j++) for (let i = 0; i < j; i++) span = Math.max(span, Math.hypot(m[16 * j + 12] - m[16 * i + 12], m[16 * j + 13] - m[16 * i + 13], m[16 * j + 14] - m[16 * i + 14]));
  }
  const spacing = 1.3 * span;
  // The frame with the sword first, for the camera (framed on it); then without; then with again, left on the canvas.
  const first = await drawFrame(character, [{ asset: sword, joint, offset }], mode, method, spacing, null);
  // The control: the same composed asset (withProp; the same programs, blocks and model origin) with the sword's
  // triangles collapsed to a point, so the two frames differ by the sword alone.
  const composed = withProp(character, sword, joint, offset);
  const hidden = {
    ...composed,
    meshes: composed.meshes.map((mesh, i) => (i < character.meshes.length ? mesh : { ...mesh, primitives: mesh.primitives.map((p) => ({ ...p, indices: p.indices.map(() => 0) })) })),
  };
  const bare = await drawFrame(hidden, [], mode, method, spacing, first.camera);
  const armed = await drawFrame(character, [{ asset: sword, joint, offset }], mode, method, spacing, first.camera);
  const crowd = armed.crowd;

  // Where the attachment puts each instance's sword, projected: its screen box (pixels, bottom-up as readPixels).
  const viewProjection = mat4.multiply(new Float64Array(16) as unknown as mat4, first.camera.projection, first.camera.view);
  const P = new Float64Array(16), w = canvas.width, h = canvas.height;
  const boxes: number[][] = [];
  for (let k = 0; k < COUNT; k++) {
    animated.evaluate(animated.clipSample(crowd.clipIndices[k]).at(crowd.times[k]));
    for (let i = 0; i < 16; i++) animated.world[i] = crowd.worlds[16 * k + i];
    propMatrix(animated, joint, offset, P);
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const primitive of sword.meshes[0].primitives) {
      const p = primitive.positions;
      for (let v = 0; v < p.length; v += 3) {
        const world = [0, 1, 2].map((r) => P[r] * p[v] + P[4 + r] * p[v + 1] + P[8 + r] * p[v + 2] + P[12 + r]);
        const clip = [0, 1, 3].map((r) => viewProjection[r] * world[0] + viewProjection[4 + r] * world[1] + viewProjection[8 + r] * world[2] + viewProjection[12 + r]);
        const x = ((clip[0] / clip[2] + 1) / 2) * w, y = ((clip[1] / clip[2] + 1) / 2) * h;
        box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
      }
    }
    boxes.push([box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2]);
  }
  let changed = 0, changedOutside = 0;
  const changedPerInstance = new Array<number>(COUNT).fill(0);
  const a = armed.pixels, b = bare.pixels;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 4 * (y * w + x);
      if (Math.abs(a[i] - b[i]) <= 2 && Math.abs(a[i + 1] - b[i + 1]) <= 2 && Math.abs(a[i + 2] - b[i + 2]) <= 2) continue;
      changed++;
      let inside = false;
      for (let k = 0; k < COUNT; k++) {
        const [x0, y0, x1, y1] = boxes[k];
        if (x + 0.5 >= x0 && x + 0.5 <= x1 && y + 0.5 >= y0 && y + 0.5 <= y1) { changedPerInstance[k]++; inside = true; }
      }
      if (!inside) changedOutside++;
    }
  }
  return { drawn: crowd.drawCount, mirrored: crowd.drawCount - crowd.mirroredFrom, joint: character.skeleton.names[joint] || String(joint), changed, changedOutside, changedPerInstance };
}

(window as unknown as { sinewCrowdProps: unknown }).sinewCrowdProps = { render };
(window as unknown as { sinewCrowdPropsReady: boolean }).sinewCrowdPropsReady = true;
