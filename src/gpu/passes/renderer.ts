import { mat3, mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../asset/model-asset.ts';
import type { PoseBuffers } from '../../skeleton/pose-buffers.ts';
import { determinant3x3, multiplyStrided } from '../../math/strided-mat4.ts';
import { ATTRIBUTE_LOCATIONS, GpuModel, uploadModel, type GpuPrimitive } from '../skinning/gpu-model.ts';
import { DEFAULT_LIGHTING, LightingLibrary, type SceneLighting } from '../shading/scene-lighting.ts';
import { bindEnvironment, bindMaterial, materialOf, setAlphaState } from '../skinning/material-binding.ts';
import { paletteCapacity, paletteStride, readPaletteLimits, resolvePalettePath, type PaletteLimits, type PalettePath, type PaletteRequest } from '../skinning/palette-path.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../skinning/skinning-method.ts';
import { bindSkinPalette } from '../skinning/palette-binding.ts';
import { bindMorphTargets } from '../skinning/morph-binding.ts';
import { drawInstances, type GpuInstances, type InstancedDrawStats } from '../../crowd/gpu/instance-draw.ts';
import type { InstanceBlocks } from '../../skinning/instance-blocks.ts';
import { BASE_COLOR_UNIT, MORPH_ACTIVE_UNIT, OVERFLOW_UNIT, ProgramCache, type SkinningProgram } from '../skinning/program-cache.ts';
import type { DrawStyle } from '../debug/draw-style.ts';
import type { SkinnedVertexBuffers } from '../skinning/skinned-vertex-buffers.ts';
import type { SkinnedVertexSource } from '../skinning/skinned-vertex-source.ts';
import { createShaderVariant } from '../skinning/shader-variant.ts';
import { BlendOrder, distanceToEye } from './blend-order.ts';
import { yieldToPage } from '../../schedule/yield-to-page.ts';
import { GpuContext } from '../device/gpu-context.ts';

export type { PaletteLimits, PalettePath, PaletteRequest } from '../skinning/palette-path.ts';
export type { DrawStyle, SurfaceView } from '../debug/draw-style.ts';
export { GpuModel } from '../skinning/gpu-model.ts';

/** Renderer settings. */
export interface RendererOptions {
  /**
   * The palette request (the option keeps its public name `palette`): a forced path, or `'auto'` (default):
   * the first of uniform, ubo, texture that holds the largest skin.
   */
  palette?: PaletteRequest;
}

/**
 * Camera matrices, column-major, in display space (model space after a model's display matrix, see
 * docs/explanation/skinning-formulas.md "Spaces and poses"): the space the camera and the lights are in.
 */
export interface CameraMatrices {
  /** `Float32Array(16)`: display space → view. */
  view: Float32Array;
  /** `Float32Array(16)`: view → clip. */
  projection: Float32Array;
  /** `Float32Array(3)`: camera position in display space (specular highlights). */
  eye: Float32Array;
}

const IDENTITY = mat4.create() as Float32Array;

/**
 * Draws skinned and rigid glTF/MD5 models with WebGL2: `shaders/skinned.vert` (every influence, by LBS, docs/explanation/skinning-formulas.md S0, or
 * DQS, under a weight policy, per model: {@link SkinningMethod}; palette as a uniform array, an RGBA32F
 * texture or a uniform buffer) and `shaders/lit.frag` (glTF metallic-roughness under image-based light;
 * docs/guide/lighting.md). Programs are compiled per variant on first use and cached. Owns its programs and
 * its {@link ImageBasedLighting} (the studio environment, prefiltered by the constructor and again by its own
 * restore after a context loss); models are owned by the caller ({@link GpuModel.dispose}).
 * The palette request is the renderer's own ({@link RendererOptions.palette}) unless `upload` / `draw` are
 * given one, so views sharing a context (and its renderer) each keep theirs.
 *
 * Context loss is owned by the context's {@link GpuContext}: its resources (programs, models' buffers and
 * textures) restore themselves, and draws are no-ops until they have; the renderer then re-reads the context's
 * limits and prefilters its environment again. Models stay valid across a loss. Frames allocate nothing.
 */
export class SkinnedRenderer {
  readonly gl: WebGL2RenderingContext;
  /** The renderer's own palette request ({@link RendererOptions.palette}). */
  private readonly paletteRequest: PaletteRequest;
  private readonly programs: ProgramCache;
  /** Scratch: the shader variant of the primitive being drawn (filled per draw, never reallocated). */
  private readonly variant = createShaderVariant();
  private limits: PaletteLimits;
  /** The context's device: it restores every GL object after a loss (src/gpu/device/gpu-context.ts). */
  private readonly device: GpuContext;
  private readonly unlisten: () => void;
  private disposed = false;
  private drawSerial = 0;
  private paletteMs = 0;
  private readonly viewProjection = new Float32Array(16);
  /** Scratch: `projection · view` in f64, before the model's origin is folded in. */
  private readonly viewProjection64 = new Float64Array(16);
  /** Scratch: the camera position relative to the model's origin in display space (`eye − s`). */
  private readonly eyeRelative = new Float32Array(3);
  /** Scratch: `u_toDisplay` of the primitive being drawn. */
  private readonly toDisplay = new Float32Array(16);
  private readonly normalMatrix = new Float32Array(9);
  /** The environments (studio by default) and skybox pass. */
  private readonly lights: LightingLibrary;
  /** Settings of the draw in progress, read by drawPrimitive. */
  private readonly frame: {
    palettePath: PalettePath; method: SkinningMethod; serial: number; program: SkinningProgram | null;
    /** Mesh instance whose active morph-target list is uploaded (−1: none yet this draw), and its length. */
    morphInstance: number; morphActive: number;
    /** The inspection views of the draw (draw's `style`), or undefined. */
    style: DrawStyle | undefined;
    /** Vertices skinned before this draw (draw's `skinnedVertices`), or null. */
    skinnedVertices: SkinnedVertexSource | null;
    /** The buffers a {@link skinInto} pass writes, or null in a draw. */
    capture: SkinnedVertexBuffers | null;
  } = {
    palettePath: 'uniform', method: DEFAULT_SKINNING_METHOD, serial: 0, program: null, morphInstance: -1, morphActive: 0, style: undefined,
    skinnedVertices: null, capture: null,
  };
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
   * The `u_viewProjection` the last {@link draw} (or {@link foldCamera}) used: `projection · view · T(s)` with
   * s = mat3(display)·origin, so overlays drawn in display space relative to the model origin line up with the
   * model. `Float32Array(16)`, column-major, owned by the renderer (overwritten by the next draw).
   */
  get lastViewProjection(): Float32Array {
    return this.viewProjection;
  }

  /**
   * Milliseconds the last {@link draw} spent packing palettes (LBS rows or DQS dual quaternions) and handing
   * them to the GL (uniform array, uniform buffer or texture upload): CPU submission time, part of the draw's.
   */
  get lastPaletteMs(): number {
    return this.paletteMs;
  }

  /**
   * Folds the model origin into the camera as {@link draw} does, without drawing; the result is
   * {@link lastViewProjection}. Allocates nothing.
   * @param origin `Float64Array(3)` model origin (`AnimatedModel.origin`), or undefined for (0, 0, 0)
   */
  foldCamera(camera: CameraMatrices, displayMatrix: Float32Array | undefined, origin: Float64Array | undefined): Float32Array {
    this.foldOrigin(camera, displayMatrix ?? IDENTITY, origin);
    return this.viewProjection;
  }

  /**
   * `viewProjection = projection · view · T(s)` and `eyeRelative = eye − s`, s = mat3(display)·origin, in
   * f64 (the camera's float32 matrices read as doubles), then rounded once to float32. Allocates nothing.
   */
  private foldOrigin(camera: CameraMatrices, display: Float32Array, origin: Float64Array | undefined): void {
    const P = camera.projection, V = camera.view, vp = this.viewProjection64;
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) {
        vp[4 * c + r] = P[r] * V[4 * c] + P[4 + r] * V[4 * c + 1] + P[8 + r] * V[4 * c + 2] + P[12 + r] * V[4 * c + 3];
      }
    }
    let sx = 0, sy = 0, sz = 0;
    if (origin) {
      const ox = origin[0], oy = origin[1], oz = origin[2];
      sx = display[0] * ox + display[4] * oy + display[8] * oz;
      sy = display[1] * ox + display[5] * oy + display[9] * oz;
      sz = display[2] * ox + display[6] * oy + display[10] * oz;
    }
    for (let r = 0; r < 4; r++) {
      this.viewProjection[r] = vp[r];
      this.viewProjection[4 + r] = vp[4 + r];
      this.viewProjection[8 + r] = vp[8 + r];
      this.viewProjection[12 + r] = vp[r] * sx + vp[4 + r] * sy + vp[8 + r] * sz + vp[12 + r];
    }
    const eye = camera.eye;
    this.eyeRelative[0] = eye[0] - sx;
    this.eyeRelative[1] = eye[1] - sy;
    this.eyeRelative[2] = eye[2] - sz;
  }

  /**
   * Draws every mesh instance of `gpuModel` in `pose`, morph targets first at the instance's weights in
   * `pose.morphWeights` (docs/explanation/skinning-formulas.md M0; only the non-zero ones cost work), then a rigid primitive with
   * `u_toDisplay = displayMatrix · pose.modelMatrices[instance joint]`, a skinned one with its skin's skinning matrices
   * `pose.skinMatrices[instance.skin]` (which lands it in model space) and `u_toDisplay = displayMatrix`;
   * static rigid primitives merged at upload (`gpuModel.rigidBatches`, src/gpu/skinning/rigid-batches.ts) one draw per batch
   * with `u_toDisplay = displayMatrix · pose.modelMatrices[anchor]` (with `style`, primitive by primitive instead).
   * Evaluate the pose first (e.g. `AnimatedModel.evaluate`). No-op while the context is lost. Opaque and MASK
   * primitives are drawn in file order, then BLEND ones farthest first (glTF 2.0 §3.9.4), blended, without
   * depth writes; the blend state is off again afterwards.
   *
   * The pose buffers are relative to the model's origin O (`pose.origin`), and so is what the GPU sees: with
   * s = mat3(displayMatrix)·O (display space), `u_viewProjection = projection · view · T(s)` and
   * `u_eye = eye − s` are computed in f64 before rounding to float32, so the shader's positions
   * (`v_displayPosition`, display space minus s) stay the size of the model, not of its distance from the origin.
   * @param pose the model's {@link PoseBuffers}: `modelMatrices` of `16·jointCount` floats and skinning matrices per
   *   skin of `gpuModel.asset`, column-major
   * @param camera in display space
   * @param displayMatrix `Float32Array(16)`, column-major: model space → display space, re-orienting the whole
   *   model (e.g. Z-up → Y-up); default identity
   * @param paletteRequest palette request for this model (default: the renderer's), so that views sharing one
   *   renderer each keep their own; switching it between draws needs no new upload
   * @param method skinning mode and weight policy (default LBS, normalised weights), per model and per draw
   *   like `paletteRequest`: a shader variant each, no new upload
   * @param style inspection views (weight heat map, influence count, wireframe, CPU-skinned vertices; see
   *   {@link DrawStyle}); absent: the model as it is
   * @param skinnedVertices this frame's skinned vertices ({@link skinInto}, with the same pose, palette request and
   *   method), drawn instead of skinning them again; absent: skinned in the draw
   * @throws Error when `gpuModel` is disposed, or a
   *   shader variant fails to build, or `paletteRequest` forces a uniform or ubo palette that does not fit
   */
  draw(
    gpuModel: GpuModel, pose: PoseBuffers, camera: CameraMatrices, displayMatrix?: Float32Array,
    paletteRequest: PaletteRequest = this.paletteRequest, method: SkinningMethod = DEFAULT_SKINNING_METHOD, style?: DrawStyle,
    skinnedVertices: SkinnedVertexSource | null = null,
  ): void {
    if (this.lost) return;
    const gl = this.gl;
    const display = displayMatrix ?? IDENTITY;
    this.startDraw(gpuModel, paletteRequest, method, style, skinnedVertices, null);
    const asset = gpuModel.asset;
    this.foldOrigin(camera, display, pose.origin);
    bindEnvironment(gl, this.lights.current);
    gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_color, 1, 1, 1, 1);
    setAlphaState(gl, false);
    // Opaque and masked primitives first, in file order, then the rigid batches (no BLEND among them); blended
    // ones are collected and drawn after them. Inspection views colour and outline each node: primitive by primitive.
    const blended = this.blended;
    blended.clear();
    if (style) {
      const instances = asset.meshInstances;
      for (let i = 0; i < instances.length; i++) {
        const count = asset.meshes[instances[i].mesh].primitives.length;
        for (let p = 0; p < count; p++) this.drawOrCollect(gpuModel, i, p, pose, display);
      }
    } else {
      const singles = gpuModel.singles;
      for (let k = 0; k < singles.length; k += 2) this.drawOrCollect(gpuModel, singles[k], singles[k + 1], pose, display);
      const batches = gpuModel.rigidBatches;
      for (let b = 0; b < batches.length; b++) this.drawPrimitive(gpuModel, -1, b, pose, display);
    }
    if (blended.count > 0) {
      // glTF 2.0 §3.9.4 BLEND: composited over what is behind, farthest first (by the primitive's bounding-box
      // centre), testing depth without writing it.
      blended.sort();
      setAlphaState(gl, true);
      for (let k = 0; k < blended.count; k++) {
        const e = blended.order[k];
        this.drawPrimitive(gpuModel, blended.instance[e], blended.primitive[e], pose, display);
      }
      setAlphaState(gl, false);
    }
    gl.bindVertexArray(null);
  }

  /**
   * Instanced skinning: draws the `blocks.drawCount` instances a crowd prepared (`Crowd.prepare`,
   * src/crowd/crowd.ts) with one `drawElementsInstanced` per primitive and winding (src/crowd/gpu/instance-draw.ts):
   * skinned meshes by the crowd's skinning method, rigid ones by their node's matrix in each instance's pose,
   * mirrored instances with the opposite `frontFace`. The camera is in world space (the instances' world
   * matrices lead there).
   * @param instances the model's instance textures in this context (`new GpuInstances(gl)`, caller-owned)
   * @param stats filled with the draw calls and vertices shaded, when given
   * @throws as {@link draw} for a disposed model
   */
  drawCrowd(gpuModel: GpuModel, instances: GpuInstances, blocks: InstanceBlocks, camera: CameraMatrices, stats?: InstancedDrawStats): void {
    if (this.lost) return;
    if (gpuModel.isDisposed) throw new Error(`${gpuModel.asset.name}: draw of a disposed GpuModel`);
    this.foldOrigin(camera, IDENTITY, undefined);
    bindEnvironment(this.gl, this.lights.current);
    this.gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_color, 1, 1, 1, 1);
    drawInstances(this.gl, this.programs, this.variant, gpuModel, instances, blocks, this.viewProjection, this.eyeRelative, stats);
  }

  /**
   * Skins every skinned primitive of `gpuModel` in `pose` once, by the shader variant a {@link draw} with the same
   * `paletteRequest` and `method` runs (morph targets first), into `target` by transform feedback: the frame's
   * passes then draw `target` ({@link draw}'s `skinnedVertices`) instead of each skinning the vertices again.
   * Nothing is read back; no-op while the context is lost.
   * @param target buffers made for `gpuModel`
   * @throws as {@link draw}, and Error when `target` holds another model
   */
  skinInto(target: SkinnedVertexBuffers, gpuModel: GpuModel, pose: PoseBuffers, paletteRequest: PaletteRequest = this.paletteRequest, method: SkinningMethod = DEFAULT_SKINNING_METHOD): void {
    if (this.lost) return;
    if (target.gpuModel !== gpuModel) throw new Error(`${gpuModel.asset.name}: skinInto buffers made for ${target.gpuModel.asset.name}`);
    this.startDraw(gpuModel, paletteRequest, method, undefined, null, target);
    const asset = gpuModel.asset;
    for (let i = 0; i < asset.meshInstances.length; i++) {
      const mesh = asset.meshInstances[i].mesh;
      if (asset.meshInstances[i].skin < 0) continue;
      // Skinned primitives are never in a rigid batch: asking for them uploads nothing more.
      for (let p = 0; p < asset.meshes[mesh].primitives.length; p++) if (gpuModel.primitive(mesh, p).skinned) this.drawPrimitive(gpuModel, i, p, pose, IDENTITY);
    }
    this.frame.capture = null;
  }

  /** Checks `gpuModel` can be drawn and sets the draw's settings (`this.frame`), read by drawPrimitive. */
  private startDraw(
    gpuModel: GpuModel, paletteRequest: PaletteRequest, method: SkinningMethod, style: DrawStyle | undefined,
    skinnedVertices: SkinnedVertexSource | null, capture: SkinnedVertexBuffers | null,
  ): void {
    const asset = gpuModel.asset;
    if (gpuModel.isDisposed) throw new Error(`${asset.name}: draw of a disposed GpuModel`);
    const frame = this.frame;
    frame.palettePath = this.palettePathFor(asset, paletteRequest, method);
    frame.method = method;
    frame.serial = ++this.drawSerial;
    frame.program = null;
    frame.morphInstance = -1;
    frame.style = style;
    frame.skinnedVertices = skinnedVertices;
    frame.capture = capture;
    this.paletteMs = 0;
  }

  /** Draws primitive `p` of mesh instance `i` now, or collects it for later when its material is BLEND. */
  private drawOrCollect(gpuModel: GpuModel, i: number, p: number, pose: PoseBuffers, display: Float32Array): void {
    const instance = gpuModel.asset.meshInstances[i];
    const primitive = gpuModel.primitive(instance.mesh, p);
    const material = materialOf(gpuModel, primitive);
    if (material && material.alphaMode === 2) {
      this.blended.push(i, p, distanceToEye(primitive, instance.skin, instance.node, pose, display, this.eyeRelative));
    } else {
      this.drawPrimitive(gpuModel, i, p, pose, display);
    }
  }

  /**
   * Draws primitive `p` of mesh instance `i`, or for `i` = −1 rigid batch `p` (`gpuModel.rigidBatches`, placed
   * by its anchor node's matrix): program (switched only when the variant changes), the
   * instance's matrices, the palette (packed once per frame per skin), the material's uniforms and textures,
   * culling and winding. Reads the draw's settings from `this.frame`.
   */
  private drawPrimitive(gpuModel: GpuModel, i: number, p: number, pose: PoseBuffers, display: Float32Array): void {
    const gl = this.gl;
    const asset = gpuModel.asset;
    const frame = this.frame;
    const palettePath = frame.palettePath, method = frame.method;
    const stride = paletteStride(method.skinning);
    const origin = pose.origin;
    const batch = i < 0 ? gpuModel.rigidBatches[p] : null;
    const instance = batch ? null : asset.meshInstances[i];
    const primitive = batch ? batch.primitive : gpuModel.primitive(instance!.mesh, p);
    const node = batch ? batch.anchor : instance!.node;
    const skin = instance ? instance.skin : -1;
    const style = frame.style;
    // Vertices skinned before the draw are in model space already: drawn by the rigid variant, placed by the display matrix.
    const source = frame.capture ? null : frame.skinnedVertices ?? style?.cpuVertices ?? null;
    const cpuVao = source && skin >= 0 && primitive.skinned ? source.vaoOf(i, p) : null;
    const skinned = skin >= 0 && primitive.skinned && !cpuVao;
    const surface = style ? style.surface : 'shaded';
    const weightView = surface === 'weights' || surface === 'influences';
    const jointCount = skinned ? asset.skins[skin].joints.length : 0;
    const capacity = paletteCapacity(palettePath, jointCount, this.limits, stride);
    // Morph targets: the instance's non-zero weights, uploaded when its first morphed primitive is drawn
    // (morph-texture.ts; again only if another instance's list was uploaded in between, e.g. by BLEND sorting).
    let morphActive = 0;
    const morphOffset = instance?.morphWeightOffset ?? -1;
    const morphCount = instance ? asset.meshes[instance.mesh].morphTargetCount ?? 0 : 0;
    if (!cpuVao && primitive.morphDeltas !== null && morphOffset >= 0 && morphCount > 0 && pose.morphWeights && gpuModel.morphActive) {
      if (frame.morphInstance !== i) {
        gl.activeTexture(gl.TEXTURE0 + MORPH_ACTIVE_UNIT);
        frame.morphActive = gpuModel.morphActive.upload(pose.morphWeights, morphOffset, morphCount);
        frame.morphInstance = i;
      }
      morphActive = frame.morphActive;
    }
    const morphed = morphActive > 0;
    const materialIndex = primitive.asset.material;
    const features = gpuModel.materialFeatures(materialIndex, primitive);
    const variant = this.variant;
    variant.skinned = skinned;
    variant.palettePath = palettePath;
    variant.jointCapacity = capacity;
    variant.transformFeedback = frame.capture !== null;
    variant.skinning = method.skinning;
    variant.weights = method.weights;
    variant.influences = primitive.influences;
    variant.instanced = false;
    variant.morphTargets = morphed;
    variant.features = features;
    variant.weightView = weightView;
    const program = this.programs.get(variant);
    if (program !== frame.program) {
      frame.program = program;
      gl.useProgram(program.program);
      gl.uniformMatrix4fv(program.u_viewProjection, false, this.viewProjection);
      gl.uniform3fv(program.u_eye, this.eyeRelative);
      gl.uniform1f(program.u_exposure, this.lights.exposure);
      gl.uniform1i(program.u_toneMapping, this.lights.operator);
      if (origin) gl.uniform3f(program.u_origin, origin[0], origin[1], origin[2]);
      else gl.uniform3f(program.u_origin, 0, 0, 0);
    }
    if (weightView) {
      gl.uniform1i(program.u_weightMode, surface === 'weights' ? 0 : 1);
      const joint = skinned || cpuVao ? style!.weightJointBySkin[skin] ?? -1 : node === style!.weightNode ? 0 : -1;
      gl.uniform1i(program.u_weightJoint, joint);
    }
    // Per-instance matrices (recomputed per primitive: a program switch may sit between them).
    if (skinned || cpuVao) this.toDisplay.set(display);
    else multiplyStrided(this.toDisplay, 0, display, 0, pose.modelMatrices, 16 * node);
    if (!mat3.normalFromMat4(this.normalMatrix, this.toDisplay)) mat3.identity(this.normalMatrix);
    gl.uniformMatrix4fv(program.u_toDisplay, false, this.toDisplay);
    gl.uniformMatrix3fv(program.u_normalMatrix, false, this.normalMatrix);
    if (skinned) this.paletteMs += bindSkinPalette(gl, program, gpuModel, skin, pose.skinMatrices[skin], jointCount, method, palettePath, capacity, frame.serial);
    if (skinned && primitive.overflowTexture) {
      gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, primitive.overflowTexture);
    }
    bindMorphTargets(gl, gpuModel, primitive, program, morphActive);
    if (frame.capture) {
      frame.capture.capture(i, p, primitive.vao, primitive.vertexCount);
      return;
    }
    const material = bindMaterial(gl, program, gpuModel, primitive);
    gl.uniform1i(program.u_flatShading, primitive.asset.flatShading ? 1 : 0);
    if (material?.doubleSided) gl.disable(gl.CULL_FACE);
    else gl.enable(gl.CULL_FACE);
    // A mirroring transform flips the winding (glTF 2.0 §3.7.4). For a skinned mesh the skinning matrices place it:
    // its first skinning matrix stands for the skin (a skeleton is mirrored as a whole, at its root).
    let mirrored = mat4.determinant(this.toDisplay) < 0;
    // Vertices skinned before the draw were mirrored by the same skinning matrices.
    if (skin >= 0 && primitive.skinned && asset.skins[skin].joints.length > 0 && determinant3x3(pose.skinMatrices[skin], 0) < 0) mirrored = !mirrored;
    gl.frontFace(mirrored ? gl.CW : gl.CCW);
    const vao = cpuVao ?? primitive.vao;
    gl.bindVertexArray(vao);
    if (surface !== 'none') {
      // Under a wireframe the surface sits a little deeper, so the edges win the depth test.
      if (style?.edgesOf) {
        gl.enable(gl.POLYGON_OFFSET_FILL);
        gl.polygonOffset(1, 1);
      }
      gl.drawElements(gl.TRIANGLES, primitive.indexCount, primitive.indexType, 0);
      gl.disable(gl.POLYGON_OFFSET_FILL);
    }
    if (style?.edgesOf) this.drawEdges(primitive, vao, style, program, gpuModel.whiteTexture);
  }

  /**
   * The wireframe of the bound primitive: its edge list as LINES through the program just used (so the edges
   * are skinned as the surface is), in the style's edge colour; the VAO's own index buffer is bound back after.
   */
  private drawEdges(primitive: GpuPrimitive, vao: WebGLVertexArrayObject, style: DrawStyle, program: SkinningProgram, white: WebGLTexture): void {
    const gl = this.gl;
    const edges = style.edgesOf!(primitive);
    const indexBuffer = primitive.buffers[primitive.buffers.length - 1];
    // Making the edge buffer (first use) may have unbound the VAO.
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, edges.buffer);
    gl.uniform4fv(program.u_baseColorFactor, style.edgeColor);
    gl.activeTexture(gl.TEXTURE0 + BASE_COLOR_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, white);
    gl.drawElements(gl.LINES, edges.count, gl.UNSIGNED_INT, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
  }

  /**
   * Deletes the renderer's programs and environment textures (forgets them while the context is lost).
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
