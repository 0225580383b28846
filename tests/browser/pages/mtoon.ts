// Harness for tests/browser/gpu/shading/mtoon.spec.ts (window.sinewMToon): a UV sphere of radius 1 at the origin
// with one MToon material (MaterialAsset.mtoon, made here; textures are PNGs encoded here), drawn by a
// SkinnedRenderer from (0, 0, 3) towards the origin (45° vertical field of view, square canvas) under the studio
// environment, read back with the environment's key light and ambient (SkinnedRenderer.environmentLight).
import { mat4 } from 'gl-matrix';
import type { ImageAsset, MaterialAsset, ModelAsset, PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import type { MToonMaterialAsset } from '../../../src/asset/mtoon-material-asset.ts';
import { SkinnedRenderer } from '../../../src/gpu/passes/renderer.ts';
import { createRenderItem } from '../../../src/gpu/passes/render-item.ts';
import { DEFAULT_LIGHTING } from '../../../src/gpu/shading/scene-lighting.ts';
import type { ToneMapping } from '../../../src/gpu/shading/tone-mapping.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { encodePngRgba } from '../../../src/procedural/avatar/png-encode.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';

/** Textures the harness can put on the material, by name. */
export type MToonTextureName = 'stripes' | 'matcap' | 'rimMask' | 'shadeStripes' | 'scrollMask';

/** What one draw is made of. */
export interface MToonScene {
  /** Lit colour (baseColorFactor RGB), linear. */
  lit: [number, number, number];
  /** MToon properties over the specification's defaults. */
  mtoon: Partial<Omit<MToonMaterialAsset, 'shadeMultiplyTexture' | 'matcapTexture' | 'rimMultiplyTexture' | 'uvAnimationMaskTexture'>>;
  baseColorTexture?: MToonTextureName;
  shadeMultiplyTexture?: MToonTextureName;
  matcapTexture?: MToonTextureName;
  rimMultiplyTexture?: MToonTextureName;
  uvAnimationMaskTexture?: MToonTextureName;
  /** `RenderItem.materialTime`, seconds. */
  materialTime: number;
  toneMapping?: ToneMapping;
}

/** One drawn frame: RGBA rows bottom-up as readPixels gives them, and the light it was drawn with. */
export interface MToonFrame {
  pixels: number[];
  width: number;
  height: number;
  light: { direction: number[]; color: number[]; ambient: number[] };
}

const canvas = document.getElementById('gl') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false })!;
const renderer = new SkinnedRenderer(gl);

/** `n × n` RGBA from `f(u, v)` (pixel centres, v down). */
function image(name: string, n: number, f: (u: number, v: number) => number[]): ImageAsset {
  const rgba = new Uint8Array(4 * n * n);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) rgba.set(f((x + 0.5) / n, (y + 0.5) / n), 4 * (n * y + x));
  return { name, mimeType: 'image/png', data: encodePngRgba(n, n, rgba) };
}

const TEXTURES: Record<MToonTextureName, () => ImageAsset> = {
  // Eight vertical stripes, warm and cool, with a dark band across v = 0.5: scrolling and rotation both show.
  stripes: () => image('stripes', 64, (u, v) => (Math.abs(v - 0.5) < 0.04 ? [20, 20, 20, 255] : Math.floor(8 * u) % 2 === 0 ? [240, 200, 60, 255] : [60, 140, 230, 255])),
  // A matcap: light blue top, warm bottom, a bright spot up-left (v down: the top row is "up").
  matcap: () => image('matcap', 64, (u, v) => {
    const spot = Math.hypot(u - 0.35, v - 0.3) < 0.12 ? 120 : 0;
    return v < 0.5 ? [Math.min(255, 60 + spot), Math.min(255, 120 + spot), Math.min(255, 200 + spot), 255] : [180, 80, 30, 255];
  }),
  // The rim only on the left half of the texture (u < 0.5).
  rimMask: () => image('rim mask', 16, (u) => (u < 0.5 ? [255, 255, 255, 255] : [0, 0, 0, 255])),
  // Shade multiply: horizontal bands.
  shadeStripes: () => image('shade stripes', 16, (_u, v) => (Math.floor(8 * v) % 2 === 0 ? [255, 255, 255, 255] : [80, 255, 80, 255])),
  // UV animation mask (B): animated on the upper half of the texture only.
  scrollMask: () => image('scroll mask', 16, (_u, v) => (v < 0.5 ? [0, 0, 255, 255] : [0, 0, 0, 255])),
};

/**
 * A UV sphere of radius 1: positions = normals, UV (j/segments, i/rings), v down from the north pole, u = 0.5
 * facing +Z (the camera) and the seam behind, u growing from the camera's left (−X, u = 0.25) to its right
 * (+X, u = 0.75).
 */
function sphere(rings = 48, segments = 96): PrimitiveAsset {
  const positions: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const theta = (Math.PI * i) / rings;
    for (let j = 0; j <= segments; j++) {
      const phi = (2 * Math.PI * j) / segments + Math.PI;
      positions.push(Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi));
      uvs.push(j / segments, i / rings);
    }
  }
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * (segments + 1) + j, b = a + segments + 1;
      indices.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  const p = new Float32Array(positions);
  return { vertexCount: p.length / 3, positions: p, normals: p.slice(), uvs: new Float32Array(uvs), joints: null, weights: null, indices: new Uint32Array(indices), material: 0 };
}

const MTOON_DEFAULTS: MToonMaterialAsset = {
  transparentWithZWrite: false, renderQueueOffsetNumber: 0, shadeColorFactor: [0, 0, 0], shadingShiftFactor: 0, shadingShiftTextureScale: 1,
  shadingToonyFactor: 0.9, giEqualizationFactor: 0.9, matcapFactor: [1, 1, 1], parametricRimColorFactor: [0, 0, 0], parametricRimFresnelPowerFactor: 5,
  parametricRimLiftFactor: 0, rimLightingMixFactor: 1, outlineWidthMode: 'none', outlineWidthFactor: 0, outlineColorFactor: [0, 0, 0],
  outlineLightingMixFactor: 1, uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
};

/** The octopus's skeleton with its meshes replaced by the sphere, carried rigidly by node 0, and the scene's material. */
function sceneAsset(scene: MToonScene): ModelAsset {
  const octopus = createOctopusAsset();
  const images: ImageAsset[] = [];
  const texture = (name: MToonTextureName | undefined) => {
    if (!name) return undefined;
    images.push(TEXTURES[name]());
    return { image: images.length - 1, texCoord: 0 as const };
  };
  const base = texture(scene.baseColorTexture);
  const mtoon: MToonMaterialAsset = {
    ...MTOON_DEFAULTS, ...scene.mtoon,
    shadeMultiplyTexture: texture(scene.shadeMultiplyTexture),
    matcapTexture: texture(scene.matcapTexture),
    rimMultiplyTexture: texture(scene.rimMultiplyTexture),
    uvAnimationMaskTexture: texture(scene.uvAnimationMaskTexture),
  };
  const material: MaterialAsset = {
    ...octopus.materials[0], name: 'mtoon', baseColorFactor: [...scene.lit, 1], baseColorTexture: base ? base.image : -1,
    baseColorUv: base, metallicRoughnessTexture: undefined, normalTexture: undefined, occlusionTexture: undefined, emissiveTexture: undefined,
    emissiveFactor: [0, 0, 0], alphaMode: 'OPAQUE', doubleSided: false, mtoon,
  };
  return {
    ...octopus, name: 'mtoon sphere', meshes: [{ name: 'sphere', primitives: [sphere()] }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: -1 }], materials: [material], images, clips: [],
  };
}

/** Draws `scene`; returns the frame and the environment light. */
async function render(scene: MToonScene): Promise<MToonFrame> {
  const asset = sceneAsset(scene);
  const gpu = await renderer.upload(asset);
  try {
    await gpu.texturesReady;
    const animated = new AnimatedModel(asset);
    animated.evaluate(animated.clipSample(-1).at(0));
    const eye = new Float32Array([0, 0, 3]);
    const camera = {
      view: mat4.lookAt(new Float32Array(16), eye, new Float32Array([0, 0, 0]), new Float32Array([0, 1, 0])) as Float32Array,
      projection: mat4.perspective(new Float32Array(16), Math.PI / 4, canvas.width / canvas.height, 0.1, 10) as Float32Array,
      eye,
    };
    renderer.beginFrame(canvas.width, canvas.height, [0.1, 0.1, 0.12, 1]);
    renderer.useLighting({ ...DEFAULT_LIGHTING, toneMapping: scene.toneMapping ?? 'neutral' }, camera, canvas.width, canvas.height);
    // The octopus's node 0 may sit off the origin: the display matrix undoes it, so the sphere is at the origin.
    const item = createRenderItem(gpu, animated, mat4.invert(new Float32Array(16), animated.modelMatrices.subarray(0, 16)) as Float32Array);
    item.materialTime = scene.materialTime;
    renderer.draw(item, camera);
    const pixels = new Uint8Array(4 * canvas.width * canvas.height);
    gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const light = renderer.environmentLight;
    return {
      pixels: Array.from(pixels), width: canvas.width, height: canvas.height,
      light: { direction: Array.from(light.direction), color: Array.from(light.color), ambient: Array.from(light.ambient) },
    };
  } finally {
    gpu.dispose();
  }
}

(window as unknown as { sinewMToon: { render: typeof render } }).sinewMToon = { render };
(window as unknown as { sinewMToonReady: boolean }).sinewMToonReady = true;
