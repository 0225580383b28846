import type { ModelAsset } from '../../asset/model-asset.ts';
import { MaterialTextureIndex, type GpuModel, type GpuPrimitive } from '../skinning/gpu-model.ts';
import { MaterialFeature } from '../skinning/shader-variant.ts';
import type { SkinningProgram } from '../skinning/program-cache.ts';
import type { FoldedCamera } from './folded-camera.ts';

/** skinned.vert's `u_outlineWidthMode`: 0 no outline, 1 `worldCoordinates`, 2 `screenCoordinates`. */
export const OutlineWidthModeCode = { None: 0, World: 1, Screen: 2 } as const;
/** One of the {@link OutlineWidthModeCode} values. */
export type OutlineWidthModeCode = (typeof OutlineWidthModeCode)[keyof typeof OutlineWidthModeCode];

/**
 * The outline of material `material` of `asset` as skinned.vert's `u_outlineWidthMode` ({@link OutlineWidthModeCode}):
 * 0 when the material has no MToon outline — not MToon, `outlineWidthMode` `none`, or a width factor that is not
 * above 0 (three-vrm makes no outline material then either) — or the index is out of range. Allocates nothing.
 */
export function outlineModeOf(asset: ModelAsset, material: number): OutlineWidthModeCode {
  const mtoon = material >= 0 && material < asset.materials.length ? asset.materials[material].mtoon : undefined;
  if (!mtoon || !(mtoon.outlineWidthFactor > 0)) return OutlineWidthModeCode.None;
  if (mtoon.outlineWidthMode === 'worldCoordinates') return OutlineWidthModeCode.World;
  return mtoon.outlineWidthMode === 'screenCoordinates' ? OutlineWidthModeCode.Screen : OutlineWidthModeCode.None;
}

/** Whether any material of `asset` draws an outline ({@link outlineModeOf}): a view then skins the model once per frame. */
export function hasOutlines(asset: ModelAsset): boolean {
  for (let m = 0; m < asset.materials.length; m++) if (outlineModeOf(asset, m) !== OutlineWidthModeCode.None) return true;
  return false;
}

/**
 * The {@link MaterialFeature} bits an outline draw of `primitive` adds to its material's: `Outline`, and
 * `OutlineWidthMap` when its material's width multiply texture is there to sample (decoded, and the primitive has
 * texture coordinates); without one the width is constant (VRMC_materials_mtoon-1.0 README
 * "outlineWidthMultiplyTexture": "If it is not assigned, the value of outlineWidthFactor is used directly").
 */
export function outlineFeatures(gpuModel: GpuModel, primitive: GpuPrimitive): number {
  const texture = gpuModel.materialTexture(primitive.asset.material, MaterialTextureIndex.OutlineWidthMultiply, primitive.hasUvs);
  return texture === gpuModel.whiteTexture ? MaterialFeature.Outline : MaterialFeature.Outline | MaterialFeature.OutlineWidthMap;
}

/** Locations of the outline uniforms of skinned.vert (`MTOON_OUTLINE` variants) in one linked program. */
interface OutlineLocations {
  readonly mode: WebGLUniformLocation | null;
  readonly width: WebGLUniformLocation | null;
  readonly projectionY: WebGLUniformLocation | null;
  readonly uvSet: WebGLUniformLocation | null;
  readonly uvTransform: WebGLUniformLocation | null;
}

/**
 * Sets skinned.vert's outline uniforms (`u_outlineWidthMode`, `u_outlineWidthFactor`, `u_outlineProjectionY`, and
 * the width texture's `u_outlineWidthUvSet` and `u_outlineWidthUvTransform`: its UV set and KHR_texture_transform as
 * loaded; the texture itself is bound with the material) for an outline draw. The width texture's coordinates are
 * not UV-animated and not moved by expressions' texture transform binds: three-vrm's vertex shader reads it at the
 * mesh's own UV through its transform alone, where the specification lists it among the UV-animated textures;
 * Sinew follows three-vrm, so the two draw the same outline. Locations are looked up once per linked program (a context restore links a new one) and
 * kept by the program object, so binding allocates nothing after a program's first outline draw. One per
 * {@link PrimitiveDraw}; the fragment side (outline colour and lighting mix) is bound with the material.
 */
export class OutlineBinding {
  private readonly locations = new WeakMap<WebGLProgram, OutlineLocations>();

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Binds the outline of `primitive`'s material for `program` (in use, an `MTOON_OUTLINE` variant) under
   * `camera`. Nothing for a material without an outline.
   */
  bind(program: SkinningProgram, gpuModel: GpuModel, primitive: GpuPrimitive, camera: FoldedCamera): void {
    const gl = this.gl;
    const material = primitive.asset.material;
    const mode = outlineModeOf(gpuModel.asset, material);
    if (mode === OutlineWidthModeCode.None) return;
    let at = this.locations.get(program.program);
    if (!at) {
      at = {
        mode: gl.getUniformLocation(program.program, 'u_outlineWidthMode'),
        width: gl.getUniformLocation(program.program, 'u_outlineWidthFactor'),
        projectionY: gl.getUniformLocation(program.program, 'u_outlineProjectionY'),
        uvSet: gl.getUniformLocation(program.program, 'u_outlineWidthUvSet'),
        uvTransform: gl.getUniformLocation(program.program, 'u_outlineWidthUvTransform'),
      };
      this.locations.set(program.program, at);
    }
    gl.uniform1i(at.mode, mode);
    gl.uniform1f(at.width, gpuModel.asset.materials[material].mtoon!.outlineWidthFactor);
    gl.uniform1f(at.projectionY, camera.projectionY);
    if (at.uvSet !== null) {
      const gpuMaterial = gpuModel.materials[material];
      const t = MaterialTextureIndex.OutlineWidthMultiply;
      gl.uniform1i(at.uvSet, gpuMaterial.uvSets[t]);
      gl.uniformMatrix3fv(at.uvTransform, false, gpuMaterial.uvTransforms, 9 * t, 9);
    }
  }
}
