import type { AlphaMode } from '../../asset/model-asset.ts';
import type { MaterialTexture } from '../../asset/material-texture.ts';
import type { MToonMaterialAsset, OutlineWidthMode } from '../../asset/mtoon-material-asset.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import { DroppedPart, dropped, isFiniteTuple, isIndex, isJsonObject } from './vrm-reading.ts';

/** `specVersion`s read: the specification's "1.0", and "1.0-beta", which three-vrm's MToon loader also reads as 1.0. */
export const MTOON_SPEC_VERSIONS: readonly string[] = ['1.0', '1.0-beta'];
const OUTLINE_WIDTH_MODES: readonly OutlineWidthMode[] = ['none', 'worldCoordinates', 'screenCoordinates'];
/** The extension's textureInfo properties, in the README's order. */
const MTOON_TEXTURE_KEYS = [
  'shadeMultiplyTexture', 'shadingShiftTexture', 'matcapTexture', 'rimMultiplyTexture', 'outlineWidthMultiplyTexture', 'uvAnimationMaskTexture',
] as const;
type MToonTextureKey = (typeof MTOON_TEXTURE_KEYS)[number];

/** What {@link readMToon} needs of the material and the file it is read from. */
export interface MToonReading {
  /** The file's name, first in every warning. */
  readonly fileName: string;
  /** The load's warnings, appended to. */
  readonly warnings: string[];
  /** `/textures` length: a textureInfo `index` must be below it. */
  readonly textureCount: number;
  /** The material's `alphaMode` (the render queue offset applies to BLEND only). */
  readonly alphaMode: AlphaMode;
  /**
   * The glTF loader's one reader of a textureInfo (its image, sampler, `texCoord`, KHR_texture_transform), for
   * an `index` already checked; `label` names the texture in its warnings. Null: the texture has no image.
   * @throws LoadError for a malformed textureInfo or texture
   */
  readonly readTexture: (info: Record<string, unknown>, place: string, label: string) => MaterialTexture | null;
  /** Converted from VRM 0.x: sets {@link MToonMaterialAsset.v0CompatShade}. */
  readonly v0CompatShade?: boolean;
}

/**
 * Reads a material's `VRMC_materials_mtoon` 1.0 extension (the object at `place`, a JSON pointer such as
 * `/materials/3/extensions/VRMC_materials_mtoon`) into an {@link MToonMaterialAsset}, every property absent from
 * the file given the specification's default (VRMC_materials_mtoon-1.0 README, "MToon Defined Properties";
 * `matcapFactor` [1, 1, 1] as the README's property text and three-vrm's MToonMaterial have it, not the table's
 * [0, 0, 0]).
 *
 * Values are read as three-vrm's MToon loader reads them: numbers outside the schema's range are kept (a toony,
 * mix or GI equalization factor outside [0, 1], colours above 1), except two that Sinew bounds:
 * `outlineWidthFactor` below 0 becomes 0 (three-vrm draws no outline then, and neither does width 0), and
 * `renderQueueOffsetNumber` is clamped to the README's "Render Queue" table ([0, 9] with
 * `transparentWithZWrite`, [−9, 0] without, 0 unless `alphaMode` is BLEND), so that the alpha modes' order comes
 * first "regardless of renderQueueOffsetNumbers" as the README says (three-vrm adds the number unbounded).
 *
 * Bad input, as the issue asks (`readMToon` never throws):
 * - a malformed extension (not an object; `specVersion` absent or not one of {@link MTOON_SPEC_VERSIONS}; a value
 *   of the wrong type, NaN or infinite; a colour that is not 3 numbers; an `outlineWidthMode` not in the list; a
 *   `renderQueueOffsetNumber` that is not an integer; a textureInfo that is not an object or whose `texCoord` or
 *   KHR_texture_transform the glTF loader refuses): null, and ONE warning naming the file, the JSON pointer and
 *   the problem; the caller draws the material as glTF PBR;
 * - a textureInfo whose `index` names no texture, or a texture without an image: that texture is left out (the
 *   property's default: no texture, so an outline width without its texture is constant), one warning each,
 *   and the rest of the material is kept.
 *
 * @param label names the material in warnings, e.g. `material 3 ("Skin")`
 * @returns the MToon material, or null when the extension is malformed (warned)
 */
export function readMToon(reading: MToonReading, extension: unknown, place: string, label: string): MToonMaterialAsset | null {
  try {
    return readMToonOrThrow(reading, extension, place, label);
  } catch (error) {
    if (error instanceof LoadError) error = new DroppedPart(error.where ?? place, error.problem);
    if (!(error instanceof DroppedPart)) throw error;
    reading.warnings.push(`${reading.fileName}: ${error.where} ${error.problem}; ${label} is drawn as glTF PBR, without MToon`);
    return null;
  }
}

function readMToonOrThrow(reading: MToonReading, extension: unknown, place: string, label: string): MToonMaterialAsset {
  if (!isJsonObject(extension)) throw dropped(place, extension, 'an object');
  const e = extension;
  if (typeof e.specVersion !== 'string' || !MTOON_SPEC_VERSIONS.includes(e.specVersion)) {
    throw dropped(`${place}/specVersion`, e.specVersion, `an MToon version Sinew reads (${MTOON_SPEC_VERSIONS.join(', ')})`);
  }
  const at = (key: string) => `${place}/${key}`;
  const number = (key: string, absent: number): number => {
    const v = e[key];
    if (v === undefined) return absent;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw dropped(at(key), v, 'a finite number');
    return v;
  };
  const color = (key: string, absent: readonly [number, number, number]): readonly [number, number, number] => {
    const v = e[key];
    if (v === undefined) return absent;
    if (!isFiniteTuple(v, 3)) throw dropped(at(key), v, 'an array of 3 finite numbers');
    return [v[0], v[1], v[2]];
  };
  const transparentWithZWrite = e.transparentWithZWrite ?? false;
  if (typeof transparentWithZWrite !== 'boolean') throw dropped(at('transparentWithZWrite'), transparentWithZWrite, 'true or false');
  const queue = number('renderQueueOffsetNumber', 0);
  if (!Number.isInteger(queue)) throw dropped(at('renderQueueOffsetNumber'), queue, 'an integer');
  const outlineWidthMode = e.outlineWidthMode ?? 'none';
  if (!OUTLINE_WIDTH_MODES.includes(outlineWidthMode as OutlineWidthMode)) {
    throw dropped(at('outlineWidthMode'), outlineWidthMode, `one of ${OUTLINE_WIDTH_MODES.join(', ')}`);
  }

  const scalars = {
    transparentWithZWrite,
    renderQueueOffsetNumber: reading.alphaMode !== 'BLEND' ? 0 : transparentWithZWrite ? Math.min(Math.max(queue, 0), 9) : Math.min(Math.max(queue, -9), 0),
    shadeColorFactor: color('shadeColorFactor', [0, 0, 0]),
    shadingShiftFactor: number('shadingShiftFactor', 0),
    shadingToonyFactor: number('shadingToonyFactor', 0.9),
    giEqualizationFactor: number('giEqualizationFactor', 0.9),
    matcapFactor: color('matcapFactor', [1, 1, 1]),
    parametricRimColorFactor: color('parametricRimColorFactor', [0, 0, 0]),
    parametricRimFresnelPowerFactor: number('parametricRimFresnelPowerFactor', 5),
    parametricRimLiftFactor: number('parametricRimLiftFactor', 0),
    rimLightingMixFactor: number('rimLightingMixFactor', 1),
    outlineWidthMode: outlineWidthMode as OutlineWidthMode,
    outlineWidthFactor: Math.max(number('outlineWidthFactor', 0), 0),
    outlineColorFactor: color('outlineColorFactor', [0, 0, 0]),
    outlineLightingMixFactor: number('outlineLightingMixFactor', 1),
    uvAnimationScrollXSpeedFactor: number('uvAnimationScrollXSpeedFactor', 0),
    uvAnimationScrollYSpeedFactor: number('uvAnimationScrollYSpeedFactor', 0),
    uvAnimationRotationSpeedFactor: number('uvAnimationRotationSpeedFactor', 0),
  } as const;

  // Textures last, so that a dropped texture warns only when the rest of the material is well-formed.
  const textures: Partial<Record<MToonTextureKey, MaterialTexture>> = {};
  const dropWarnings: string[] = [];
  let shadingShiftTextureScale = 1;
  for (const key of MTOON_TEXTURE_KEYS) {
    const info = e[key];
    if (info === undefined) continue;
    if (!isJsonObject(info)) throw dropped(at(key), info, 'a textureInfo object');
    if (key === 'shadingShiftTexture') {
      const scale = info.scale ?? 1;
      if (typeof scale !== 'number' || !Number.isFinite(scale)) throw dropped(`${at(key)}/scale`, scale, 'a finite number');
      shadingShiftTextureScale = scale;
    }
    if (!isIndex(info.index, reading.textureCount)) {
      dropWarnings.push(`${reading.fileName}: ${at(key)}/index is ${quoteValue(info.index)}, not a texture index (the file has ${reading.textureCount}); ${label}'s ${key} is left out`);
      continue;
    }
    const texture = reading.readTexture(info, at(key), `${label}'s MToon ${key}`);
    if (texture) textures[key] = texture;
  }
  const mtoon: MToonMaterialAsset = {
    ...scalars,
    shadingShiftTextureScale,
    ...textures,
    ...(reading.v0CompatShade ? { v0CompatShade: true } : {}),
  };
  reading.warnings.push(...dropWarnings);
  return mtoon;
}
