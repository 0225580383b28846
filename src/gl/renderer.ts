import { mat3, mat4 } from 'gl-matrix';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { multiplyStrided } from '../math/strided-mat4.ts';
import { GpuModel, uploadModel } from './gpu-model.ts';
import { resolvePalettePath, uniformJointCapacity, type PalettePath } from './palette-path.ts';
import { uploadPaletteTexture } from './palette-texture.ts';
import { BASE_COLOR_UNIT, PALETTE_UNIT, ProgramCache, type SkinningProgram } from './program-cache.ts';

export type { PalettePath } from './palette-path.ts';
export { GpuModel } from './gpu-model.ts';

/** Renderer settings. */
export interface RendererOptions {
  /** Palette path: forced, or `'auto'` (default): uniform while the joints fit the vertex uniform budget. */
  palette?: PalettePath | 'auto';
  /** Called on `webglcontextlost` (after `preventDefault()`): stop drawing. */
  onContextLost?: () => void;
  /**
   * Called on `webglcontextrestored`, after the renderer rebuilt its programs: re-upload every model
   * (`renderer.upload(gpuModel.asset)`); models uploaded before the loss are stale and `draw` rejects them.
   */
  onContextRestored?: () => void;
}

/** Camera matrices, column-major, world space. */
export interface CameraMatrices {
  /** `Float32Array(16)`: world → view. */
  view: Float32Array;
  /** `Float32Array(16)`: view → clip. */
  projection: Float32Array;
  /** `Float32Array(3)`: camera position in world space (specular highlights). */
  eye: Float32Array;
}

const IDENTITY = mat4.create() as Float32Array;

/**
 * Draws skinned and rigid glTF/MD5 models with WebGL2: `shaders/skinned.vert` (LBS of 4 influences, docs/skinning-formulas.md S0;
 * palette as uniforms or an RGBA32F texture) and `shaders/lit.frag`. Programs are compiled per variant on
 * first use and cached. Owns only its programs; models are owned by the caller ({@link GpuModel.dispose}).
 * The palette request is the renderer's own ({@link RendererOptions.palette}) unless `upload` / `draw` are
 * given one, so views sharing a context (and its renderer) each keep theirs.
 *
 * Context loss: the renderer listens on `gl.canvas`; on loss it calls `preventDefault()`, stops drawing
 * (draw is a no-op) and calls `onContextLost`; on restore it forgets its programs (rebuilt lazily), bumps
 * its generation and calls `onContextRestored`. Frames allocate nothing.
 */
export class SkinnedRenderer {
  readonly gl: WebGL2RenderingContext;
  private readonly requested: PalettePath | 'auto';
  private readonly programs: ProgramCache;
  private maxVertexUniformVectors: number;
  private lost = false;
  private generationValue = 0;
  private disposed = false;
  private drawSerial = 0;
  private readonly viewProjection = new Float32Array(16);
  private readonly modelMatrix = new Float32Array(16);
  private readonly normalMatrix = new Float32Array(9);
  private readonly onLost: (event: Event) => void;
  private readonly onRestored: (event: Event) => void;
  private readonly canvas: EventTarget | null;

  /**
   * @throws Error when the context is lost already
   */
  constructor(gl: WebGL2RenderingContext, options: RendererOptions = {}) {
    if (gl.isContextLost()) throw new Error('SkinnedRenderer: the WebGL2 context is lost');
    this.gl = gl;
    this.requested = options.palette ?? 'auto';
    this.programs = new ProgramCache(gl);
    this.maxVertexUniformVectors = gl.getParameter(gl.MAX_VERTEX_UNIFORM_VECTORS) as number;
    this.onLost = (event) => {
      event.preventDefault();
      this.lost = true;
      options.onContextLost?.();
    };
    this.onRestored = () => {
      this.lost = false;
      this.generationValue++;
      this.programs.forget();
      this.maxVertexUniformVectors = gl.getParameter(gl.MAX_VERTEX_UNIFORM_VECTORS) as number;
      options.onContextRestored?.();
    };
    const canvas = gl.canvas as unknown as EventTarget;
    this.canvas = typeof canvas.addEventListener === 'function' ? canvas : null;
    this.canvas?.addEventListener('webglcontextlost', this.onLost);
    this.canvas?.addEventListener('webglcontextrestored', this.onRestored);
  }

  /** True between `webglcontextlost` and `webglcontextrestored`. */
  get contextLost(): boolean {
    return this.lost;
  }

  /** Bumped by each context restore; models carry the generation they were uploaded in. */
  get generation(): number {
    return this.generationValue;
  }

  /** `MAX_VERTEX_UNIFORM_VECTORS` of the context. */
  get vertexUniformVectors(): number {
    return this.maxVertexUniformVectors;
  }

  /**
   * Uploads the GPU side of a model. The promise resolves once its base colour textures are decoded and
   * uploaded (undecodable ones are drawn white and listed in `textureErrors`), so the first frame drawn with
   * it is complete; use `uploadModel` for geometry at once and textures as they arrive. The renderer keeps
   * no reference to the result; the caller disposes it. The model suits both palette paths.
   * @param palette the palette request it will be drawn with (default: the renderer's), checked here
   * @throws Error (rejects) when the context is lost, or the model's palette path is forced to uniform but
   *   does not fit
   */
  async upload(asset: ModelAsset, palette: PalettePath | 'auto' = this.requested): Promise<GpuModel> {
    if (this.lost || this.gl.isContextLost()) throw new Error(`${asset.name}: cannot upload, the WebGL2 context is lost`);
    this.palettePathFor(asset, palette);
    const model = uploadModel(this.gl, asset, this.generationValue);
    await model.texturesReady;
    return model;
  }

  /**
   * Palette path used for a model: the requested one, or for `'auto'` uniform when its largest skin fits
   * `4·joints + 16 ≤ MAX_VERTEX_UNIFORM_VECTORS`, else texture. Rigid-only models report the resolved choice
   * for 0 joints.
   * @param requested the request to resolve (default: the renderer's own, {@link RendererOptions.palette})
   * @throws Error when `'uniform'` is forced and the largest skin does not fit
   */
  palettePathFor(asset: ModelAsset, requested: PalettePath | 'auto' = this.requested): PalettePath {
    return resolvePalettePath(requested, maxSkinJoints(asset), this.maxVertexUniformVectors, asset.name);
  }

  /**
   * Binds the default framebuffer, sets the viewport to `width × height` at its bottom-left corner, clears
   * that rectangle only (colour: the sRGB value as given, default dark grey; and depth) and enables depth
   * testing. A drawing buffer larger than the viewport keeps its pixels outside it, so several views can
   * take turns in one canvas. No-op while the context is lost.
   */
  beginFrame(width: number, height: number, clearColor?: readonly [number, number, number, number]): void {
    if (this.lost) return;
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, width, height);
    if (clearColor) gl.clearColor(clearColor[0], clearColor[1], clearColor[2], clearColor[3]);
    else gl.clearColor(0.12, 0.12, 0.13, 1);
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
    gl.enable(gl.SCISSOR_TEST);
    gl.scissor(0, 0, width, height);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.disable(gl.SCISSOR_TEST);
  }

  /**
   * Draws every mesh instance of `model`: rigid primitives with `displayMatrix · animated.modelMatrices[joint]`,
   * skinned ones with the palette `animated.skinMatrices[instance.skin]` (world space) followed by
   * `displayMatrix`. Call `animated.evaluate(t)` first. No-op while the context is lost.
   * @param displayMatrix `Float32Array(16)`, column-major, re-orients the whole model (e.g. Z-up → Y-up)
   * @param palette palette request for this model (default: the renderer's), so that views sharing one
   *   renderer each keep their own
   * @throws Error when `model` is disposed, or was uploaded before a context restore (re-upload it), or a
   *   shader variant fails to build, or `palette` forces a uniform palette that does not fit
   */
  draw(model: GpuModel, animated: AnimatedModel, camera: CameraMatrices, displayMatrix?: Float32Array, palette: PalettePath | 'auto' = this.requested): void {
    if (this.lost) return;
    const asset = model.asset;
    if (model.isDisposed) throw new Error(`${asset.name}: draw of a disposed GpuModel`);
    if (model.generation !== this.generationValue) {
      throw new Error(`${asset.name}: GpuModel was uploaded before the WebGL2 context was restored; upload its asset again`);
    }
    const gl = this.gl;
    const display = displayMatrix ?? IDENTITY;
    const path = this.palettePathFor(asset, palette);
    const serial = ++this.drawSerial;
    mat4.multiply(this.viewProjection, camera.projection, camera.view);
    let current: SkinningProgram | null = null;
    const instances = asset.meshInstances;
    for (let i = 0; i < instances.length; i++) {
      const instance = instances[i];
      const primitives = model.meshes[instance.mesh];
      const skin = instance.skin;
      for (let p = 0; p < primitives.length; p++) {
        const primitive = primitives[p];
        const skinned = skin >= 0 && primitive.skinned;
        const jointCount = skinned ? asset.skins[skin].joints.length : 0;
        const program = this.programs.get(skinned, path, uniformJointCapacity(jointCount, this.maxVertexUniformVectors), false);
        if (program !== current) {
          current = program;
          gl.useProgram(program.program);
          gl.uniformMatrix4fv(program.u_viewProjection, false, this.viewProjection);
          gl.uniform3fv(program.u_eye, camera.eye);
        }
        // Per-instance matrices (recomputed per primitive: a program switch may sit between them).
        if (skinned) this.modelMatrix.set(display);
        else multiplyStrided(this.modelMatrix, 0, display, 0, animated.modelMatrices, 16 * instance.joint);
        if (!mat3.normalFromMat4(this.normalMatrix, this.modelMatrix)) mat3.identity(this.normalMatrix);
        gl.uniformMatrix4fv(program.u_model, false, this.modelMatrix);
        gl.uniformMatrix3fv(program.u_normalMatrix, false, this.normalMatrix);
        if (skinned) {
          const palette = animated.skinMatrices[skin];
          if (path === 'uniform') {
            gl.uniformMatrix4fv(program.u_joints, false, palette, 0, 16 * jointCount);
          } else {
            gl.activeTexture(gl.TEXTURE0 + PALETTE_UNIT);
            const texture = model.paletteTextures[skin];
            if (model.paletteFrames[skin] !== serial) {
              uploadPaletteTexture(gl, texture, palette);
              model.paletteFrames[skin] = serial;
            } else {
              gl.bindTexture(gl.TEXTURE_2D, texture.texture);
            }
          }
        }
        const materialIndex = primitive.asset.material;
        const material = materialIndex >= 0 && materialIndex < model.materials.length ? model.materials[materialIndex] : null;
        if (material) gl.uniform4fv(program.u_baseColorFactor, material.baseColorFactor);
        else gl.uniform4f(program.u_baseColorFactor, 1, 1, 1, 1);
        gl.uniform1i(program.u_flatShading, primitive.asset.flatShading ? 1 : 0);
        gl.activeTexture(gl.TEXTURE0 + BASE_COLOR_UNIT);
        gl.bindTexture(gl.TEXTURE_2D, model.baseColorTexture(materialIndex, primitive.hasUvs));
        if (material?.doubleSided) gl.disable(gl.CULL_FACE);
        else gl.enable(gl.CULL_FACE);
        // A mirroring transform flips the winding (glTF 2.0 §3.7.4). For a skinned mesh the palette places it:
        // its first skinning matrix stands for the skin (a skeleton is mirrored as a whole, at its root).
        let mirrored = mat4.determinant(this.modelMatrix) < 0;
        if (skinned && jointCount > 0 && determinant3x3(animated.skinMatrices[skin], 0) < 0) mirrored = !mirrored;
        gl.frontFace(mirrored ? gl.CW : gl.CCW);
        gl.bindVertexArray(primitive.vao);
        gl.drawElements(gl.TRIANGLES, primitive.indexCount, primitive.indexType, 0);
      }
    }
    gl.bindVertexArray(null);
  }

  /**
   * Deletes the renderer's programs and stops listening for context events. Idempotent. Models are the
   * caller's to dispose.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.canvas?.removeEventListener('webglcontextlost', this.onLost);
    this.canvas?.removeEventListener('webglcontextrestored', this.onRestored);
    if (this.lost || this.gl.isContextLost()) this.programs.forget();
    else this.programs.dispose();
  }
}

/** Largest joint count over a model's skins (0 without skins). */
export function maxSkinJoints(asset: ModelAsset): number {
  let max = 0;
  for (let s = 0; s < asset.skins.length; s++) if (asset.skins[s].joints.length > max) max = asset.skins[s].joints.length;
  return max;
}

/** Determinant of the upper 3×3 of the column-major 4×4 matrix at `m[o…o+16)`. Allocates nothing. */
function determinant3x3(m: Float32Array, o: number): number {
  return m[o] * (m[o + 5] * m[o + 10] - m[o + 6] * m[o + 9])
    - m[o + 4] * (m[o + 1] * m[o + 10] - m[o + 2] * m[o + 9])
    + m[o + 8] * (m[o + 1] * m[o + 6] - m[o + 2] * m[o + 5]);
}
