import type { ImageAsset, MaterialAsset, ModelAsset } from '../../asset/model-asset.ts';
import type { TextureCoordinates, TextureSampler } from '../../asset/material-texture.ts';
import type { MToonMaterialAsset } from '../../asset/mtoon-material-asset.ts';
import { decodeImage, ImageTexture, isBrowserDecodable, isKtx2MimeType, textureKey, WhiteTexture, type DecodedLevels } from '../device/texture.ts';
import { alphaModeOf, type AlphaMode } from './alpha-mode.ts';

/**
 * Texture indices of a material, in the order of lit.frag's `u_uvSet` / `u_uvTransform`: the glTF five, then
 * MToon's six (VRMC_materials_mtoon; only an MToon material has them).
 */
export const MaterialTextureIndex = {
  BaseColor: 0, MetallicRoughness: 1, Normal: 2, Occlusion: 3, Emissive: 4,
  ShadeMultiply: 5, ShadingShift: 6, Matcap: 7, RimMultiply: 8, OutlineWidthMultiply: 9, UvAnimationMask: 10,
} as const;
/** One of the {@link MaterialTextureIndex} values. */
export type MaterialTextureIndex = (typeof MaterialTextureIndex)[keyof typeof MaterialTextureIndex];
/** Number of {@link MaterialTextureIndex} entries. */
export const MATERIAL_TEXTURES = 11;
/** Number of the glTF core textures (the first {@link MaterialTextureIndex} entries): what a PBR material binds. */
export const GLTF_MATERIAL_TEXTURES = 5;

/**
 * The GPU side of a {@link MToonMaterialAsset}: lit.frag's MToon uniform values (`u_shadeColorFactor` …,
 * shaders/mtoon.glsl), colours linear RGB `Float32Array(3)`. The UV animation's speeds are kept as they are:
 * the draw turns them into `u_uvAnimation` phases with the item's `materialTime`.
 */
export interface GpuMToonMaterial {
  readonly shadeColorFactor: Float32Array;
  readonly shadingShiftFactor: number;
  readonly shadingShiftTextureScale: number;
  readonly shadingToonyFactor: number;
  readonly giEqualizationFactor: number;
  readonly matcapFactor: Float32Array;
  readonly parametricRimColorFactor: Float32Array;
  readonly parametricRimFresnelPowerFactor: number;
  readonly parametricRimLiftFactor: number;
  readonly rimLightingMixFactor: number;
  readonly outlineColorFactor: Float32Array;
  readonly outlineLightingMixFactor: number;
  /** Metres or a share of the screen height ({@link outlineWidthMode}). */
  readonly outlineWidthFactor: number;
  /** `u_outlineWidthMode`: 0 none, 1 worldCoordinates, 2 screenCoordinates. */
  readonly outlineWidthMode: 0 | 1 | 2;
  /** UV units per second (u, v) and radians per second. */
  readonly uvAnimationScrollXSpeed: number;
  readonly uvAnimationScrollYSpeed: number;
  readonly uvAnimationRotationSpeed: number;
  /** `u_v0CompatShade`: converted from VRM 0.x, the direct light's result clamped to the lit colour. */
  readonly v0CompatShade: boolean;
}
/** The GPU side of one material: the values of lit.frag's material uniforms. */
export interface GpuMaterial {
  /** Linear RGBA. */
  readonly baseColorFactor: Float32Array;
  /** MToon's uniform values when the material is VRMC_materials_mtoon (`MaterialAsset.mtoon`), else null. */
  readonly mtoon: GpuMToonMaterial | null;
  /** Index into `ModelTextures.slots` of the base colour texture, or −1 (= `textures[0]`). */
  readonly image: number;
  /**
   * `Int32Array(11)`: per {@link MaterialTextureIndex}, the index into `ModelTextures.slots` (a texture slot:
   * one image with one sampler and colour space), or −1.
   */
  readonly textures: Int32Array;
  /** `Int32Array(11)`: `u_uvSet`, the UV set (0, 1) of each texture. */
  readonly uvSets: Int32Array;
  /** `Float32Array(99)`: `u_uvTransform`, eleven column-major 3×3 KHR_texture_transform matrices. */
  readonly uvTransforms: Float32Array;
  readonly metallicFactor: number;
  readonly roughnessFactor: number;
  readonly normalScale: number;
  readonly occlusionStrength: number;
  /** `Float32Array(3)`: emissive factor × KHR_materials_emissive_strength, linear. */
  readonly emissive: Float32Array;
  /** `u_alphaMode` (glTF 2.0 §3.9.4). */
  readonly alphaMode: AlphaMode;
  readonly alphaCutoff: number;
  readonly unlit: boolean;
  readonly doubleSided: boolean;
}

/** A texture slot: one image with the sampler of the materials that use it, in one colour space. */
export interface TextureSlot {
  /** Index into the asset's `images`. */
  readonly image: number;
  readonly sampler: TextureSampler | undefined;
  readonly srgb: boolean;
}

/**
 * A model's materials on the GPU: lit.frag's uniform values per material ({@link GpuMaterial}), a texture
 * per slot ({@link TextureSlot}: an image with a sampler and colour space; equal slots share one texture),
 * decoded asynchronously (white until {@link ready} settles; undecodable formats stay white and are listed in
 * {@link errors}), and a 1×1 white texture. Textures are {@link ImageTexture}s: a context restore decodes the
 * asset's image again, nothing decoded is kept. Freed by {@link dispose}.
 */
export class ModelTextures {
  readonly materials: readonly GpuMaterial[];
  readonly slots: readonly TextureSlot[];
  readonly white: WhiteTexture;
  /** Settles when every decodable image is decoded and uploaded (or failed; see `errors`). */
  readonly ready: Promise<void>;
  /** Why images could not be used (undecodable type, decode failure), each naming the model and image. */
  readonly errors: string[] = [];
  /** Per slot, its texture once its image is decoded, else null. */
  private readonly textures: (ImageTexture | null)[];
  private disposed = false;

  /** @throws Error when the white texture cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext, private readonly asset: ModelAsset) {
    this.white = new WhiteTexture(gl);
    const slots: TextureSlot[] = [];
    const slotOf = new Map<string, number>();
    const slot = (image: number, sampler: TextureSampler | undefined, srgb: boolean): number => {
      if (image < 0) return -1;
      const key = textureKey(image, sampler, srgb);
      const index = slotOf.get(key) ?? slots.push({ image, sampler, srgb }) - 1;
      slotOf.set(key, index);
      return index;
    };
    this.materials = asset.materials.map((m) => gpuMaterial(m, slot));
    this.slots = slots;
    this.textures = slots.map(() => null);
    this.ready = this.load();
  }

  /** The texture of slot `slot` as it is now, or null while it is not uploaded (or has none). */
  texture(slot: number): WebGLTexture | null {
    const texture = slot >= 0 ? this.textures[slot] : null;
    return texture && texture.isUploaded ? texture.handle : null;
  }

  /** Deletes every texture. Idempotent; textures decoded later are dropped. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const t of this.textures) t?.dispose();
    this.textures.fill(null);
    this.white.dispose();
  }

  private async load(): Promise<void> {
    const used = new Set<number>();
    for (const slot of this.slots) used.add(slot.image);
    await Promise.all([...used].map(async (index) => {
      const image = this.asset.images[index];
      if (!image) {
        this.errors.push(`${this.asset.name}: material refers to image ${index}, which does not exist`);
        return;
      }
      const ktx2 = isKtx2MimeType(image.mimeType);
      if (!ktx2 && !isBrowserDecodable(image.mimeType)) {
        this.errors.push(`${this.asset.name}: image "${image.name}" (${image.mimeType}) is not a format Sinew decodes; drawn white`);
        return;
      }
      const decode = ktx2 ? () => this.decodeKtx2(image) : () => decodeImage(image, this.asset.name);
      await Promise.all(this.slots.map(async (slot, i) => {
        if (slot.image !== index || this.disposed) return;
        const texture = new ImageTexture(this.gl, { decode, sampler: slot.sampler, srgb: slot.srgb, label: `${this.asset.name}: image "${image.name}"` });
        try {
          await texture.ready;
        } catch (error) {
          texture.dispose();
          if (!this.errors.includes((error as Error).message)) this.errors.push((error as Error).message);
          return;
        }
        if (this.disposed) texture.dispose();
        else this.textures[i] = texture;
      }));
    }));
  }

  /**
   * Transcodes a KTX2 image (KHR_texture_basisu). The transcoder (ktx2-texture.ts, WebAssembly) is imported
   * here, on first need, so models without KTX2 never load it.
   */
  private async decodeKtx2(image: ImageAsset): Promise<DecodedLevels> {
    const { decodeKtx2 } = await import('../device/ktx2-texture.ts');
    return decodeKtx2(image, this.asset.name);
  }
}


/**
 * lit.frag's uniform values for a material, its textures registered through `slot(image, sampler, srgb)`
 * (base colour and emissive sRGB, the others linear). Absent optional fields take the defaults documented on
 * {@link MaterialAsset}.
 */
function gpuMaterial(m: MaterialAsset, slot: (image: number, sampler: TextureSampler | undefined, srgb: boolean) => number): GpuMaterial {
  const textures = new Int32Array(MATERIAL_TEXTURES).fill(-1);
  const uvSets = new Int32Array(MATERIAL_TEXTURES);
  const uvTransforms = new Float32Array(9 * MATERIAL_TEXTURES);
  const use = (which: MaterialTextureIndex, image: number, sampler: TextureSampler | undefined, srgb: boolean, uv: TextureCoordinates | undefined) => {
    textures[which] = slot(image, sampler, srgb);
    uvSets[which] = uv?.texCoord ?? 0;
    writeUvTransform(uvTransforms, 9 * which, uv);
  };
  use(MaterialTextureIndex.BaseColor, m.baseColorTexture, m.baseColorSampler, true, m.baseColorUv);
  const others = [
    [MaterialTextureIndex.MetallicRoughness, m.metallicRoughnessTexture, false],
    [MaterialTextureIndex.Normal, m.normalTexture, false],
    [MaterialTextureIndex.Occlusion, m.occlusionTexture, false],
    [MaterialTextureIndex.Emissive, m.emissiveTexture, true],
  ] as const;
  for (const [which, texture, srgb] of others) use(which, texture?.image ?? -1, texture?.sampler, srgb, texture);
  for (let t = GLTF_MATERIAL_TEXTURES; t < MATERIAL_TEXTURES; t++) writeUvTransform(uvTransforms, 9 * t, undefined);
  const mtoon = m.mtoon;
  if (mtoon) {
    // VRMC_materials_mtoon-1.0 README: shade multiply, matcap and rim multiply are sRGB; the masks linear.
    const textures = [
      [MaterialTextureIndex.ShadeMultiply, mtoon.shadeMultiplyTexture, true],
      [MaterialTextureIndex.ShadingShift, mtoon.shadingShiftTexture, false],
      [MaterialTextureIndex.Matcap, mtoon.matcapTexture, true],
      [MaterialTextureIndex.RimMultiply, mtoon.rimMultiplyTexture, true],
      [MaterialTextureIndex.OutlineWidthMultiply, mtoon.outlineWidthMultiplyTexture, false],
      [MaterialTextureIndex.UvAnimationMask, mtoon.uvAnimationMaskTexture, false],
    ] as const;
    for (const [which, texture, srgb] of textures) use(which, texture?.image ?? -1, texture?.sampler, srgb, texture);
  }
  const strength = m.emissiveStrength ?? 1;
  const [er, eg, eb] = m.emissiveFactor ?? [0, 0, 0];
  return {
    mtoon: mtoon ? gpuMToonMaterial(mtoon) : null,
    baseColorFactor: new Float32Array(m.baseColorFactor),
    image: textures[MaterialTextureIndex.BaseColor],
    textures,
    uvSets,
    uvTransforms,
    metallicFactor: m.metallicFactor ?? 0,
    roughnessFactor: m.roughnessFactor ?? 1,
    normalScale: m.normalScale ?? 1,
    occlusionStrength: m.occlusionStrength ?? 1,
    emissive: new Float32Array([er * strength, eg * strength, eb * strength]),
    alphaMode: alphaModeOf(m.alphaMode),
    alphaCutoff: m.alphaCutoff ?? 0.5,
    unlit: m.unlit === true && !mtoon,
    doubleSided: m.doubleSided,
  };
}

/** lit.frag's MToon uniform values for `mtoon` (see {@link GpuMToonMaterial}). */
function gpuMToonMaterial(mtoon: MToonMaterialAsset): GpuMToonMaterial {
  return {
    shadeColorFactor: new Float32Array(mtoon.shadeColorFactor),
    shadingShiftFactor: mtoon.shadingShiftFactor,
    shadingShiftTextureScale: mtoon.shadingShiftTextureScale,
    shadingToonyFactor: mtoon.shadingToonyFactor,
    giEqualizationFactor: mtoon.giEqualizationFactor,
    matcapFactor: new Float32Array(mtoon.matcapFactor),
    parametricRimColorFactor: new Float32Array(mtoon.parametricRimColorFactor),
    parametricRimFresnelPowerFactor: mtoon.parametricRimFresnelPowerFactor,
    parametricRimLiftFactor: mtoon.parametricRimLiftFactor,
    rimLightingMixFactor: mtoon.rimLightingMixFactor,
    outlineColorFactor: new Float32Array(mtoon.outlineColorFactor),
    outlineLightingMixFactor: mtoon.outlineLightingMixFactor,
    outlineWidthFactor: mtoon.outlineWidthFactor,
    outlineWidthMode: mtoon.outlineWidthMode === 'worldCoordinates' ? 1 : mtoon.outlineWidthMode === 'screenCoordinates' ? 2 : 0,
    uvAnimationScrollXSpeed: mtoon.uvAnimationScrollXSpeedFactor,
    uvAnimationScrollYSpeed: mtoon.uvAnimationScrollYSpeedFactor,
    uvAnimationRotationSpeed: mtoon.uvAnimationRotationSpeedFactor,
    v0CompatShade: mtoon.v0CompatShade === true,
  };
}

/**
 * One phase of MToon's `u_uvAnimation`: `speed × time` wrapped into [0, period) (scroll: period 1 UV unit;
 * rotation: 2π radians) (VRMC_materials_mtoon-1.0 README, "UV Animation"), in double precision so the shader's
 * f32 stays exact over hours. Under a mask of 0 or 1 (the usual) the wrap is invisible on a repeating texture;
 * a fractional mask jumps once per period.
 * @param speed UV units or radians per second
 * @param timeSeconds the item's material time
 */
export function uvAnimationPhase(speed: number, timeSeconds: number, period: number): number {
  const phase = speed * timeSeconds;
  return phase - Math.floor(phase / period) * period;
}

/**
 * Writes the column-major 3×3 KHR_texture_transform matrix T(offset)·R(rotation)·S(scale) at `out[o…o+9)`
 * (identity without a transform). R has rows (cos r, sin r) and (−sin r, cos r): the UVs turn counter-clockwise
 * as seen with v downward, as the extension's prose and example have it (tests/unit/gpu/skinning/uv-transform.test.ts
 * holds it against both) and the Khronos glTF Sample Viewer and three.js apply it.
 */
export function writeUvTransform(out: Float32Array, o: number, uv: TextureCoordinates | undefined): void {
  const t = uv?.transform;
  const [ox, oy] = t?.offset ?? [0, 0];
  const [sx, sy] = t?.scale ?? [1, 1];
  writeUvMatrix(out, o, ox, oy, t?.rotation ?? 0, sx, sy);
}

/**
 * Writes the column-major 3×3 matrix T(offset)·R(rotation)·S(scale) of {@link writeUvTransform} at `out[o…o+9)`
 * from its parts: offset (ox, oy), rotation in radians, scale (sx, sy). Allocates nothing.
 */
export function writeUvMatrix(out: Float32Array, o: number, ox: number, oy: number, rotation: number, sx: number, sy: number): void {
  const c = Math.cos(rotation), s = Math.sin(rotation);
  out[o] = c * sx; out[o + 1] = -s * sx; out[o + 2] = 0;
  out[o + 3] = s * sy; out[o + 4] = c * sy; out[o + 5] = 0;
  out[o + 6] = ox; out[o + 7] = oy; out[o + 8] = 1;
}
