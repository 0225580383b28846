import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MToonMaterial, VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildAvatarVrm0 } from '../../../../src/procedural/avatar/avatar-vrm0.ts';
import { AVATAR_TOON_MATERIALS, type AvatarToonMaterialName } from '../../../../src/procedural/avatar/avatar-mtoon.ts';
import { v0ShadingOf } from '../../../../src/procedural/avatar/avatar-mtoon-vrm0.ts';

// The toon avatar's MToon materials as written (the JSON) and as three-vrm 3.5.5 reads them (the reference MToon
// implementation): the values the side-by-side comparison and Sinew's loader see.

type Json = {
  materials: { name: string; alphaMode?: string; extensions?: Record<string, Record<string, unknown>>; emissiveTexture?: { index: number; extensions?: Record<string, unknown> } }[];
  textures: { source: number }[];
  images: { name: string }[];
  extensionsUsed: string[];
  extensions: Record<string, Record<string, unknown>>;
};

function glbJson(bytes: Uint8Array): Json {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + view.getUint32(12, true)))) as Json;
}

/** Node has no image decoder for GLTFLoader: each texture becomes an empty one named as its image. */
class NamedTexturePlugin {
  readonly name = 'NamedTexturePlugin';
  constructor(private readonly parser: GLTFParser) {}
  loadTexture(index: number): Promise<THREE.Texture> {
    const json = this.parser.json as Json;
    const texture = new THREE.Texture();
    texture.name = json.images[json.textures[index].source].name;
    texture.flipY = false;
    return Promise.resolve(texture);
  }
}

const loader = new GLTFLoader();
loader.register((parser) => new NamedTexturePlugin(parser));
loader.register((parser) => new VRMLoaderPlugin(parser));

async function loadVrm(bytes: Uint8Array, turn: boolean): Promise<VRM> {
  const vrm = (await loader.parseAsync(bytes.slice().buffer, '')).userData.vrm as VRM;
  if (turn) VRMUtils.rotateVRM0(vrm);
  return vrm;
}

/** Every material of the avatar by name; outlines (three-vrm's "(Outline)" copies) apart. */
function materialsOf(vrm: VRM): { surface: Map<string, MToonMaterial>; outline: Map<string, MToonMaterial>; renderOrder: Map<string, number> } {
  const surface = new Map<string, MToonMaterial>(), outline = new Map<string, MToonMaterial>(), renderOrder = new Map<string, number>();
  vrm.scene.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh) return;
    renderOrder.set((Array.isArray(mesh.material) ? mesh.material[0] : mesh.material).name, mesh.renderOrder);
    for (const material of Array.isArray(mesh.material) ? mesh.material : [mesh.material]) {
      if (!(material instanceof MToonMaterial)) throw new Error(`${material.name} is ${material.type}, not MToon`);
      (material.isOutline ? outline : surface).set(material.name.replace(' (Outline)', ''), material);
    }
  });
  return { surface, outline, renderOrder };
}

const rgb = (color: THREE.Color): number[] => [color.r, color.g, color.b];
const expectClose = (actual: readonly number[], expected: readonly number[], digits = 5): void => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((value, i) => expect(value, `[${i}] of ${actual.join(', ')}`).toBeCloseTo(expected[i], digits));
};

const bytes1 = await buildAvatarVrm1({ mtoon: true });
const bytes0 = await buildAvatarVrm0({ mtoon: true });
const json1 = glbJson(bytes1);
const json0 = glbJson(bytes0);
const vrm1 = await loadVrm(bytes1, false);
const vrm0 = await loadVrm(bytes0, true);

describe('the toon avatar as written', () => {
  it('VRM 1.0: every material carries VRMC_materials_mtoon 1.0 and KHR_materials_unlit, the extensions listed', () => {
    expect(json1.materials.map((m) => m.name).sort()).toEqual(['Bracer', 'Cheek', 'Eye', 'Hair', 'Mouth', 'Pupil', 'Skin']);
    for (const material of json1.materials) {
      expect(material.extensions?.KHR_materials_unlit).toEqual({});
      expect(material.extensions?.VRMC_materials_mtoon.specVersion).toBe('1.0');
    }
    expect(json1.extensionsUsed).toEqual(expect.arrayContaining(['VRMC_vrm', 'VRMC_materials_mtoon', 'KHR_materials_unlit', 'KHR_texture_transform']));
  });

  it('VRM 1.0: the values meant, with the textures pointing at the images of their names', () => {
    const mtoon = (name: string) => json1.materials.find((m) => m.name === name)!.extensions!.VRMC_materials_mtoon as Record<string, unknown>;
    const imageOf = (info: unknown) => json1.images[json1.textures[(info as { index: number }).index].source].name;
    const hair = mtoon('Hair'), skin = mtoon('Skin'), bracer = mtoon('Bracer'), cheek = mtoon('Cheek');
    expect(skin.outlineWidthMode).toBe('worldCoordinates');
    expect(skin.outlineWidthFactor).toBe(0.002);
    expect(skin.outlineLightingMixFactor).toBe(1);
    expect(imageOf(skin.shadeMultiplyTexture)).toBe('SkinShadeMultiply');
    expect(imageOf(skin.outlineWidthMultiplyTexture)).toBe('SkinOutlineWidth');
    expect(hair.outlineWidthMode).toBe('screenCoordinates');
    expect(hair.outlineLightingMixFactor).toBe(0);
    expect(hair.giEqualizationFactor).toBe(0);
    expect(hair.shadingToonyFactor).toBe(0.5);
    expect(skin.shadingToonyFactor).toBe(0.95);
    expect(hair.shadingShiftTexture).toMatchObject({ scale: 0.4, texCoord: 0 });
    expect(imageOf(hair.shadingShiftTexture)).toBe('HairShadingShift');
    expect(imageOf(hair.matcapTexture)).toBe('HairMatcap');
    expect(imageOf(hair.rimMultiplyTexture)).toBe('HairRimMultiply');
    expect(bracer.uvAnimationScrollXSpeedFactor).toBe(0.25);
    expect(bracer.uvAnimationRotationSpeedFactor).toBe(0.3);
    expect(bracer.uvAnimationMaskTexture).toMatchObject({ extensions: { KHR_texture_transform: { offset: [0, 0], scale: [2, 1] } } });
    expect(json1.materials.find((m) => m.name === 'Bracer')!.emissiveTexture!.extensions).toEqual({ KHR_texture_transform: { offset: [0, 0], scale: [2, 1] } });
    expect(cheek).toMatchObject({ transparentWithZWrite: true, renderQueueOffsetNumber: 1 });
    expect(json1.materials.find((m) => m.name === 'Cheek')!.alphaMode).toBe('BLEND');
    expect(json1.materials.find((m) => m.name === 'Pupil')!.alphaMode).toBe('MASK');
    // Every factor of every material as the settings give it.
    for (const [name, toon] of Object.entries(AVATAR_TOON_MATERIALS)) {
      const written = mtoon(name);
      for (const [key, value] of Object.entries(toon.mtoon)) {
        if (key === 'shadingShiftTextureScale') continue;
        expect(written[key], `${name}.${key}`).toEqual(value);
      }
    }
  });

  it('VRM 0.x: every material VRM/MToon, in material order, with its 0.x properties', () => {
    const properties = json0.extensions.VRM.materialProperties as { name: string; shader: string; floatProperties: Record<string, number>; vectorProperties: Record<string, number[]>; textureProperties: Record<string, number>; keywordMap: Record<string, boolean> }[];
    expect(properties.map((p) => p.name)).toEqual(json0.materials.map((m) => m.name));
    for (const p of properties) expect(p.shader).toBe('VRM/MToon');
    const hair = properties.find((p) => p.name === 'Hair')!;
    expect(hair.floatProperties._OutlineWidthMode).toBe(2);
    expect(hair.floatProperties._OutlineWidth).toBeCloseTo(0.6, 10); // centimetres
    expect(hair.floatProperties._OutlineColorMode).toBe(0);
    expect(hair.floatProperties._CullMode).toBe(0);
    expect(hair.floatProperties._IndirectLightIntensity).toBe(1);
    // Gamma-encoded colours: 0.035^(1/2.2).
    expect(hair.vectorProperties._ShadeColor[0]).toBeCloseTo(0.2179, 4);
    const bracer = properties.find((p) => p.name === 'Bracer')!;
    expect(bracer.floatProperties._UvAnimScrollY).toBe(0.1);
    expect(bracer.vectorProperties._MainTex).toEqual([0, 0, 2, 1]);
    expect(bracer.keywordMap._NORMALMAP).toBe(true);
    const cheek = properties.find((p) => p.name === 'Cheek')!;
    expect(cheek.keywordMap._ALPHABLEND_ON).toBe(true);
    expect(cheek.floatProperties._ZWrite).toBe(1);
    expect(properties.find((p) => p.name === 'Pupil')!.keywordMap._ALPHATEST_ON).toBe(true);
  });

  it('inverts three-vrm\'s 0.x shading conversion', () => {
    for (const [shift, toony] of [[-0.05, 0.95], [-0.2, 0.5], [0, 0.9]]) {
      const { shadeShift, shadeToony } = v0ShadingOf(shift, toony);
      const toony1 = THREE.MathUtils.lerp(shadeToony, 1, 0.5 + 0.5 * shadeShift);
      expect(toony1).toBeCloseTo(toony, 12);
      expect(-shadeShift - (1 - toony1)).toBeCloseTo(shift, 12);
      expect(shadeToony).toBeGreaterThanOrEqual(0);
      expect(shadeToony).toBeLessThanOrEqual(1);
    }
  });

  it('PBR stays the default: no MToon, no Bracer material', async () => {
    const plain = glbJson(await buildAvatarVrm1({ texture: false }));
    expect(plain.extensionsUsed).not.toContain('VRMC_materials_mtoon');
    expect(plain.materials.map((m) => m.name)).not.toContain('Bracer');
    expect(glbJson(await buildAvatarVrm0({ texture: false })).extensions.VRM.materialProperties).toBeUndefined();
  });
});

describe('three-vrm reads the toon avatar as MToon', () => {
  for (const [version, vrm] of [['1.0', vrm1], ['0.x', vrm0]] as const) {
    it(`VRM ${version}: MToonMaterial with the values meant`, () => {
      const { surface, outline, renderOrder } = materialsOf(vrm);
      expect([...surface.keys()].sort()).toEqual(['Bracer', 'Cheek', 'Eye', 'Hair', 'Mouth', 'Pupil', 'Skin']);
      // Outline copies exactly where an outline width mode is set.
      expect([...outline.keys()].sort()).toEqual(['Bracer', 'Hair', 'Skin']);
      for (const [name, toon] of Object.entries(AVATAR_TOON_MATERIALS) as [AvatarToonMaterialName, (typeof AVATAR_TOON_MATERIALS)['Skin']][]) {
        const material = surface.get(name)!;
        const m = toon.mtoon;
        const what = `${version} ${name}`;
        expectClose(rgb(material.color), toon.color.slice(0, 3));
        expect(material.opacity, what).toBeCloseTo(toon.color[3], 5);
        expectClose(rgb(material.shadeColorFactor), m.shadeColorFactor);
        expect(material.shadingShiftFactor, what).toBeCloseTo(m.shadingShiftFactor, 5);
        expect(material.shadingToonyFactor, what).toBeCloseTo(m.shadingToonyFactor, 5);
        expectClose(rgb(material.parametricRimColorFactor), m.parametricRimColorFactor);
        expect(material.parametricRimFresnelPowerFactor, what).toBeCloseTo(m.parametricRimFresnelPowerFactor, 5);
        expect(material.parametricRimLiftFactor, what).toBeCloseTo(m.parametricRimLiftFactor, 5);
        expect(material.rimLightingMixFactor, what).toBeCloseTo(m.rimLightingMixFactor, 5);
        expect(material.outlineWidthMode, what).toBe(m.outlineWidthMode);
        expect(material.outlineWidthFactor, what).toBeCloseTo(m.outlineWidthFactor, 8);
        expectClose(rgb(material.outlineColorFactor), m.outlineColorFactor);
        if (m.outlineWidthMode !== 'none') expect(material.outlineLightingMixFactor, what).toBeCloseTo(m.outlineLightingMixFactor, 5);
        expect(material.uvAnimationScrollXSpeedFactor, what).toBeCloseTo(m.uvAnimationScrollXSpeedFactor, 5);
        expect(material.uvAnimationScrollYSpeedFactor, what).toBeCloseTo(m.uvAnimationScrollYSpeedFactor, 5);
        expect(material.uvAnimationRotationSpeedFactor, what).toBeCloseTo(m.uvAnimationRotationSpeedFactor, 5);
        // three-vrm turns transparentWithZWrite into depth writes.
        expect(material.depthWrite, what).toBe(toon.alphaMode !== 'BLEND' || m.transparentWithZWrite);
        expect(material.side, what).toBe(toon.doubleSided ? THREE.DoubleSide : THREE.FrontSide);
        expect(material.transparent, what).toBe(toon.alphaMode === 'BLEND');
        expect(material.alphaTest, what).toBeCloseTo(toon.alphaMode === 'MASK' ? toon.alphaCutoff! : 0, 5);
        expectClose(rgb(material.emissive), toon.emissive ?? [0, 0, 0]);
        // Texture slots hold the images meant (0.x has no shading shift texture).
        expect(material.shadeMultiplyTexture?.name, what).toBe(toon.mtoonImages.shadeMultiplyTexture);
        expect(material.matcapTexture?.name, what).toBe(toon.mtoonImages.matcapTexture);
        expect(material.rimMultiplyTexture?.name, what).toBe(toon.mtoonImages.rimMultiplyTexture);
        expect(material.outlineWidthMultiplyTexture?.name, what).toBe(toon.mtoonImages.outlineWidthMultiplyTexture);
        expect(material.uvAnimationMaskTexture?.name, what).toBe(toon.mtoonImages.uvAnimationMaskTexture);
        expect(material.shadingShiftTexture?.name, what).toBe(version === '1.0' ? toon.mtoonImages.shadingShiftTexture : undefined);
        expect(material.emissiveMap?.name, what).toBe(toon.emissiveImage);
        expect(material.normalMap?.name, what).toBe(toon.normalImage);
        expect(material.map?.name, what).toBe(toon.baseColorImage);
      }
      const hair = surface.get('Hair')!;
      // GI equalization: 0.x's _IndirectLightIntensity 1 gives 0, as in 1.0.
      expect(hair.giEqualizationFactor).toBeCloseTo(0, 6);
      expect(surface.get('Skin')!.giEqualizationFactor).toBeCloseTo(0.9, 6);
      expect(hair.shadingShiftTextureScale).toBeCloseTo(version === '1.0' ? 0.4 : 1, 6);
      // 0.x MToon has no matcap factor: v0compat gives (1, 1, 1).
      expectClose(rgb(hair.matcapFactor), version === '1.0' ? [0.5, 0.42, 0.35] : [1, 1, 1]);
      // three-vrm's render order: 0 for transparentWithZWrite, plus renderQueueOffsetNumber (0.x: the rank of the
      // material's render queue among those of its kind, 0 for the only one).
      expect(renderOrder.get('Cheek')).toBe(version === '1.0' ? 1 : 0);
      // KHR_texture_transform on the bracers' textures (0.x: from _MainTex), the matcap left alone.
      const bracer = surface.get('Bracer')!;
      expectClose([bracer.uvAnimationMaskTexture!.repeat.x, bracer.uvAnimationMaskTexture!.repeat.y], [2, 1]);
      expectClose([bracer.emissiveMap!.repeat.x, bracer.emissiveMap!.repeat.y], [2, 1]);
    });

    it(`VRM ${version}: angry turns the skin's shade colour and rim, cheekPuff the bracers' texture transform`, () => {
      const { surface } = materialsOf(vrm);
      const skin = surface.get('Skin')!, bracer = surface.get('Bracer')!;
      // The binds three-vrm made, on the materials meant (1.0 makes one per mesh using the material: no dedupe).
      const angry = vrm.expressionManager!.getExpression('angry')!.binds as unknown as { material?: THREE.Material; type?: string; targetValue?: THREE.Color }[];
      const colorOf = (type: string) => angry.find((bind) => bind.material === skin && bind.type === type)!.targetValue!;
      expectClose(rgb(colorOf('shadeColor')), [0.6, 0.1, 0.08]);
      expectClose(rgb(colorOf('rimColor')), [0.7, 0.05, 0.02]);
      const puff = vrm.expressionManager!.getExpression('cheekPuff')!.binds as unknown as { material?: THREE.Material; scale?: THREE.Vector2; offset?: THREE.Vector2 }[];
      const transform = puff.find((bind) => bind.material === bracer)!;
      expectClose([transform.scale!.x, transform.scale!.y, transform.offset!.x, transform.offset!.y], [4, 1, 0.5, 0]);
      if (version === '0.x') {
        // 0.x binds once per material: the weighted colours and the bracers' emission texture move as meant.
        const shade = rgb(skin.shadeColorFactor);
        vrm.expressionManager!.setValue('angry', 1);
        vrm.expressionManager!.setValue('cheekPuff', 1);
        vrm.expressionManager!.update();
        expectClose(rgb(skin.shadeColorFactor), [0.6, 0.1, 0.08]);
        expectClose(rgb(skin.parametricRimColorFactor), [0.7, 0.05, 0.02]);
        expectClose([bracer.emissiveMap!.repeat.x, bracer.emissiveMap!.offset.x], [4, 0.5]);
        vrm.expressionManager!.setValue('angry', 0);
        vrm.expressionManager!.setValue('cheekPuff', 0);
        vrm.expressionManager!.update();
        expectClose(rgb(skin.shadeColorFactor), shade);
      }
    });
  }
});
