/**
 * The crowd demo page (`crowd.html`): up to {@link MAX_INSTANCES} instances of one model drawn with instanced
 * skinning ({@link CrowdStage}), a lil-gui panel for the count, live / baked mode and the model, and a readout
 * of frames per second, frame time and its CPU parts. URL parameters (read once, kept in sync):
 * `model` = `worm` (default, 800 vertices) | `worm-5000` | `octopus` (models made in code, `BUILT_IN_MODELS`) |
 * `fox` | `cesiumman` (the shared sample models the dev server serves under /shared/assets/) | any glTF/GLB URL; `n` = instances, 1 … 10 000 (default 1 000);
 * `mode` = `live` (default) | `baked`; `skinning` = `lbs` (default) | `dqs` and `weights` = `normalize` (default) |
 * `as-stored` | `rest-remainder` | `implicit-last`, as the viewer's (src/skinning/skinning-method.ts);
 * `rootMotion` = `off` (default) | `in-place` | `applied` (`Crowd.rootMotion`; applied, the instances walk away
 * from their grid places over time); `sword` = `1` | `0` (default): every instance carries the built-in sword on a
 * right hand, else its deepest joint (`CrowdOptions.props`); `blend` = 0 (default) … 1: every instance also plays
 * the next clip at that weight (`Crowd.blend`, live and baked; models with two clips or more; clamped to [0, 1]).
 */
import GUI from 'lil-gui';
import type { ModelAsset } from '../asset/model-asset.ts';
import { BUILT_IN_MODELS } from './built-in-models.ts';
import { GpuContext } from '../gpu/device/gpu-context.ts';
import { loadModelFromUrl } from '../loaders/fetch/load-model-from-url.ts';
import type { CrowdMode, CrowdProp } from './crowd.ts';
import { createSwordAsset } from '../procedural/sword.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { defaultPropJoint, swordOffset } from '../scene/prop-placement.ts';
import { parseRootMotionSetting, type RootMotionMode } from '../animation/root-motion.ts';
import { CrowdStage } from './crowd-stage.ts';
import { parseSkinningMode, parseWeightPolicy, SKINNING_MODES, WEIGHT_POLICIES, type SkinningMode, type WeightPolicy } from '../skinning/skinning-method.ts';

/** Most instances the page's slider offers. */
export const MAX_INSTANCES = 10_000;

const SAMPLE_MODELS: Record<string, string> = {
  fox: '/shared/assets/gltf/Fox.glb',
  cesiumman: '/shared/assets/gltf/CesiumMan.glb',
};

const canvas = document.getElementById('crowd-canvas') as HTMLCanvasElement;
const readout = document.getElementById('crowd-readout') as HTMLDivElement;
const params = new URLSearchParams(location.search);
const settings = {
  model: params.get('model') ?? 'worm',
  count: clampCount(Number(params.get('n') ?? 1000)),
  mode: (params.get('mode') === 'baked' ? 'baked' : 'live') as CrowdMode,
  skinning: parseSkinningMode(params.get('skinning') ?? '') ?? ('lbs' as SkinningMode),
  weights: parseWeightPolicy(params.get('weights') ?? '') ?? ('normalize' as WeightPolicy),
  rootMotion: parseRootMotionSetting(params.get('rootMotion')).value ?? ('off' as RootMotionMode),
  sword: params.get('sword') === '1',
  shadow: clampUnit(Number(params.get('shadow') ?? 0)),
  blend: clampUnit(Number(params.get('blend') ?? 0)),
};
/** The last loaded model, kept so a new skinning method (fixed per crowd) rebuilds the stage without reloading. */
let loaded: { model: string; asset: ModelAsset } | null = null;

/** A setting in [0, 1] (model-viewer's `shadow-intensity`, the blend weight): clamped to it; not a number, 0. */
function clampUnit(intensity: number): number {
  return Number.isFinite(intensity) ? Math.max(0, Math.min(1, intensity)) : 0;
}

function clampCount(n: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.min(MAX_INSTANCES, Math.round(n))) : 1000;
}

const gl = canvas.getContext('webgl2', { antialias: false });
let stage: CrowdStage | null = null;
let loading = 0;

function showError(message: string): void {
  readout.textContent = message;
  readout.classList.add('error');
}

function syncUrl(): void {
  const url = new URL(location.href);
  url.searchParams.set('model', settings.model);
  url.searchParams.set('n', String(settings.count));
  url.searchParams.set('mode', settings.mode);
  url.searchParams.set('skinning', settings.skinning);
  url.searchParams.set('weights', settings.weights);
  url.searchParams.set('rootMotion', settings.rootMotion);
  url.searchParams.set('sword', settings.sword ? '1' : '0');
  url.searchParams.set('shadow', String(settings.shadow));
  url.searchParams.set('blend', String(settings.blend));
  history.replaceState(null, '', url);
}

async function loadAsset(model: string): Promise<ModelAsset> {
  const builtIn = BUILT_IN_MODELS[model];
  return builtIn ? builtIn() : loadModelFromUrl(SAMPLE_MODELS[model] ?? model, { baseUrl: document.baseURI });
}

/** The built-in sword on `asset`'s right hand (else its deepest joint), half as long as its joints span at rest. */
function swordProp(asset: ModelAsset): CrowdProp {
  const joint = defaultPropJoint(asset.skeleton);
  return { asset: createSwordAsset(), joint, offset: swordOffset(new AnimatedModel(asset), joint) };
}

async function openModel(model: string): Promise<void> {
  if (!gl) return;
  const ticket = ++loading;
  readout.classList.remove('error');
  readout.textContent = `loading ${model}…`;
  try {
    const asset = loaded?.model === model ? loaded.asset : await loadAsset(model);
    if (ticket !== loading) return;
    loaded = { model, asset };
    stage?.dispose();
    stage = null;
    const props = settings.sword && asset.skeleton.jointCount > 0 ? [swordProp(asset)] : [];
    const next = new CrowdStage(gl, asset, MAX_INSTANCES, settings.mode, { skinning: settings.skinning, weights: settings.weights }, props);
    next.crowd.rootMotion = settings.rootMotion;
    next.shadow.intensity = settings.shadow;
    next.setCount(settings.count, aspect());
    next.setBlend(settings.blend);
    next.setMode(settings.mode);
    stage = next;
  } catch (error) {
    if (ticket === loading) showError(`${model}: ${(error as Error).message}`);
  }
}

function aspect(): number {
  return canvas.clientWidth / Math.max(1, canvas.clientHeight);
}

// Frame-time readout: the mean over the last second.
let frames = 0, frameMsSum = 0, animMsSum = 0, submitMsSum = 0, windowStart = performance.now(), last = performance.now();
// The GPU's last frame: a new frame is drawn only once it is done, so the readout counts frames the GPU finished
// (not frames queued behind it) and a slow GPU is never handed a growing backlog.
let fence: WebGLSync | null = null;
/** From a context loss until its device has restored every GL object (the stage's included). */
let contextLost = false;
function tick(now: number): void {
  requestAnimationFrame(tick);
  if (!stage || !gl || contextLost) return;
  if (fence) {
    if (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) return;
    gl.deleteSync(fence);
    fence = null;
  }
  const elapsedMs = now - last;
  const dt = Math.min(0.1, elapsedMs / 1000);   // animation steps at most 0.1 s, the readout shows the real time
  last = now;
  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  const width = Math.round(canvas.clientWidth * ratio), height = Math.round(canvas.clientHeight * ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const stats = stage.frame(dt, width, height);
  fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  frames++;
  frameMsSum += elapsedMs;
  animMsSum += stats.animMs;
  submitMsSum += stats.submitMs;
  if (now - windowStart >= 1000) {
    const n = frames;
    readout.textContent = [
      `${stage.crowd.asset.name}: ${settings.count} instances, ${settings.mode}, ${stage.crowd.method.skinning}/${stage.crowd.method.weights}` +
        (settings.rootMotion === 'off' ? '' : `, root motion ${settings.rootMotion}${stage.crowd.motion.root ? '' : ' (none in this model)'}`) +
        (settings.blend > 0 ? `, next clip blended at ${settings.blend}${stage.crowd.model.clips.length > 1 ? '' : ' (this model has one clip)'}` : ''),
      `${((n * 1000) / (now - windowStart)).toFixed(1)} fps, frame ${(frameMsSum / n).toFixed(2)} ms`,
      `CPU: animation ${(animMsSum / n).toFixed(2)} ms, submit ${(submitMsSum / n).toFixed(2)} ms`,
      `${stats.drawn} drawn after culling, ${stats.drawCalls} draw call${stats.drawCalls === 1 ? '' : 's'}, ${(stats.verts / 1e6).toFixed(2)} M vertices`,
    ].join('\n');
    frames = 0;
    frameMsSum = animMsSum = submitMsSum = 0;
    windowStart = now;
  }
}

if (!gl) {
  showError('This page needs WebGL2, which this browser does not offer.');
} else {
  // The stage's GL objects restore themselves (src/gpu/device/): stop drawing while the context is lost, go on after.
  GpuContext.of(gl).listen({
    lost: () => {
      contextLost = true;
      fence = null; // went with the context
      readout.classList.remove('error');
      readout.textContent = 'WebGL context lost; waiting for the browser to restore it…';
    },
    restored: () => {
      contextLost = false;
      readout.textContent = '';
    },
    failed: (message) => showError(`after the WebGL context was restored: ${message}`),
  });
  const gui = new GUI({ title: 'Crowd' });
  const models: Record<string, string> = {
    'worm (800 vertices)': 'worm', 'worm (5 000 vertices)': 'worm-5000', octopus: 'octopus', Fox: 'fox', CesiumMan: 'cesiumman',
  };
  if (!Object.values(models).includes(settings.model)) models[settings.model] = settings.model;
  gui.add(settings, 'model', models).name('model').onChange((model: string) => {
    syncUrl();
    void openModel(model);
  });
  gui.add(settings, 'count', 1, MAX_INSTANCES, 1).name('instances').onFinishChange((n: number) => {
    settings.count = clampCount(n);
    stage?.setCount(settings.count, aspect());
    stage?.setBlend(settings.blend);
    syncUrl();
  });
  gui.add(settings, 'mode', ['live', 'baked']).name('mode').onChange((mode: CrowdMode) => {
    stage?.setMode(mode);
    syncUrl();
  });
  gui.add(settings, 'rootMotion', ['off', 'in-place', 'applied']).name('root motion').onChange((mode: RootMotionMode) => {
    if (stage) stage.crowd.rootMotion = mode;
    syncUrl();
  });
  // The crowd's blocks and baked frames are laid out for its skinning method: a new method builds a new stage.
  gui.add(settings, 'skinning', SKINNING_MODES).name('skinning').onChange(() => {
    syncUrl();
    void openModel(settings.model);
  });
  gui.add(settings, 'weights', WEIGHT_POLICIES).name('weights').onChange(() => {
    syncUrl();
    void openModel(settings.model);
  });
  gui.add(settings, 'shadow', 0, 1, 0.05).name('shadow intensity').onChange((intensity: number) => {
    settings.shadow = clampUnit(intensity);
    if (stage) stage.shadow.intensity = settings.shadow;
    syncUrl();
  });
  gui.add(settings, 'blend', 0, 1, 0.05).name('blend next clip').onChange((weight: number) => {
    settings.blend = clampUnit(weight);
    stage?.setBlend(settings.blend);
    syncUrl();
  });
  // Props are composed into the crowd's asset (withProp): another choice builds a new stage.
  gui.add(settings, 'sword').name('sword in hand').onChange(() => {
    syncUrl();
    void openModel(settings.model);
  });
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    stage?.camera.zoom(Math.exp(event.deltaY * 0.001));
  }, { passive: false });
  let dragging = false;
  canvas.addEventListener('pointerdown', (event) => { dragging = true; canvas.setPointerCapture(event.pointerId); });
  canvas.addEventListener('pointerup', () => { dragging = false; });
  canvas.addEventListener('pointermove', (event) => {
    if (dragging) stage?.camera.orbit(-event.movementX * 0.005, event.movementY * 0.005);
  });
  syncUrl();
  void openModel(settings.model);
  requestAnimationFrame(tick);
}
