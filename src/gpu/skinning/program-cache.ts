import vertexSource from '../../../shaders/skinned.vert?raw';
import fragmentSource from '../../../shaders/lit.frag?raw';
import { withToneMapping } from '../shading/tone-mapping.ts';
import { withMToon } from '../shading/mtoon-shader.ts';
import weightsFragmentSource from '../../../shaders/debug-weights.frag?raw';
import { insertDefines, ShaderProgram } from '../device/shader-program.ts';
import { PALETTE_BLOCK_BINDING } from './palette-buffer.ts';
import {
  CAPTURED_VARYINGS, createShaderVariant, featureDefines, normalizeShaderVariant, variantDefines, variantId, variantKey, type ShaderVariant,
} from './shader-variant.ts';

/** lit.frag with shaders/tone-mapping.glsl and shaders/mtoon.glsl in place. */
const LIT_FRAGMENT = withMToon(withToneMapping(fragmentSource));

/**
 * A linked skinned/rigid program and the locations of its uniforms (null when the variant lacks one), read
 * again whenever the program is linked again (a context restore): hold the object, not its fields.
 */
export interface SkinningProgram {
  readonly key: string;
  /** The program in the context as it is now. */
  readonly program: WebGLProgram;
  readonly u_toDisplay: WebGLUniformLocation | null;
  readonly u_normalMatrix: WebGLUniformLocation | null;
  readonly u_viewProjection: WebGLUniformLocation | null;
  /** `u_origin`: the model origin the palette is relative to (skinned variants). */
  readonly u_origin: WebGLUniformLocation | null;
  /** `u_joints[0]` (uniform palette path). */
  readonly u_joints: WebGLUniformLocation | null;
  /** Index of the `Palette` uniform block (ubo palette path), or `INVALID_INDEX`. */
  readonly paletteBlock: number;
  readonly u_jointTexture: WebGLUniformLocation | null;
  /** `u_overflowTexture` (`INFLUENCE_OVERFLOW` variants). */
  readonly u_overflowTexture: WebGLUniformLocation | null;
  readonly u_baseColorFactor: WebGLUniformLocation | null;
  /** `u_flatShading`: face normals for primitives whose file gave none (PrimitiveAsset.flatShading). */
  readonly u_flatShading: WebGLUniformLocation | null;
  readonly u_baseColorTexture: WebGLUniformLocation | null;
  readonly u_eye: WebGLUniformLocation | null;
  /**
   * Instanced variants: `u_blockTexels`, `u_skinOffset`, `u_instanceBase` (the block of `gl_InstanceID` 0),
   * and the sampler `u_instanceTexture`.
   */
  readonly u_blockTexels: WebGLUniformLocation | null;
  readonly u_instanceBase: WebGLUniformLocation | null;
  /** Instanced `MORPH_TARGETS` variants: the first texel of the mesh instance's morph weights in the pose. */
  readonly u_morphWeights: WebGLUniformLocation | null;
  readonly u_skinOffset: WebGLUniformLocation | null;
  /** `MORPH_TARGETS` variants: the active-target count and the deltas layout (src/gpu/skinning/morph-texture.ts). */
  readonly u_morphActiveCount: WebGLUniformLocation | null;
  readonly u_morphLayout: WebGLUniformLocation | null;
  /** Material uniforms of lit.frag (see {@link GpuMaterial} in gpu-model.ts for their values). */
  readonly u_metallicFactor: WebGLUniformLocation | null;
  readonly u_roughnessFactor: WebGLUniformLocation | null;
  readonly u_normalScale: WebGLUniformLocation | null;
  readonly u_occlusionStrength: WebGLUniformLocation | null;
  readonly u_emissive: WebGLUniformLocation | null;
  readonly u_alphaMode: WebGLUniformLocation | null;
  readonly u_alphaCutoff: WebGLUniformLocation | null;
  /** `u_uvSet[0]`: 5 ints. */
  readonly u_uvSet: WebGLUniformLocation | null;
  /** `u_uvTransform[0]`: 5 mat3. */
  readonly u_uvTransform: WebGLUniformLocation | null;
  readonly u_specularLevels: WebGLUniformLocation | null;
  /**
   * MToon uniforms of lit.frag (`MTOON` variants; shaders/mtoon.glsl; values in `GpuMToonMaterial`):
   * null in every other variant.
   */
  readonly u_shadeColorFactor: WebGLUniformLocation | null;
  readonly u_shadingShiftFactor: WebGLUniformLocation | null;
  readonly u_shadingShiftTextureScale: WebGLUniformLocation | null;
  readonly u_shadingToonyFactor: WebGLUniformLocation | null;
  readonly u_giEqualizationFactor: WebGLUniformLocation | null;
  readonly u_matcapFactor: WebGLUniformLocation | null;
  readonly u_parametricRimColorFactor: WebGLUniformLocation | null;
  readonly u_parametricRimFresnelPowerFactor: WebGLUniformLocation | null;
  readonly u_parametricRimLiftFactor: WebGLUniformLocation | null;
  readonly u_rimLightingMixFactor: WebGLUniformLocation | null;
  readonly u_outlineColorFactor: WebGLUniformLocation | null;
  readonly u_outlineLightingMixFactor: WebGLUniformLocation | null;
  /** `u_uvAnimation`: scroll x, scroll y (UV units, mod 1), rotation phase (radians, mod 2π). */
  readonly u_uvAnimation: WebGLUniformLocation | null;
  readonly u_v0CompatShade: WebGLUniformLocation | null;
  /** The environment's key light and ambient (`ImageBasedLighting.light`): `u_keyLightDirection`, `u_keyLightColor`, `u_ambientSh[0]` (9 vec3). */
  readonly u_keyLightDirection: WebGLUniformLocation | null;
  readonly u_keyLightColor: WebGLUniformLocation | null;
  readonly u_ambientSh: WebGLUniformLocation | null;
  /** lit.frag's `u_exposure` and `u_toneMapping` (shaders/tone-mapping.glsl): 1 and neutral until the renderer sets them. */
  readonly u_exposure: WebGLUniformLocation | null;
  readonly u_toneMapping: WebGLUniformLocation | null;
  /** `u_weightJoint` (`WEIGHT_VIEW` variants): skin-local index of the joint shown, −1 for none. */
  readonly u_weightJoint: WebGLUniformLocation | null;
  /** `u_weightMode` (`WEIGHT_VIEW` variants): 0 weight heat map, 1 influence count. */
  readonly u_weightMode: WebGLUniformLocation | null;
}

/** Texture unit of the base colour texture. */
export const BASE_COLOR_UNIT = 0;
/** Texture unit of the palette texture. */
export const PALETTE_UNIT = 1;
/** Texture unit of a primitive's influence overflow texture (src/gpu/skinning/influence-overflow.ts). */
export const OVERFLOW_UNIT = 2;
/** Texture unit of the instance blocks (instanced variants; high, clear of the material units). */
export const INSTANCE_UNIT = 14;
/** Texture unit of the baked palettes (baked mode's blend in the crowd's pass, src/crowd/gpu/instance-prepass.ts). */
export const BAKED_UNIT = 15;
/** Texture units of a primitive's morph deltas and of the model's active-target list (src/gpu/skinning/morph-texture.ts); high, out of the material units' way. */
export const MORPH_DELTAS_UNIT = 12;
export const MORPH_ACTIVE_UNIT = 13;
/** Texture units of the material's other textures (lit.frag). */
export const METALLIC_ROUGHNESS_UNIT = 4;
export const NORMAL_UNIT = 5;
export const OCCLUSION_UNIT = 6;
export const EMISSIVE_UNIT = 7;
/** Texture units of the image-based lighting (src/gpu/shading/image-based-lighting.ts). */
export const SPECULAR_ENVIRONMENT_UNIT = 8;
export const DIFFUSE_ENVIRONMENT_UNIT = 9;
export const BRDF_LUT_UNIT = 10;
/**
 * Texture units of MToon's textures (VRMC_materials_mtoon; `MaterialTextureIndex` 5–10), above every other unit
 * (WebGL 2 guarantees 32 combined units; a shader uses far fewer than 16 of them at once).
 */
export const SHADE_MULTIPLY_UNIT = 16;
export const SHADING_SHIFT_UNIT = 17;
export const MATCAP_UNIT = 18;
export const RIM_MULTIPLY_UNIT = 19;
export const OUTLINE_WIDTH_MULTIPLY_UNIT = 20;
export const UV_ANIMATION_MASK_UNIT = 21;

/** Each sampler uniform of skinned.vert + lit.frag and its fixed unit. */
const SAMPLER_UNITS: readonly (readonly [string, number])[] = [
  ['u_baseColorTexture', BASE_COLOR_UNIT], ['u_jointTexture', PALETTE_UNIT], ['u_overflowTexture', OVERFLOW_UNIT],
  ['u_metallicRoughnessTexture', METALLIC_ROUGHNESS_UNIT], ['u_normalTexture', NORMAL_UNIT],
  ['u_occlusionTexture', OCCLUSION_UNIT], ['u_emissiveTexture', EMISSIVE_UNIT],
  ['u_specularEnvironment', SPECULAR_ENVIRONMENT_UNIT], ['u_diffuseEnvironment', DIFFUSE_ENVIRONMENT_UNIT], ['u_brdfLut', BRDF_LUT_UNIT],
  ['u_instanceTexture', INSTANCE_UNIT],
  ['u_morphDeltas', MORPH_DELTAS_UNIT], ['u_morphActive', MORPH_ACTIVE_UNIT],
  ['u_shadeMultiplyTexture', SHADE_MULTIPLY_UNIT], ['u_shadingShiftTexture', SHADING_SHIFT_UNIT], ['u_matcapTexture', MATCAP_UNIT],
  ['u_rimMultiplyTexture', RIM_MULTIPLY_UNIT], ['u_outlineWidthMultiplyTexture', OUTLINE_WIDTH_MULTIPLY_UNIT],
  ['u_uvAnimationMaskTexture', UV_ANIMATION_MASK_UNIT],
];

/**
 * Compiles each {@link ShaderVariant} of `shaders/skinned.vert` + `shaders/lit.frag` once, on first use, and
 * keeps it until {@link ProgramCache.dispose}. Sampler uniforms are bound to their fixed units at link time.
 */
export class ProgramCache {
  private readonly programs = new Map<number, { entry: SkinningProgram; resource: ShaderProgram }>();
  /** Scratch: the variant asked for, normalised. */
  private readonly normal = createShaderVariant();

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * The program for `variant` (see {@link ShaderVariant}), compiled now if needed. The variant is normalised
   * into the cache's own scratch first ({@link normalizeShaderVariant}: e.g. instanced reads the texture path,
   * material features are dropped with transform feedback), so fields a variant ignores never split the cache.
   * Allocates nothing once the variant exists (numeric key, {@link variantId}), so it is called per draw with
   * the caller's one reused variant.
   * @throws Error with the line-numbered log when the variant fails to compile or link
   */
  get(variant: ShaderVariant): SkinningProgram {
    const normal = normalizeShaderVariant(this.normal, variant);
    const id = variantId(normal);
    let built = this.programs.get(id);
    if (!built) {
      const kept: ShaderVariant = { ...normal };
      built = this.build(variantKey(kept), kept);
      this.programs.set(id, built);
    }
    return built.entry;
  }

  /** Number of programs held. */
  get size(): number {
    return this.programs.size;
  }

  /** Deletes every program. Idempotent; the cache can be used again afterwards. */
  dispose(): void {
    for (const { resource } of this.programs.values()) resource.dispose();
    this.programs.clear();
  }

  /**
   * Compiles the variant's program; each link (the first, and a context restore's: a {@link ShaderProgram}
   * re-links itself) reads the uniform locations into the one entry the cache hands out.
   */
  private build(key: string, variant: ShaderVariant): { entry: SkinningProgram; resource: ShaderProgram } {
    const gl = this.gl;
    const defines = variantDefines(variant);
    const entry = { key } as { -readonly [K in keyof SkinningProgram]: SkinningProgram[K] };
    const resource = new ShaderProgram(gl, {
      name: `skinned.vert+${variant.weightView ? 'debug-weights' : 'lit'}.frag [${key}]`,
      vertex: insertDefines(vertexSource, defines),
      fragment: variant.weightView ? weightsFragmentSource : insertDefines(LIT_FRAGMENT, featureDefines(variant.features ?? 0)),
      transformFeedbackVaryings: variant.transformFeedback ? CAPTURED_VARYINGS : undefined,
    }, (program) => linked(gl, program, entry));
    return { entry, resource };
  }
}

/** Reads `program`'s uniform locations into `entry` and sets its sampler units and block binding (it is bound). */
function linked(gl: WebGL2RenderingContext, program: WebGLProgram, entry: { -readonly [K in keyof SkinningProgram]: SkinningProgram[K] }): void {
  const at = (name: string) => gl.getUniformLocation(program, name);
  Object.assign(entry, {
    program,
    u_toDisplay: at('u_toDisplay'),
    u_normalMatrix: at('u_normalMatrix'),
    u_viewProjection: at('u_viewProjection'),
    u_origin: at('u_origin'),
    u_joints: at('u_joints[0]') ?? at('u_joints'),
    paletteBlock: gl.getUniformBlockIndex(program, 'Palette'),
    u_jointTexture: at('u_jointTexture'),
    u_overflowTexture: at('u_overflowTexture'),
    u_baseColorFactor: at('u_baseColorFactor'),
    u_baseColorTexture: at('u_baseColorTexture'),
    u_eye: at('u_eye'),
    u_flatShading: at('u_flatShading'),
    u_blockTexels: at('u_blockTexels'),
    u_instanceBase: at('u_instanceBase'),
    u_morphWeights: at('u_morphWeights'),
    u_skinOffset: at('u_skinOffset'),
    u_morphActiveCount: at('u_morphActiveCount'),
    u_morphLayout: at('u_morphLayout'),
    u_metallicFactor: at('u_metallicFactor'),
    u_roughnessFactor: at('u_roughnessFactor'),
    u_normalScale: at('u_normalScale'),
    u_occlusionStrength: at('u_occlusionStrength'),
    u_emissive: at('u_emissive'),
    u_alphaMode: at('u_alphaMode'),
    u_alphaCutoff: at('u_alphaCutoff'),
    u_uvSet: at('u_uvSet[0]') ?? at('u_uvSet'),
    u_uvTransform: at('u_uvTransform[0]') ?? at('u_uvTransform'),
    u_specularLevels: at('u_specularLevels'),
    u_shadeColorFactor: at('u_shadeColorFactor'),
    u_shadingShiftFactor: at('u_shadingShiftFactor'),
    u_shadingShiftTextureScale: at('u_shadingShiftTextureScale'),
    u_shadingToonyFactor: at('u_shadingToonyFactor'),
    u_giEqualizationFactor: at('u_giEqualizationFactor'),
    u_matcapFactor: at('u_matcapFactor'),
    u_parametricRimColorFactor: at('u_parametricRimColorFactor'),
    u_parametricRimFresnelPowerFactor: at('u_parametricRimFresnelPowerFactor'),
    u_parametricRimLiftFactor: at('u_parametricRimLiftFactor'),
    u_rimLightingMixFactor: at('u_rimLightingMixFactor'),
    u_outlineColorFactor: at('u_outlineColorFactor'),
    u_outlineLightingMixFactor: at('u_outlineLightingMixFactor'),
    u_uvAnimation: at('u_uvAnimation'),
    u_v0CompatShade: at('u_v0CompatShade'),
    u_keyLightDirection: at('u_keyLightDirection'),
    u_keyLightColor: at('u_keyLightColor'),
    u_ambientSh: at('u_ambientSh[0]') ?? at('u_ambientSh'),
    u_exposure: at('u_exposure'),
    u_toneMapping: at('u_toneMapping'),
    u_weightJoint: at('u_weightJoint'),
    u_weightMode: at('u_weightMode'),
  });
  gl.uniform1f(entry.u_exposure, 1);
  gl.uniform1i(entry.u_toneMapping, 0);
  // Every sampler on its own unit: two sampler types on one unit would fail every draw.
  for (const [name, unit] of SAMPLER_UNITS) {
    const location = at(name);
    if (location) gl.uniform1i(location, unit);
  }
  if (entry.paletteBlock !== gl.INVALID_INDEX) gl.uniformBlockBinding(program, entry.paletteBlock, PALETTE_BLOCK_BINDING);
}
