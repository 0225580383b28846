import type { GLTF } from '@gltf-transform/core';
import { quoteValue } from '../load-error.ts';
import { DroppedPart, dropped, isIndex, isJsonObject, pointerToken } from './vrm-reading.ts';

type Json = Record<string, unknown>;

/** 0.x `floatProperties` / `vectorProperties` / `textureProperties` / `keywordMap` values the conversion reads. */
interface Vrm0Properties {
  float(key: string): number | undefined;
  vector(key: string, length: number): number[] | undefined;
  /** A texture index in range, else undefined (an index out of range is left out with a warning). */
  texture(key: string): number | undefined;
  keyword(key: string): boolean | undefined;
}

/** Gamma 2.2 to linear, as three-vrm's v0compat `gammaEOTF` (Unity's gamma-space colours). */
function gammaEOTF(value: number): number {
  return Math.pow(value, 2.2);
}

/**
 * VRM 0.x `VRM.materialProperties` converted to glTF materials with `VRMC_materials_mtoon` 1.0, exactly as
 * three-vrm's VRMMaterialsV0CompatPlugin (three-vrm-materials-v0compat 3.5.5) rewrites the JSON before loading;
 * the glTF loader then reads the result as any 1.0 MToon material (with `v0CompatShade`). Entry i belongs to
 * `/materials/i`. By `shader`:
 * - `VRM/MToon`: lit colour `_Color` and shade colour `_ShadeColor` (default 0.97, 0.81, 0.86), emission
 *   `_EmissionColor`, rim `_RimColor` and outline `_OutlineColor` from gamma to linear (x^2.2, alpha kept);
 *   toony = lerp(`_ShadeToony`, 1, 0.5 + 0.5·`_ShadeShift`), shift = −`_ShadeShift` − (1 − toony);
 *   giEqualization = 1 − `_IndirectLightIntensity` (an intensity of 0 or none: the default 0.9); matcap
 *   `_SphereAdd` with factor (1, 1, 1); rim `_RimTexture`, `_RimLightingMix` [0], `_RimFresnelPower` [1],
 *   `_RimLift` [0]; outline mode from `_OutlineWidthMode` (0 none, 1 world, 2 screen, anything else none), width
 *   0.01 × `_OutlineWidth` (centimetres to metres, in both modes as three-vrm does), `_OutlineWidthTexture`,
 *   lighting mix `_OutlineLightingMix` [1] when `_OutlineColorMode` is 1, else 0; UV animation `_UvAnimMaskTexture`,
 *   `_UvAnimScrollX`, −`_UvAnimScrollY` (Unity's bottom-up v), `_UvAnimRotation`; alpha mode BLEND with keyword
 *   `_ALPHABLEND_ON`, else MASK with `_ALPHATEST_ON` (cutoff `_Cutoff` [0.5]), else OPAQUE;
 *   transparentWithZWrite = BLEND and `_ZWrite` 1; doubleSided = `_CullMode` 0; normal map `_BumpMap`, scale
 *   `_BumpScale`; every texture but the matcap gets `_MainTex`'s tiling as KHR_texture_transform (offset y
 *   flipped to glTF's top-down v: 1 − scale y − offset y);
 * - `VRM/UnlitTexture`, `VRM/UnlitCutout`, `VRM/UnlitTransparent`, `VRM/UnlitTransparentZWrite` (any
 *   `VRM/Unlit…`): MToon with the lit colour as the shade colour and texture (three-vrm draws them lit by MToon,
 *   not unlit; its conversion also takes alpha to the power 2.2, which Sinew mirrors);
 * - `VRM_USE_GLTFSHADER`: the glTF material as it is; any other shader likewise, with one warning (three-vrm's
 *   "Unknown shader").
 * The render queue becomes `renderQueueOffsetNumber` as three-vrm maps it: the file's transparent queues (with and
 * without ZWrite apart) sorted (as strings, like three-vrm's `sort()`), numbered from 0 up (ZWrite, at most 9) or
 * from 0 down (without, at least −9).
 *
 * Where a converted value does not fit a glTF material, Sinew bends it minimally: `_Color` above 1 is clamped to
 * 1, `_EmissionColor` above 1 becomes an emissive factor ≤ 1 and a KHR_materials_emissive_strength (the same
 * radiance), `_Cutoff` below 0 is 0.
 *
 * Bad input: `materialProperties` that is not an array: one warning, nothing converted; an entry that is not an
 * object or has a property of the wrong type (a float that is not a finite number, a colour with too few numbers,
 * a texture index that is not an integer, a keyword that is not a boolean): one warning naming its JSON pointer,
 * and that material stays the file's glTF material (PBR); a texture index past `/textures`: that texture is left
 * out with one warning.
 *
 * @returns converted material JSON by material index (materials that stay as the file has them are absent)
 */
export function convertVrm0Materials(fileName: string, json: GLTF.IGLTF, warnings: string[]): Map<number, GLTF.IMaterial> {
  const converted = new Map<number, GLTF.IMaterial>();
  const vrm: unknown = isJsonObject(json.extensions) ? json.extensions.VRM : undefined;
  if (!isJsonObject(vrm) || vrm.materialProperties === undefined) return converted;
  const where = '/extensions/VRM/materialProperties';
  const list = vrm.materialProperties;
  if (!Array.isArray(list)) {
    warnings.push(`${fileName}: ${where} is ${quoteValue(list)}, not an array; the materials are drawn as glTF PBR`);
    return converted;
  }
  const materials = json.materials ?? [];
  const queues = renderQueueOffsets(list);
  list.forEach((entry: unknown, m) => {
    const at = `${where}/${m}`;
    if (m >= materials.length) {
      warnings.push(`${fileName}: ${at} belongs to material ${m}, which the file does not have; ignored`);
      return;
    }
    try {
      if (!isJsonObject(entry)) throw dropped(at, entry, 'an object');
      const shader = entry.shader;
      if (shader === 'VRM_USE_GLTFSHADER') return;
      if (shader !== 'VRM/MToon' && !(typeof shader === 'string' && shader.startsWith('VRM/Unlit'))) {
        warnings.push(`${fileName}: ${at}/shader is ${quoteValue(shader)}, a shader Sinew does not know; material ${m} is drawn as glTF PBR`);
        return;
      }
      const props = vrm0Properties(fileName, entry, at, json.textures?.length ?? 0, warnings);
      const queue = renderQueueOffset(entry, queues);
      converted.set(m, shader === 'VRM/MToon' ? convertMToon(materials[m], props, queue) : convertUnlit(materials[m], shader as string, props, queue));
    } catch (error) {
      if (!(error instanceof DroppedPart)) throw error;
      warnings.push(`${fileName}: ${error.where} ${error.problem}; material ${m} is drawn as glTF PBR, without MToon`);
    }
  });
  return converted;
}

/** Typed access to an entry's property maps; throws DroppedPart for a value of the wrong type. */
function vrm0Properties(fileName: string, entry: Json, at: string, textureCount: number, warnings: string[]): Vrm0Properties {
  const map = (name: string): Json => {
    const value = entry[name] ?? {};
    if (!isJsonObject(value)) throw dropped(`${at}/${name}`, value, 'an object');
    return value;
  };
  const floats = map('floatProperties'), vectors = map('vectorProperties'), textures = map('textureProperties'), keywords = map('keywordMap');
  const place = (name: string, key: string) => `${at}/${name}/${pointerToken(key)}`;
  return {
    float(key) {
      const v = floats[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw dropped(place('floatProperties', key), v, 'a finite number');
      return v;
    },
    vector(key, length) {
      const v = vectors[key];
      if (v === undefined || v === null) return undefined;
      if (!Array.isArray(v) || v.length < length || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw dropped(place('vectorProperties', key), v, `an array of at least ${length} finite numbers`);
      }
      return v as number[];
    },
    texture(key) {
      const v = textures[key];
      if (v === undefined || v === null) return undefined;
      if (!Number.isInteger(v) || (v as number) < 0) throw dropped(place('textureProperties', key), v, 'a texture index');
      if (!isIndex(v, textureCount)) {
        warnings.push(`${fileName}: ${place('textureProperties', key)} is ${v}, not a texture index (the file has ${textureCount}); that texture is left out`);
        return undefined;
      }
      return v;
    },
    keyword(key) {
      const v = keywords[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'boolean') throw dropped(place('keywordMap', key), v, 'true or false');
      return v;
    },
  };
}

/** three-vrm's `_portTextureTransform`: `_MainTex`'s (offset x, y, scale x, y) as KHR_texture_transform, v flipped. */
function mainTextureTransform(props: Vrm0Properties): Json {
  const t = props.vector('_MainTex', 4);
  if (t === undefined) return {};
  const scale = [t[2], t[3]];
  return { KHR_texture_transform: { offset: [t[0], 1 - scale[1] - t[1]], scale } };
}

function textureInfo(index: number | undefined, extensions: Json | undefined, extra: Json = {}): Json | undefined {
  return index === undefined ? undefined : { index, ...extra, ...(extensions ? { extensions: { ...extensions } } : {}) };
}

/** Linear RGB from a 0.x gamma colour (first three of `value`). */
function linear3(value: readonly number[]): [number, number, number] {
  return [gammaEOTF(value[0]), gammaEOTF(value[1]), gammaEOTF(value[2])];
}

/** An emissive colour as a factor ≤ 1 and the KHR_materials_emissive_strength that restores it. */
function emission(rgb: [number, number, number]): Json {
  const peak = Math.max(rgb[0], rgb[1], rgb[2]);
  if (peak <= 1) return { emissiveFactor: rgb };
  return { emissiveFactor: rgb.map((v) => v / peak), extensions: { KHR_materials_emissive_strength: { emissiveStrength: peak } } };
}

function convertMToon(material: GLTF.IMaterial, props: Vrm0Properties, renderQueueOffsetNumber: number): GLTF.IMaterial {
  const isTransparent = props.keyword('_ALPHABLEND_ON') ?? false;
  const transparentWithZWrite = props.float('_ZWrite') === 1 && isTransparent;
  const isCutoff = props.keyword('_ALPHATEST_ON') ?? false;
  const alphaMode = isTransparent ? 'BLEND' : isCutoff ? 'MASK' : 'OPAQUE';
  const transform = mainTextureTransform(props);
  const color = props.vector('_Color', 4) ?? [1, 1, 1, 1];
  const [r, g, b] = linear3(color);
  const shade = linear3(props.vector('_ShadeColor', 3) ?? [0.97, 0.81, 0.86]);
  let shift = props.float('_ShadeShift') ?? 0;
  let toony = props.float('_ShadeToony') ?? 0.9;
  const t = 0.5 + 0.5 * shift;
  toony = (1 - t) * toony + t * 1; // THREE.MathUtils.lerp(toony, 1, t), term for term
  shift = -shift - (1 - toony);
  const giIntensity = props.float('_IndirectLightIntensity') ?? 0.1;
  const matcap = props.texture('_SphereAdd');
  const outlineColorMode = props.float('_OutlineColorMode') ?? 0;
  const emitted = emission(linear3(props.vector('_EmissionColor', 3) ?? [0, 0, 0]));
  const mtoon: Json = {
    specVersion: '1.0',
    transparentWithZWrite,
    renderQueueOffsetNumber,
    shadeColorFactor: shade,
    shadeMultiplyTexture: textureInfo(props.texture('_ShadeTexture'), transform),
    shadingShiftFactor: shift,
    shadingToonyFactor: toony,
    // three-vrm: `giIntensityFactor ? 1 − giIntensityFactor : undefined` (0 gives the default).
    giEqualizationFactor: giIntensity ? 1 - giIntensity : undefined,
    matcapFactor: [1, 1, 1],
    matcapTexture: textureInfo(matcap, undefined),
    rimLightingMixFactor: props.float('_RimLightingMix') ?? 0,
    rimMultiplyTexture: textureInfo(props.texture('_RimTexture'), transform),
    parametricRimColorFactor: linear3(props.vector('_RimColor', 3) ?? [0, 0, 0]),
    parametricRimFresnelPowerFactor: props.float('_RimFresnelPower') ?? 1,
    parametricRimLiftFactor: props.float('_RimLift') ?? 0,
    outlineWidthMode: (['none', 'worldCoordinates', 'screenCoordinates'] as const)[props.float('_OutlineWidthMode') ?? 0] ?? 'none',
    outlineWidthFactor: 0.01 * (props.float('_OutlineWidth') ?? 0),
    outlineWidthMultiplyTexture: textureInfo(props.texture('_OutlineWidthTexture'), transform),
    outlineColorFactor: linear3(props.vector('_OutlineColor', 3) ?? [0, 0, 0]),
    outlineLightingMixFactor: outlineColorMode === 1 ? props.float('_OutlineLightingMix') ?? 1 : 0,
    uvAnimationMaskTexture: textureInfo(props.texture('_UvAnimMaskTexture'), transform),
    uvAnimationScrollXSpeedFactor: props.float('_UvAnimScrollX') ?? 0,
    uvAnimationScrollYSpeedFactor: -(props.float('_UvAnimScrollY') ?? 0),
    uvAnimationRotationSpeedFactor: props.float('_UvAnimRotation') ?? 0,
  };
  return {
    ...material,
    pbrMetallicRoughness: {
      baseColorFactor: [Math.min(r, 1), Math.min(g, 1), Math.min(b, 1), Math.min(Math.max(color[3], 0), 1)],
      baseColorTexture: textureInfo(props.texture('_MainTex'), transform) as unknown as GLTF.ITextureInfo | undefined,
    },
    normalTexture: textureInfo(props.texture('_BumpMap'), transform, { scale: props.float('_BumpScale') ?? 1 }) as unknown as GLTF.IMaterialNormalTextureInfo | undefined,
    emissiveTexture: textureInfo(props.texture('_EmissionMap'), transform) as unknown as GLTF.ITextureInfo | undefined,
    emissiveFactor: emitted.emissiveFactor as [number, number, number],
    alphaMode,
    alphaCutoff: isCutoff ? Math.max(props.float('_Cutoff') ?? 0.5, 0) : undefined,
    doubleSided: (props.float('_CullMode') ?? 2) === 0,
    extensions: { ...(emitted.extensions as Json | undefined), VRMC_materials_mtoon: withoutUndefined(mtoon) },
  };
}

function convertUnlit(material: GLTF.IMaterial, shader: string, props: Vrm0Properties, renderQueueOffsetNumber: number): GLTF.IMaterial {
  const isTransparentZWrite = shader === 'VRM/UnlitTransparentZWrite';
  const isTransparent = shader === 'VRM/UnlitTransparent' || isTransparentZWrite;
  const isCutoff = shader === 'VRM/UnlitCutout';
  const transform = mainTextureTransform(props);
  // three-vrm maps all four values of `_Color` through gammaEOTF here, alpha included.
  const color = (props.vector('_Color', 4) ?? [1, 1, 1, 1]).slice(0, 4).map((v) => Math.min(gammaEOTF(v), 1));
  const baseColorTexture = textureInfo(props.texture('_MainTex'), transform);
  return {
    ...material,
    pbrMetallicRoughness: { baseColorFactor: color as [number, number, number, number], baseColorTexture: baseColorTexture as unknown as GLTF.ITextureInfo | undefined },
    alphaMode: isTransparent ? 'BLEND' : isCutoff ? 'MASK' : 'OPAQUE',
    alphaCutoff: isCutoff ? Math.max(props.float('_Cutoff') ?? 0.5, 0) : undefined,
    extensions: {
      VRMC_materials_mtoon: withoutUndefined({
        specVersion: '1.0',
        transparentWithZWrite: isTransparentZWrite,
        renderQueueOffsetNumber,
        shadeColorFactor: color.slice(0, 3),
        shadeMultiplyTexture: baseColorTexture,
      }),
    },
  };
}

function withoutUndefined(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

/** three-vrm's transparent test for render queues: the `_ALPHABLEND_ON` keyword present (any value), or an unlit transparent shader. */
function queueKind(entry: Json): 'zwrite' | 'blend' | null {
  const shader = entry.shader;
  const keywords = isJsonObject(entry.keywordMap) ? entry.keywordMap : {};
  const floats = isJsonObject(entry.floatProperties) ? entry.floatProperties : {};
  const zWriteShader = shader === 'VRM/UnlitTransparentZWrite';
  const transparent = (keywords._ALPHABLEND_ON !== undefined && keywords._ALPHABLEND_ON !== null) || shader === 'VRM/UnlitTransparent' || zWriteShader;
  if (!transparent) return null;
  return floats._ZWrite === 1 || zWriteShader ? 'zwrite' : 'blend';
}

/** three-vrm's `_populateRenderQueueMap`: offsets by Unity queue for the ZWrite and the plain transparent materials. */
function renderQueueOffsets(list: readonly unknown[]): { zwrite: Map<unknown, number>; blend: Map<unknown, number> } {
  const seen = { zwrite: new Set<unknown>(), blend: new Set<unknown>() };
  for (const entry of list) {
    if (!isJsonObject(entry)) continue;
    const kind = queueKind(entry);
    if (kind !== null && entry.renderQueue !== undefined && entry.renderQueue !== null) seen[kind].add(entry.renderQueue);
  }
  // Array.prototype.sort's default order (as strings), as three-vrm sorts.
  const sorted = (set: Set<unknown>) => [...set].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  const blend = new Map(sorted(seen.blend).map((queue, i, all) => [queue, Math.min(Math.max(i - all.length + 1, -9), 0)]));
  const zwrite = new Map(sorted(seen.zwrite).map((queue, i) => [queue, Math.min(Math.max(i, 0), 9)]));
  return { zwrite, blend };
}

/** three-vrm's `_v0ParseRenderQueue`: the entry's offset (0 when it is not transparent or has no queue). */
function renderQueueOffset(entry: Json, queues: { zwrite: Map<unknown, number>; blend: Map<unknown, number> }): number {
  const kind = queueKind(entry);
  if (kind === null || entry.renderQueue === undefined || entry.renderQueue === null) return 0;
  return queues[kind].get(entry.renderQueue) ?? 0;
}
