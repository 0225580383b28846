import type { EnvironmentLight } from '../shading/environment-light.ts';
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../asset/model-asset.ts';
import { ATTRIBUTE_LOCATIONS, GpuModel, uploadModel } from '../skinning/gpu-model.ts';
import { DEFAULT_LIGHTING, LightingLibrary, type SceneLighting } from '../shading/scene-lighting.ts';
import { bindEnvironment, setAlphaState } from '../skinning/material-binding.ts';
import { readPaletteLimits, resolvePalettePath, paletteStride, type PaletteLimits, type PalettePath, type PaletteRequest } from '../skinning/palette-path.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../skinning/skinning-method.ts';
import { ProgramCache } from '../skinning/program-cache.ts';
import type { SkinnedVertexBuffers } from '../skinning/skinned-vertex-buffers.ts';
import { BlendOrder } from './blend-order.ts';
import type { CameraMatrices } from './folded-camera.ts';
import { PrimitiveDraw, type PassContext } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';
import { drawOpaquePass, hidesInstances } from './opaque-pass.ts';
import { drawRigidBatchPass } from './rigid-batch-pass.ts';
import { drawBlendPass } from './blend-pass.ts';
import { drawOutlinePass } from './outline-pass.ts';
import { drawInspectionPass } from './inspection-pass.ts';
import { drawSkinOncePass } from './skin-once-pass.ts';
import { yieldToPage } from '../../schedule/yield-to-page.ts';
import { GpuContext } from '../device/gpu-context.ts';

export type { PaletteLimits, PalettePath, PaletteRequest } from '../skinning/palette-path.ts';
export type { DrawStyle, SurfaceView } from '../debug/draw-style.ts';
export type { EnvironmentLight } from '../shading/environment-light.ts';
export { GpuModel } from '../skinning/gpu-model.ts';
export type { CameraMatrices } from './folded-camera.ts';
export { createRenderItem, type RenderItem } from './render-item.ts';
export type { PassContext } from './primitive-draw.ts';

/** Renderer settings. */
export interface RendererOptions {
  /**
   * The palette request (the option keeps its public name `palette`): a forced path, or `'auto'` (default):
   * the first of uniform, ubo, texture that holds the largest skin.
   */
  palette?: PaletteRequest;
}

const IDENTITY = mat4.create() as Float32Array;

/** Settings of one {@link SkinnedRenderer.draw}. */
export interface DrawOptions {
  /**
   * false: the item as it is, its inspection view (`item.style`) left out, e.g. a shadow's depth pass under a
   * model shown in a debug view. Default true.
   */
  inspection?: boolean;
}

/**
 * Draws skinned and rigid glTF/MD5 models with WebGL2: `shaders/skinned.vert` (every influence, by LBS, docs/explanation/skinning-formulas.md S0, or
 * DQS, under a weight policy, per model: {@link SkinningMethod}; palette as a uniform array, an RGBA32F
 * texture or a uniform buffer) and `shaders/lit.frag` (glTF metallic-roughness under image-based light;
 * docs/guide/lighting.md). Programs are compiled per variant on first use and cached. Owns its programs and
 * its {@link ImageBasedLighting} (the studio environment, prefiltered by the constructor and again on a
 * context restore); models are owned by the caller ({@link GpuModel.dispose}).
 * The palette request is the renderer's own ({@link RendererOptions.palette}) unless `upload` / `draw` are
 * given one, so views sharing a context (and its renderer) each keep theirs.
 *
 * Context loss is owned by the context's {@link GpuContext}: its resources (programs, models' buffers and
 * textures) restore themselves, and draws are no-ops until they have; the renderer then re-reads the context's
 * limits. Models stay valid across a loss. Frames allocate nothing.
 */
export class SkinnedRenderer {
  readonly gl: WebGL2RenderingContext;
  /** The renderer's own palette request ({@link RendererOptions.palette}). */
  private readonly paletteRequest: PaletteRequest;
  private readonly programs: ProgramCache;
  private limits: PaletteLimits;
  /** The context's device: it restores every GL object after a loss (src/gpu/device/gpu-context.ts). */
  private readonly device: GpuContext;
  private readonly unlisten: () => void;
  private disposed = false;
  /** The environments (studio by default) and skybox pass. */
  private readonly lights: LightingLibrary;
  /** The passes' primitive draw: program, palette, morph and material binding of one primitive at a time. */
  private readonly primitives: PrimitiveDraw;
  /** Scratch: the BLEND primitives of a draw and their order. */
  private readonly blended = new BlendOrder();

  /**
   * Prefilters the environment on the GPU (synchronous; see docs/guide/lighting.md for its cost).
   * @throws Error when the context is lost already, or an environment pass fails to build
   */
  constructor(gl: WebGL2RenderingContext, options: RendererOptions = {}) {
    if (gl.isContextLost()) throw new Error('SkinnedRenderer: the WebGL2 context is lost');
    this.gl = gl;
    this.paletteRequest = options.palette ?? 'auto';
    this.programs = new ProgramCache(gl);
    this.limits = readPaletteLimits(gl);
    this.lights = new LightingLibrary(gl);
    const renderer = this;
    this.primitives = new PrimitiveDraw(gl, this.programs, {
      get paletteLimits() { return renderer.limits; },
      get lights() { return renderer.lights; },
    });
    this.device = GpuContext.of(gl);
    this.unlisten = this.device.listen({
      // Limits may differ on the restored context (its programs and environments restored themselves).
      restored: () => { this.limits = readPaletteLimits(gl); },
    });
  }

  /** True from a context loss until its device has restored every resource ({@link GpuContext.isLost}). */
  get contextLost(): boolean {
    return this.device.isLost;
  }

  /** Draws are no-ops while the context is lost. */
  private get lost(): boolean {
    return this.device.isLost;
  }

  /** `MAX_VERTEX_UNIFORM_VECTORS` of the context. */
  get vertexUniformVectors(): number {
    return this.limits.maxVertexUniformVectors;
  }

  /** The context limits palette paths are chosen by (re-read on a context restore). */
  get paletteLimits(): PaletteLimits {
    return this.limits;
  }

  /**
   * Uploads the GPU side of a model. The promise resolves once its base colour textures are decoded and
   * uploaded (undecodable ones are drawn white and listed in `textureErrors`), so the first frame drawn with
   * it is complete; use `uploadModel` for geometry at once and textures as they arrive. The renderer keeps
   * no reference to the result; the caller disposes it. The model suits every palette path.
   * @param paletteRequest the palette request it will be drawn with (default: the renderer's), checked here
   * @param method the skinning method it will be drawn with (checked with `paletteRequest`)
   * @throws Error (rejects) when the context is lost, or the model's palette path is forced to uniform or
   *   ubo but does not fit
   */
  async upload(asset: ModelAsset, paletteRequest: PaletteRequest = this.paletteRequest, method: SkinningMethod = DEFAULT_SKINNING_METHOD): Promise<GpuModel> {
    if (this.lost || this.gl.isContextLost()) throw new Error(`${asset.name}: cannot upload, the WebGL2 context is lost`);
    this.palettePathFor(asset, paletteRequest, method);
    // Merging and uploading a large model is a long task of its own: the page gets a turn before and after it.
    await yieldToPage();
    if (this.lost || this.gl.isContextLost()) throw new Error(`${asset.name}: cannot upload, the WebGL2 context is lost`);
    const gpuModel = uploadModel(this.gl, asset);
    await gpuModel.texturesReady;
    await yieldToPage();
    return gpuModel;
  }

  /**
   * Palette path used for a model: the requested one, or for `'auto'` the first path that holds its largest
   * skin — uniform (`3·joints + 16 ≤ MAX_VERTEX_UNIFORM_VECTORS`), ubo (`48·joints ≤ MAX_UNIFORM_BLOCK_SIZE`),
   * texture (`resolvePalettePath`). Rigid-only models report the resolved choice for 0 joints.
   * @param paletteRequest the request to resolve (default: the renderer's own, {@link RendererOptions.palette})
   * @param method the skinning method it will be drawn with: DQS takes 4 vectors per joint, LBS 3
   * @throws Error when `'uniform'` or `'ubo'` is forced and the largest skin does not fit
   */
  palettePathFor(asset: ModelAsset, paletteRequest: PaletteRequest = this.paletteRequest, method: SkinningMethod = DEFAULT_SKINNING_METHOD): PalettePath {
    return resolvePalettePath(paletteRequest, maxSkinJoints(asset), this.limits, asset.name, paletteStride(method.skinning));
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
   * The light of the draws that follow (default {@link DEFAULT_LIGHTING}): environment, exposure, tone mapping
   * (src/gpu/shading/scene-lighting.ts); draws its skybox into the `width × height` viewport (after beginFrame, before
   * the model). Views sharing the renderer each call it before drawing. No-op while the context is lost.
   * @throws Error when an environment fails to prefilter or an image does not fit the GPU's textures
   */
  useLighting(lighting: Readonly<SceneLighting> | null, camera: CameraMatrices, width: number, height: number): void {
    if (!this.lost) this.lights.select(lighting ?? DEFAULT_LIGHTING, camera.view, camera.projection, width, height);
  }

  /**
   * The key light and ambient SH of the current environment (the last {@link useLighting}'s; the studio before
   * any): what MToon materials are lit by (`ImageBasedLighting.light`, src/gpu/shading/environment-light.ts).
   * Owned by the environment and rewritten in place when it is prefiltered again (a context restore).
   */
  get environmentLight(): EnvironmentLight {
    return this.lights.current.light;
  }

  /**
   * The `u_viewProjection` the last {@link draw} (or {@link foldCamera}) used: `projection · view · T(s)` with
   * s = mat3(display)·origin, so overlays drawn in display space relative to the model origin line up with the
   * model. `Float32Array(16)`, column-major, owned by the renderer (overwritten by the next draw).
   */
  get lastViewProjection(): Float32Array {
    return this.primitives.camera.viewProjection;
  }

  /**
   * Milliseconds the last {@link draw} spent packing palettes (LBS rows or DQS dual quaternions) and handing
   * them to the GL (uniform array, uniform buffer or texture upload): CPU submission time, part of the draw's.
   */
  get lastPaletteMs(): number {
    return this.primitives.paletteMs;
  }

  /**
   * Folds the model origin into the camera as {@link draw} does, without drawing; the result is
   * {@link lastViewProjection}. Allocates nothing.
   * @param origin `Float64Array(3)` model origin (`AnimatedModel.origin`), or undefined for (0, 0, 0)
   */
  foldCamera(camera: CameraMatrices, displayMatrix: Float32Array | undefined, origin: Float64Array | undefined): Float32Array {
    this.primitives.camera.fold(camera, displayMatrix ?? IDENTITY, origin);
    return this.primitives.camera.viewProjection;
  }

  /**
   * Draws `item` (its every mesh instance in its pose) by the passes: opaque (OPAQUE and MASK primitives in file
   * order, src/gpu/passes/opaque-pass.ts) and rigid batches (static rigid primitives merged at upload, one draw per
   * batch, rigid-batch-pass.ts) — or, with `item.style`, the inspection pass instead (every primitive on its own,
   * inspection-pass.ts) — then, without an inspection view, the MToon outlines of the OPAQUE and MASK primitives
   * (the inverted hull, outline-pass.ts), then blend (BLEND primitives by MToon render queue, then farthest first,
   * glTF 2.0 §3.9.4, blended without depth writes unless MToon's `transparentWithZWrite`, each followed by its
   * outline, blend-pass.ts); the blend state is off again afterwards. With `item.skinnedVertices` the surfaces and
   * the outlines both draw those vertices, so an outlined model is skinned once per frame. Morph targets first at the instance's weights
   * in `pose.morphWeights` (docs/explanation/skinning-formulas.md M0; only the non-zero ones cost work), then a rigid
   * primitive with `u_toDisplay = displayMatrix · pose.modelMatrices[instance node]`, a skinned one with its skin's
   * skinning matrices `pose.skinMatrices[instance.skin]` (which lands it in model space) and `u_toDisplay =
   * displayMatrix`. Evaluate the pose first (e.g. `AnimatedModel.evaluate`). No-op while the context is lost.
   *
   * The pose buffers are relative to the model's origin O (`pose.origin`), and so is what the GPU sees
   * ({@link FoldedCamera}): with s = mat3(displayMatrix)·O, `u_viewProjection = projection · view · T(s)` and
   * `u_eye = eye − s`, in f64 before rounding to float32.
   * @param camera in display space
   * @param options what to leave out (default: nothing)
   * @throws Error when `item.gpuModel` is disposed, or a
   *   shader variant fails to build, or the item's palette request forces a uniform or ubo palette that does not fit
   */
  draw(item: RenderItem, camera: CameraMatrices, options?: Readonly<DrawOptions>): void {
    if (this.lost) return;
    const gl = this.gl;
    const primitives = this.primitives;
    const inspection = options?.inspection !== false;
    this.startItem(item, null, inspection);
    primitives.camera.fold(camera, item.displayMatrix ?? IDENTITY, item.pose.origin);
    bindEnvironment(gl, this.lights.current);
    gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_color, 1, 1, 1, 1);
    setAlphaState(gl, false);
    const blended = this.blended;
    blended.clear();
    // Hidden instances: every primitive on its own, as the inspection pass draws them, so a batch never shows one.
    const inspecting = item.style !== null && inspection;
    if (inspecting || hidesInstances(item)) {
      drawInspectionPass(primitives, item, blended);
    } else {
      drawOpaquePass(primitives, item, blended);
      drawRigidBatchPass(primitives, item);
    }
    if (!inspecting) drawOutlinePass(primitives, item);
    drawBlendPass(primitives, item, blended, !inspecting);
    gl.bindVertexArray(null);
  }

  /**
   * Starts a pass drawn by other code with the renderer's programs and light (a crowd's instanced pass,
   * src/crowd/gpu/crowd-pass.ts): checks `gpuModel` as {@link draw} does, folds `camera` (world or display space,
   * origin at 0), binds the environment and the default vertex colour. Null while the context is lost.
   * @throws as {@link draw} for a disposed model
   */
  beginPass(gpuModel: GpuModel, camera: CameraMatrices): PassContext | null {
    if (this.lost) return null;
    this.checkModel(gpuModel);
    this.primitives.camera.fold(camera, IDENTITY, undefined);
    bindEnvironment(this.gl, this.lights.current);
    this.gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_color, 1, 1, 1, 1);
    return this.primitives;
  }

  /**
   * Skins every skinned primitive of `item` in its pose once, by the shader variant {@link draw} runs for it
   * (morph targets first), into `target` by transform feedback (src/gpu/passes/skin-once-pass.ts): the frame's
   * passes then draw `target` (set it as the item's `skinnedVertices`) instead of each skinning the vertices again.
   * The item's display matrix, inspection view and skinned vertices are not read. Nothing is read back; no-op while
   * the context is lost.
   * @param target buffers made for `item.gpuModel`
   * @throws as {@link draw}, and Error when `target` holds another model
   */
  skinInto(target: SkinnedVertexBuffers, item: RenderItem): void {
    if (this.lost) return;
    const gpuModel = item.gpuModel;
    if (target.gpuModel !== gpuModel) throw new Error(`${gpuModel.asset.name}: skinInto buffers made for ${target.gpuModel.asset.name}`);
    this.startItem(item, target, false);
    drawSkinOncePass(this.primitives, item);
    this.primitives.end();
  }

  /** Checks `item` can be drawn and begins its draw (or its skin-once pass into `capture`). */
  private startItem(item: RenderItem, capture: SkinnedVertexBuffers | null, inspection: boolean): void {
    this.checkModel(item.gpuModel);
    const palettePath = this.palettePathFor(item.gpuModel.asset, item.paletteRequest ?? this.paletteRequest, item.method);
    this.primitives.begin(item, palettePath, capture, inspection);
  }

  /** @throws Error when `gpuModel` is disposed */
  private checkModel(gpuModel: GpuModel): void {
    if (gpuModel.isDisposed) throw new Error(`${gpuModel.asset.name}: draw of a disposed GpuModel`);
  }

  /**
   * Deletes the renderer's programs and environment textures (their resources only forget them while the context is lost).
   * Idempotent. Models are the caller's to dispose.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unlisten();
    this.programs.dispose();
    this.lights.dispose();
  }
}

/** Largest joint count over a model's skins (0 without skins). */
export function maxSkinJoints(asset: ModelAsset): number {
  let max = 0;
  for (let s = 0; s < asset.skins.length; s++) if (asset.skins[s].joints.length > max) max = asset.skins[s].joints.length;
  return max;
}
