/**
 * three.js's side of the crowd benchmark (bench/gpu-bench.ts), the contract of crowd-bench.ts: `window.ready`,
 * `window.info()`, `await window.bench({ model, N, frames, warmup, mode, rasterize })`. three.js cannot instance
 * skinned meshes, so each instance is a `SkinnedMesh` with its own skeleton and `AnimationMixer`
 * (`SkeletonUtils.clone`, geometry and material shared) — one draw per instance; `mode: 'rigid'` draws the same
 * geometry as plain `Mesh`es. The model is a built-in name (src/crowd/built-in-models.ts), built from the very
 * same `ModelAsset` as Sinew's (bench/three-rig.ts); instances stand where `CrowdStage` puts them and the
 * camera is Sinew's `OrbitCamera`, so both pages draw the same picture. A frame: every mixer advances 1/60 s
 * (`animMs`), `renderer.render` (`submitMs`: matrices, skeletons, draws), `readPixels` of one pixel (`syncMs`).
 *
 * Material (URL parameter `material`): `standard` (the default) shades as Sinew's lit.frag does —
 * `MeshStandardMaterial` (metallic-roughness) lit only by image-based light, a PMREM of three.js's
 * `RoomEnvironment`, with the Khronos PBR Neutral tone mapper; `phong` is a cheaper `MeshPhongMaterial` under an
 * ambient and a directional light.
 */
import {
  AmbientLight, Color, DirectionalLight, LinearSRGBColorSpace, Mesh, MeshPhongMaterial, MeshStandardMaterial, NeutralToneMapping, PMREMGenerator, PerspectiveCamera, Scene,
  SkinnedMesh, WebGLRenderer, AnimationMixer, type Object3D, type Texture,
} from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import type { ModelAsset } from '../../src/asset/model-asset.ts';
import { contextInfo, median } from './bench-page-common.ts';
import { BUILT_IN_MODELS } from '../../src/crowd/built-in-models.ts';
import { computeModelBounds } from '../../src/scene/model-bounds.ts';
import { AnimatedModel } from '../../src/scene/animated-model.ts';
import { OrbitCamera } from '../../src/scene/orbit-camera.ts';
import { buildThreeRig } from '../three-rig.ts';

const SIZE = 512;
const canvas = document.getElementById('bench-canvas') as HTMLCanvasElement;
const renderer = new WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
renderer.setSize(SIZE, SIZE, false);
const gl = renderer.getContext() as WebGL2RenderingContext;
const pixel = new Uint8Array(4);
const phong = new URLSearchParams(location.search).get('material') === 'phong';
if (!phong) renderer.toneMapping = NeutralToneMapping;
let environment: Texture | null = null;


let built: { key: string; scene: Scene; mixers: AnimationMixer[]; camera: PerspectiveCamera; draws: number; verts: number } | null = null;

async function build(model: string, N: number, rigid: boolean): Promise<NonNullable<typeof built>> {
  const key = `${model} ${N} ${rigid}`;
  if (built?.key === key) return built;
  const make = BUILT_IN_MODELS[model];
  if (!make) throw new Error(`three-crowd-bench: only built-in models (${Object.keys(BUILT_IN_MODELS).join(', ')}), not ${model}`);
  const asset: ModelAsset = make();
  const instance = asset.meshInstances.find((m) => m.skin >= 0)!;
  const primitive = asset.meshes[instance.mesh].primitives[0];
  const rig = await buildThreeRig(asset.skeleton, asset.restPose, asset.skins[instance.skin], asset.clips, primitive);
  // The standard material takes Sinew's factors (and its defaults: gpu-model.ts) for the model's material.
  const m = asset.materials[primitive.material];
  const material = phong
    ? new MeshPhongMaterial({ color: 0xd97366 })
    : new MeshStandardMaterial({
      color: new Color().setRGB(m.baseColorFactor[0], m.baseColorFactor[1], m.baseColorFactor[2], LinearSRGBColorSpace),
      metalness: m.metallicFactor ?? 0, roughness: m.roughnessFactor ?? 1,
    });
  rig.mesh!.material = material;
  rig.mesh!.frustumCulled = true;
  const scene = new Scene();
  if (phong) {
    scene.add(new AmbientLight(0xffffff, 0.4), new DirectionalLight(0xffffff, 1.2));
  } else {
    environment ??= new PMREMGenerator(renderer).fromScene(new RoomEnvironment(), 0.04).texture;
    scene.environment = environment;
  }
  // The grid of CrowdStage.setCount.
  const { min, max } = computeModelBounds(asset, new AnimatedModel(asset));
  const spacing = 1.25 * Math.max(max[0] - min[0], max[2] - min[2], 0.5 * (max[1] - min[1]), 1e-3);
  const columns = Math.max(1, Math.ceil(Math.sqrt(N))), rows = Math.max(1, Math.ceil(N / columns));
  const mixers: AnimationMixer[] = [];
  for (let i = 0; i < N; i++) {
    let object: Object3D;
    if (rigid) {
      object = new Mesh(rig.mesh!.geometry, material);
    } else {
      object = cloneSkinned(rig.root);
      const mixer = new AnimationMixer(object);
      const clip = rig.clips[i % rig.clips.length];
      const golden = (i * 0.618034) % 1;
      const action = mixer.clipAction(clip);
      action.play();
      action.time = clip.duration * golden;
      action.timeScale = 0.8 + 0.4 * golden;
      mixers.push(mixer);
    }
    object.position.set(
      ((i % columns) - 0.5 * (columns - 1)) * spacing - 0.5 * (min[0] + max[0]),
      -min[1],
      (Math.floor(i / columns) - 0.5 * (rows - 1)) * spacing - 0.5 * (min[2] + max[2]),
    );
    scene.add(object);
  }
  const orbit = new OrbitCamera();
  orbit.pitch = 0.55;
  orbit.yaw = 0.35;
  orbit.frame({ min: [-0.5 * columns * spacing, 0, -0.5 * rows * spacing], max: [0.5 * columns * spacing, max[1] - min[1], 0.5 * rows * spacing] }, 1);
  orbit.update(1);
  const camera = new PerspectiveCamera();
  camera.matrixAutoUpdate = false;
  camera.matrixWorldAutoUpdate = false;
  camera.matrixWorldInverse.fromArray(orbit.view);
  camera.matrixWorld.copy(camera.matrixWorldInverse).invert();
  camera.projectionMatrix.fromArray(orbit.projection);
  camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();
  built = { key, scene, mixers, camera, draws: N, verts: N * primitive.vertexCount };
  return built;
}

async function bench(options: { model: string; N: number; frames: number; warmup?: number; mode?: string; rasterize?: boolean }) {
  const { model, N, frames } = options;
  const warmup = options.warmup ?? 10, mode = options.mode ?? 'live';
  if (mode !== 'live' && mode !== 'rigid') throw new Error(`three-crowd-bench: mode must be 'live' or 'rigid' (three.js has no baked mode), not ${mode}`);
  const b = await build(model, N, mode === 'rigid');
  const frameMs: number[] = [], anim: number[] = [], submit: number[] = [], sync: number[] = [];
  for (let i = 0; i < warmup + frames; i++) {
    const t0 = performance.now();
    for (const mixer of b.mixers) mixer.update(1 / 60);
    const t1 = performance.now();
    if (options.rasterize === false) {
      renderer.clear();
      gl.enable(gl.RASTERIZER_DISCARD);
    }
    renderer.render(b.scene, b.camera);
    gl.disable(gl.RASTERIZER_DISCARD);
    const t2 = performance.now();
    gl.readPixels(SIZE >> 1, SIZE >> 1, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    const t3 = performance.now();
    if (i < warmup) continue;
    frameMs.push(t3 - t0);
    anim.push(t1 - t0);
    submit.push(t2 - t1);
    sync.push(t3 - t2);
  }
  return { frameMs, animMs: median(anim), submitMs: median(submit), syncMs: median(sync), drawCalls: renderer.info.render.calls, verts: b.verts };
}


Object.assign(window, { bench, info: () => (gl ? contextInfo(gl) : { renderer: 'no WebGL2' }), ready: true });
