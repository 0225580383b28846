import type { ModelAsset } from '../../asset/model-asset.ts';
import type { GpuModel, GpuPrimitive } from '../skinning/gpu-model.ts';
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

/** Locations of the outline uniforms of skinned.vert (`MTOON_OUTLINE` variants) in one linked program. */
interface OutlineLocations {
  readonly mode: WebGLUniformLocation | null;
  readonly width: WebGLUniformLocation | null;
  readonly projectionY: WebGLUniformLocation | null;
}

/**
 * Sets skinned.vert's outline uniforms (`u_outlineWidthMode`, `u_outlineWidthFactor`, `u_outlineProjectionY`)
 * for an outline draw. Locations are looked up once per linked program (a context restore links a new one) and
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
      };
      this.locations.set(program.program, at);
    }
    gl.uniform1i(at.mode, mode);
    gl.uniform1f(at.width, gpuModel.asset.materials[material].mtoon!.outlineWidthFactor);
    gl.uniform1f(at.projectionY, camera.projectionY);
  }
}
