/**
 * glTF 2.0 materials as Sinew shades them (README "Materials and lighting"): metallic-roughness under the
 * studio environment's image-based light, and every material input the loader reads. The models are made
 * here with @gltf-transform/core, their textures with encodePng:
 * - spheres: a row of metals (metallic 1) and a row of dielectrics (metallic 0), roughness 0, ¼, ½, ¾, 1
 *   left to right;
 * - quads (top row, left to right): MASK (alpha checker, cutoff 0.5), BLEND (two overlapping translucent
 *   quads, the front one first in the file, so only sorting puts it over the back one), emissive (texture ×
 *   factor × KHR_materials_emissive_strength 2 on a black base), normal map (tilted-normal stripes, no
 *   tangents: the frame comes from screen-space derivatives); (bottom row) occlusion (a dark ring),
 *   KHR_texture_transform on TEXCOORD_1 (rotated, scaled checker; TEXCOORD_0 is a constant that would paint one
 *   colour), COLOR_0 (red, green, blue, white corners), KHR_materials_unlit (flat orange whatever the light).
 */
import { test, expect, type Page } from '@playwright/test';
import { Document, NodeIO, type Material, type Texture } from '@gltf-transform/core';
import { KHRMaterialsEmissiveStrength, KHRMaterialsUnlit, KHRTextureTransform } from '@gltf-transform/extensions';
import { encodePng } from '../../helpers/encode-png.ts';
import { collectErrors, isolateFromLiveReload, openViewer } from '../../helpers/viewer-page.ts';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const NEAREST = 9728;

/** `n × n` RGBA pixels from `f(u, v)` (u, v in [0, 1) at pixel centres, v down) → [r, g, b, a] in 0…255. */
function pixels(n: number, f: (u: number, v: number) => number[]): Uint8Array {
  const rgba = new Uint8Array(4 * n * n);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) rgba.set(f((x + 0.5) / n, (y + 0.5) / n), 4 * (n * y + x));
  return rgba;
}

function png(doc: Document, n: number, f: (u: number, v: number) => number[]): Texture {
  return doc.createTexture().setImage(encodePng(n, n, pixels(n, f))).setMimeType('image/png');
}

async function glb(doc: Document): Promise<string> {
  const io = new NodeIO().registerExtensions([KHRTextureTransform, KHRMaterialsUnlit, KHRMaterialsEmissiveStrength]);
  return `data:model/gltf-binary;base64,${Buffer.from(await io.writeBinary(doc)).toString('base64')}`;
}

/** Adds a node with a one-primitive mesh at `translation`. */
function place(doc: Document, attributes: Record<string, [Float32Array, string]>, indices: Uint16Array, material: Material, translation: [number, number, number]): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const primitive = doc.createPrimitive().setMaterial(material)
    .setIndices(doc.createAccessor().setArray(indices).setType('SCALAR').setBuffer(buffer));
  for (const [semantic, [array, type]] of Object.entries(attributes)) {
    primitive.setAttribute(semantic, doc.createAccessor().setArray(array).setType(type as 'VEC2').setBuffer(buffer));
  }
  const node = doc.createNode().setMesh(doc.createMesh().addPrimitive(primitive)).setTranslation(translation);
  doc.getRoot().listScenes()[0].addChild(node);
}

function newDocument(): Document {
  const doc = new Document();
  doc.createBuffer();
  doc.getRoot().setDefaultScene(doc.createScene());
  return doc;
}

/** A UV sphere of radius r: positions, normals, UVs and indices. */
function sphere(r: number, rings = 20, segments = 32): { attributes: Record<string, [Float32Array, string]>; indices: Uint16Array } {
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const theta = (Math.PI * i) / rings;
    for (let j = 0; j <= segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      const n = [Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi)];
      normals.push(...n);
      positions.push(r * n[0], r * n[1], r * n[2]);
      uvs.push(j / segments, i / rings);
    }
  }
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * (segments + 1) + j, b = a + segments + 1;
      indices.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  return {
    attributes: { POSITION: [new Float32Array(positions), 'VEC3'], NORMAL: [new Float32Array(normals), 'VEC3'], TEXCOORD_0: [new Float32Array(uvs), 'VEC2'] },
    indices: new Uint16Array(indices),
  };
}

/** A `size` × `size` quad facing +Z: corners (−,−), (+,−), (−,+), (+,+); UV (0, 1), (1, 1), (0, 0), (1, 0). */
function quad(size: number, extra: Record<string, [Float32Array, string]> = {}): { attributes: Record<string, [Float32Array, string]>; indices: Uint16Array } {
  const h = size / 2;
  return {
    attributes: {
      POSITION: [new Float32Array([-h, -h, 0, h, -h, 0, -h, h, 0, h, h, 0]), 'VEC3'],
      NORMAL: [new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]), 'VEC3'],
      TEXCOORD_0: [new Float32Array([0, 1, 1, 1, 0, 0, 1, 0]), 'VEC2'],
      ...extra,
    },
    indices: new Uint16Array([0, 1, 2, 2, 1, 3]),
  };
}

async function spheresModel(): Promise<string> {
  const doc = newDocument();
  const { attributes, indices } = sphere(0.42);
  for (let k = 0; k < 5; k++) {
    const roughness = k / 4;
    const metal = doc.createMaterial(`metal ${roughness}`).setBaseColorFactor([1.0, 0.766, 0.336, 1]).setMetallicFactor(1).setRoughnessFactor(roughness);
    const plastic = doc.createMaterial(`dielectric ${roughness}`).setBaseColorFactor([0.7, 0.08, 0.06, 1]).setMetallicFactor(0).setRoughnessFactor(roughness);
    place(doc, attributes, indices, metal, [k - 2, 0.5, 0]);
    place(doc, attributes, indices, plastic, [k - 2, -0.5, 0]);
  }
  return glb(doc);
}

async function featuresModel(): Promise<string> {
  const doc = newDocument();
  const transforms = doc.createExtension(KHRTextureTransform);
  const unlit = doc.createExtension(KHRMaterialsUnlit);
  const strength = doc.createExtension(KHRMaterialsEmissiveStrength);
  const at = (column: number, row: number): [number, number, number] => [1.1 * column - 1.65, row === 0 ? 0.55 : -0.55, 0];
  const plain = quad(0.9);

  // MASK: a green checker whose dark squares have alpha 0.
  const mask = doc.createMaterial('mask').setAlphaMode('MASK').setAlphaCutoff(0.5).setMetallicFactor(0).setRoughnessFactor(0.6).setDoubleSided(true)
    .setBaseColorTexture(png(doc, 8, (u, v) => ((Math.floor(8 * u) + Math.floor(8 * v)) % 2 === 0 ? [60, 200, 90, 255] : [60, 200, 90, 0])));
  mask.getBaseColorTextureInfo()!.setMagFilter(NEAREST).setMinFilter(NEAREST);
  place(doc, plain.attributes, plain.indices, mask, at(0, 0));

  // BLEND: front (red, nearer) first in the file, back (blue) second; sorting draws the back one first.
  const [bx, by] = at(1, 0);
  const small = quad(0.6);
  const front = doc.createMaterial('front').setAlphaMode('BLEND').setBaseColorFactor([0.9, 0.1, 0.1, 0.5]).setMetallicFactor(0).setDoubleSided(true);
  const back = doc.createMaterial('back').setAlphaMode('BLEND').setBaseColorFactor([0.1, 0.2, 0.95, 0.5]).setMetallicFactor(0).setDoubleSided(true);
  place(doc, small.attributes, small.indices, front, [bx + 0.12, by - 0.12, 0.3]);
  place(doc, small.attributes, small.indices, back, [bx - 0.12, by + 0.12, 0]);

  // Emissive: black base, a bright cross × factor × strength 2.
  const emissive = doc.createMaterial('emissive').setBaseColorFactor([0.02, 0.02, 0.02, 1]).setMetallicFactor(0).setEmissiveFactor([1, 0.5, 0.1])
    .setEmissiveTexture(png(doc, 16, (u, v) => (Math.abs(u - 0.5) < 0.12 || Math.abs(v - 0.5) < 0.12 ? [255, 255, 255, 255] : [40, 40, 40, 255])))
    .setExtension('KHR_materials_emissive_strength', strength.createEmissiveStrength().setEmissiveStrength(2));
  place(doc, plain.attributes, plain.indices, emissive, at(2, 0));

  // Normal map: vertical stripes whose normals tilt ±35° about the quad's V axis (no TANGENT attribute).
  const normal = doc.createMaterial('normal map').setBaseColorFactor([0.8, 0.8, 0.8, 1]).setMetallicFactor(0).setRoughnessFactor(0.35)
    .setNormalTexture(png(doc, 64, (u) => {
      const angle = 0.6 * Math.sin(2 * Math.PI * 4 * u);
      return [Math.round(127.5 * (Math.sin(angle) + 1)), 128, Math.round(127.5 * (Math.cos(angle) + 1)), 255];
    }));
  place(doc, plain.attributes, plain.indices, normal, at(3, 0));

  // Occlusion: a dark ring (R channel), strength 1.
  const occlusion = doc.createMaterial('occlusion').setBaseColorFactor([0.9, 0.9, 0.9, 1]).setMetallicFactor(0).setRoughnessFactor(0.8)
    .setOcclusionTexture(png(doc, 32, (u, v) => {
      const d = Math.hypot(u - 0.5, v - 0.5);
      const ao = Math.abs(d - 0.3) < 0.08 ? 30 : 255;
      return [ao, 255, 255, 255];
    })).setOcclusionStrength(1);
  place(doc, plain.attributes, plain.indices, occlusion, at(0, 1));

  // KHR_texture_transform on TEXCOORD_1: the quadrant checker rotated 90°, scaled 2×, offset ½ in u.
  const checker = png(doc, 4, (u, v) => [[230, 40, 40], [40, 200, 60], [40, 80, 230], [240, 240, 240]][(v < 0.5 ? 0 : 2) + (u < 0.5 ? 0 : 1)].concat(255));
  const transformed = doc.createMaterial('texture transform').setMetallicFactor(0).setRoughnessFactor(0.7).setBaseColorTexture(checker);
  transformed.getBaseColorTextureInfo()!.setTexCoord(1).setMagFilter(NEAREST).setMinFilter(NEAREST)
    .setExtension('KHR_texture_transform', transforms.createTransform().setRotation(Math.PI / 2).setScale([2, 2]).setOffset([0.5, 0]));
  const twoSets = quad(0.9, {
    TEXCOORD_0: [new Float32Array(8).fill(0.25), 'VEC2'],
    TEXCOORD_1: [new Float32Array([0, 1, 1, 1, 0, 0, 1, 0]), 'VEC2'],
  });
  place(doc, twoSets.attributes, twoSets.indices, transformed, at(1, 1));

  // COLOR_0: red, green, blue, white corners over a white base.
  const colours = quad(0.9, { COLOR_0: [new Float32Array([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1]), 'VEC4'] });
  place(doc, colours.attributes, colours.indices, doc.createMaterial('vertex colours').setMetallicFactor(0).setRoughnessFactor(0.6), at(2, 1));

  // KHR_materials_unlit: the base colour as it is.
  const flat = doc.createMaterial('unlit').setBaseColorFactor([0.9, 0.35, 0.05, 1]).setExtension('KHR_materials_unlit', unlit.createUnlit());
  place(doc, plain.attributes, plain.indices, flat, at(3, 1));
  return glb(doc);
}

async function show(page: Page, url: string, name: string): Promise<void> {
  expect(await page.evaluate(([u, n]) => window.sinew!.loadUrl(u, n), [url, name] as const)).toBe(true);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe(name);
  expect(state.error).toBeNull();
  await page.evaluate(() => window.sinew!.renderOnce());
}

test('golden: metallic and dielectric spheres, roughness 0 to 1, under the studio environment', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&yaw=0&pitch=0');
  await show(page, await spheresModel(), 'spheres.glb');
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('spheres.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('golden: MASK, sorted BLEND, emissive, normal map, occlusion, texture transform on TEXCOORD_1, vertex colours, unlit', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&yaw=0&pitch=0');
  await show(page, await featuresModel(), 'features.glb');
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('features.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});
