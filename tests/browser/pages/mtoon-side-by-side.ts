// Harness for tests/browser/element/mtoon-side-by-side.spec.ts (issue 35, "How it is verified"): the toon
// generated avatar (buildAvatarVrm1({ mtoon: true })) drawn by Sinew (a ModelView on a share of a ViewerHost, as
// <sinew-viewer> draws: transparent background, studio environment, exposure 1, Khronos PBR Neutral) and by
// three.js + three-vrm 3.5.5 (the reference MToon) at one size, with Sinew's camera matrices, pose and light:
// - camera: Sinew's view and projection matrices, as they are;
// - pose: Sinew's model-space matrices of every node (the walk clip sampled by Sinew, springs off) set on
//   three's nodes, and Sinew's expression weights set on three-vrm's expression manager (then each MToon
//   material's update(0), as VRM.update does); three-vrm's own humanoid, look-at, spring and constraint updates
//   are not run (so both draw one pose);
// - light: a DirectionalLight and a LightProbe from Sinew's `ImageBasedLighting.light` (key light and ambient SH),
//   NeutralToneMapping at the same exposure, sRGB output;
// - GI equalization: three-vrm 3.5.5 declares `giEqualizationFactor` but never reads it; this page patches its
//   MToon fragment shader (onBeforeCompile) to apply the specification's equalization (VRMC_materials_mtoon-1.0
//   README, "Global Illumination"), here only, so that the reference follows the specification as Sinew does.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MToonMaterial, VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import { differenceCiede2000, type Rgb } from 'culori';
import { ModelView } from '../../../src/view/model-view.ts';
import { ViewerHost } from '../../../src/view/viewer-host.ts';
import { loadModelFromFiles } from '../../../src/loaders/fetch/load-model-from-files.ts';
import { loadClipsFromFiles } from '../../../src/loaders/fetch/load-clips-from-url.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';

/** The light three.js is given: Sinew's environment split into a key light and an ambient remainder. */
export interface PageLight {
  /** Unit, towards the light, world space. */
  direction: number[];
  /** Linear irradiance at normal incidence. */
  color: number[];
  /** 27 numbers: 9 RGB SH coefficients, three's SphericalHarmonics3 order. */
  ambient: number[];
}

export interface PoseReport {
  /** Seconds into the walk clip, or null for the rest pose. */
  time: number | null;
  width: number;
  height: number;
  /** Silhouette (alpha > 0) intersection over union, outlines included. */
  iou: number;
  sinewPixels: number;
  threePixels: number;
  /** Mean CIEDE2000 over the union of both silhouettes, each picture composited over mid grey. */
  meanDeltaE: number;
  /** 95th percentile of the same. */
  p95DeltaE: number;
  /** Silhouette border pixels (a background pixel among their 4 neighbours) darker than the surface inward: the outline band. */
  sinewOutlineBand: number;
  threeOutlineBand: number;
  /** Border pixels counted. */
  sinewBorder: number;
  threeBorder: number;
  /** PNG data URLs: Sinew, three-vrm, and Sinew | three-vrm | ×4 |ΔE| side by side. */
  sinewImage: string;
  threeImage: string;
  sideBySide: string;
  light: PageLight;
}

declare global {
  interface Window {
    mtoonSideBySide: { setup(width: number, height: number): Promise<void>; pose(time: number | null): Promise<PoseReport> };
  }
}

/**
 * A silhouette border pixel counts as outline when its luminance is below this share of the surface's
 * {@link INWARD} pixels inward: the avatar's outline colours are a fifth or less of the lit colours they edge.
 */
const OUTLINE_RATIO = 0.7;
/** Pixels inward from the border where the surface colour is read. */
const INWARD = 4;

let state: {
  view: ModelView; walk: number; vrm: VRM; renderer: THREE.WebGLRenderer; scene: THREE.Scene; camera: THREE.Camera;
  nodes: (THREE.Object3D | null)[]; width: number; height: number; light: PageLight;
} | null = null;

const byId = (id: string) => document.getElementById(id) as HTMLCanvasElement;

/** Sinew's key light and ambient of the environment its last frame used (`SkinnedRenderer.environmentLight`). */
function sinewLight(view: ModelView): PageLight {
  const light = view.inspect((frame) => frame.renderer.environmentLight);
  if (!light) throw new Error('Sinew drew no frame');
  return { direction: [...light.direction], color: [...light.color], ambient: [...light.ambient] };
}

/** Patches three-vrm's MToon fragment shader to apply GI equalization (see the file's head). */
function equalizeGi(material: THREE.Material, patched: Set<THREE.Material>): void {
  // A material shared by several meshes is patched once.
  if (!(material instanceof MToonMaterial) || patched.has(material)) return;
  patched.add(material);
  // three-vrm's own onBeforeCompile defines THREE_VRM_THREE_REVISION and the like: run it first.
  const original = material.onBeforeCompile.bind(material);
  const originalKey = material.customProgramCacheKey.bind(material);
  material.onBeforeCompile = (shader, renderer) => {
    original(shader, renderer);
    const raw = 'irradiance += getLightProbeIrradiance( lightProbe, geometryNormal );';
    if (!shader.fragmentShader.includes(raw)) {
      const at = shader.fragmentShader.indexOf('getLightProbeIrradiance');
      throw new Error(`three-vrm MToon: the light probe line to patch is not there: ${JSON.stringify(shader.fragmentShader.slice(at - 200, at + 200))}`);
    }
    shader.fragmentShader = shader.fragmentShader.replace(raw, `{
      vec3 upView = normalize( ( viewMatrix * vec4( 0.0, 1.0, 0.0, 0.0 ) ).xyz );
      vec3 uniformGi = 0.5 * ( getLightProbeIrradiance( lightProbe, upView ) + getLightProbeIrradiance( lightProbe, -upView ) );
      irradiance += mix( getLightProbeIrradiance( lightProbe, geometryNormal ), uniformGi, giEqualizationFactor );
    }`);
  };
  material.customProgramCacheKey = () => `${originalKey()}|gi-equalized`;
  material.needsUpdate = true;
}

async function setup(width: number, height: number): Promise<void> {
  const sinewCanvas = byId('sinew'), threeCanvas = byId('three');
  for (const canvas of [sinewCanvas, threeCanvas]) { canvas.style.width = `${width}px`; canvas.style.height = `${height}px`; }
  const [avatarBytes, walkBytes] = await Promise.all([buildAvatarVrm1({ mtoon: true }), buildVrmaClip()]);

  const host = new ViewerHost();
  const view = new ModelView(sinewCanvas, { host, background: [0, 0, 0, 0] });
  if (view.startupError) throw new Error(view.startupError);
  await view.load(() => loadModelFromFiles([new File([avatarBytes], 'avatar.vrm')]), { time: 0, playing: false });
  const added = view.addClips(await loadClipsFromFiles([new File([walkBytes], 'walk.vrma')]));
  view.springs.setEnabled(false);
  view.setCamera({ yaw: 20, pitch: 5, distance: 0.55 });

  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(avatarBytes.slice().buffer, '');
  const vrm = gltf.userData.vrm as VRM;
  const patched = new Set<THREE.Material>();
  vrm.scene.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh) return;
    mesh.frustumCulled = false;
    for (const material of Array.isArray(mesh.material) ? mesh.material : [mesh.material]) equalizeGi(material, patched);
  });
  const renderer = new THREE.WebGLRenderer({ canvas: threeCanvas, alpha: true, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  renderer.setClearColor(0x000000, 0);
  renderer.toneMapping = THREE.NeutralToneMapping;
  renderer.toneMappingExposure = 1;
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  const scene = new THREE.Scene();
  scene.add(vrm.scene);
  vrm.scene.matrixAutoUpdate = false;
  const camera = new THREE.Camera();
  camera.matrixAutoUpdate = false;

  // Sinew's joints are every glTF node: three's node of the same index (GLTFLoader keeps node order per index).
  const skeletonNames = view.inspect((frame) => frame.animated.asset.skeleton.names) ?? [];
  const nodes = skeletonNames.map((name) => vrm.scene.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(name)) ?? null);
  state = { view, walk: added.firstIndex, vrm, renderer, scene, camera, nodes, width, height, light: sinewLight(view) };
  const { light } = state;
  const direct = new THREE.DirectionalLight(new THREE.Color().setRGB(light.color[0], light.color[1], light.color[2], THREE.LinearSRGBColorSpace), 1);
  direct.position.set(light.direction[0], light.direction[1], light.direction[2]);
  scene.add(direct, direct.target);
  const probe = new THREE.LightProbe();
  probe.sh.fromArray(light.ambient);
  scene.add(probe);
}

/** Poses both sides (the walk clip at `time`, or the rest pose), draws them, and measures. */
async function pose(time: number | null): Promise<PoseReport> {
  if (!state) throw new Error('setup first');
  const { view, vrm, renderer, scene, camera, nodes, width, height } = state;
  if (time === null) view.selectClip(-1);
  else view.selectClip(state.walk);
  view.pause();
  view.seek(time ?? 0);
  view.renderOnce();
  const sinewCanvas = byId('sinew');

  // Sinew's frame → three: camera, display matrix, node matrices, expression weights.
  const copied = view.inspect((frame) => {
    const invView = new THREE.Matrix4().fromArray(frame.camera.view).invert();
    camera.matrix.copy(invView);
    camera.matrixWorld.copy(invView);
    camera.matrixWorldInverse.fromArray(frame.camera.view);
    camera.projectionMatrix.fromArray(frame.camera.projection);
    camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();
    vrm.scene.matrix.fromArray(frame.displayMatrix);
    const models = frame.animated.modelMatrices;
    const world = new THREE.Matrix4(), parentInverse = new THREE.Matrix4();
    const modelOf = new Map<THREE.Object3D, THREE.Matrix4>();
    nodes.forEach((node, j) => { if (node) modelOf.set(node, new THREE.Matrix4().fromArray(models, 16 * j)); });
    nodes.forEach((node) => {
      if (!node) return;
      world.copy(modelOf.get(node)!);
      const parentModel = node.parent ? modelOf.get(node.parent) : undefined;
      if (parentModel) world.premultiply(parentInverse.copy(parentModel).invert());
      world.decompose(node.position, node.quaternion, node.scale);
    });
    return true;
  });
  if (!copied) throw new Error('Sinew drew no frame');
  const manager = vrm.expressionManager!;
  for (const name of view.avatar.availableExpressions) manager.setValue(name, view.avatar.getExpression(name));
  manager.update();
  // What VRM.update does for materials: MToon uploads its texture transforms (the binds moved them) and advances
  // its UV animation by the delta (0: Sinew's material time stays 0 while paused).
  for (const material of vrm.materials ?? []) (material as { update?: (delta: number) => void }).update?.(0);
  vrm.scene.updateMatrixWorld(true);
  renderer.render(scene, camera);

  const sinewPixels = read(sinewCanvas, width, height);
  const threePixels = read(renderer.domElement, width, height);
  const metrics = compare(sinewPixels, threePixels, width, height);
  return {
    time, width, height, ...metrics.numbers,
    sinewImage: sinewCanvas.toDataURL('image/png'),
    threeImage: renderer.domElement.toDataURL('image/png'),
    sideBySide: metrics.sideBySide,
    light: state.light,
  };
}

/** The canvas's pixels, straight alpha, rows top to bottom. */
function read(canvas: HTMLCanvasElement, width: number, height: number): Uint8ClampedArray {
  const copy = document.createElement('canvas');
  copy.width = width; copy.height = height;
  const context = copy.getContext('2d')!;
  context.drawImage(canvas, 0, 0, width, height);
  return context.getImageData(0, 0, width, height).data;
}

const GREY = 128;
const toRgb = (p: Uint8ClampedArray, i: number): Rgb => {
  const a = p[4 * i + 3] / 255;
  const c = (k: number) => (p[4 * i + k] * a + GREY * (1 - a)) / 255;
  return { mode: 'rgb', r: c(0), g: c(1), b: c(2) };
};

function compare(a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, height: number): { numbers: Omit<PoseReport, 'time' | 'width' | 'height' | 'sinewImage' | 'threeImage' | 'sideBySide' | 'light'>; sideBySide: string } {
  const deltaE = differenceCiede2000();
  const n = width * height;
  let both = 0, either = 0, na = 0, nb = 0;
  const deltas: number[] = [];
  const diff = new ImageData(width, height);
  for (let i = 0; i < n; i++) {
    const inA = a[4 * i + 3] > 0, inB = b[4 * i + 3] > 0;
    if (inA) na++;
    if (inB) nb++;
    if (inA && inB) both++;
    if (!inA && !inB) continue;
    either++;
    const d = deltaE(toRgb(a, i), toRgb(b, i));
    deltas.push(d);
    const v = Math.min(255, Math.round(4 * d * 255 / 100));
    diff.data.set([v, v, v, 255], 4 * i);
  }
  const luminance = (p: Uint8ClampedArray, i: number) => 0.2126 * p[4 * i] + 0.7152 * p[4 * i + 1] + 0.0722 * p[4 * i + 2];
  const band = (p: Uint8ClampedArray) => {
    let border = 0, dark = 0;
    const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && p[4 * (y * width + x) + 3] > 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!inside(x, y)) continue;
        // A border pixel: a background pixel beside it, in direction (dx, dy).
        const side = [[-1, 0], [1, 0], [0, -1], [0, 1]].find(([dx, dy]) => !inside(x + dx, y + dy));
        if (!side || p[4 * (y * width + x) + 3] < 128) continue;
        // The surface a few pixels inward, opposite the background.
        const ix = x - INWARD * side[0], iy = y - INWARD * side[1];
        if (!inside(ix, iy) || p[4 * (iy * width + ix) + 3] < 255) continue;
        border++;
        if (luminance(p, y * width + x) < OUTLINE_RATIO * luminance(p, iy * width + ix)) dark++;
      }
    }
    return { border, dark };
  };
  const bandA = band(a), bandB = band(b);
  deltas.sort((x, y) => x - y);
  const mean = deltas.reduce((s, d) => s + d, 0) / Math.max(1, deltas.length);
  const out = document.createElement('canvas');
  out.width = 3 * width; out.height = height;
  const context = out.getContext('2d')!;
  context.putImageData(new ImageData(new Uint8ClampedArray(a), width, height), 0, 0);
  context.putImageData(new ImageData(new Uint8ClampedArray(b), width, height), width, 0);
  context.putImageData(diff, 2 * width, 0);
  return {
    numbers: {
      iou: either ? both / either : 0, sinewPixels: na, threePixels: nb,
      meanDeltaE: mean, p95DeltaE: deltas.length ? deltas[Math.floor(0.95 * (deltas.length - 1))] : 0,
      sinewOutlineBand: bandA.dark, threeOutlineBand: bandB.dark, sinewBorder: bandA.border, threeBorder: bandB.border,
    },
    sideBySide: out.toDataURL('image/png'),
  };
}

window.mtoonSideBySide = { setup, pose };
