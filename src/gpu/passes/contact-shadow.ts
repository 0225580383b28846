import { mat4 } from 'gl-matrix';
import quadSource from '../../../shaders/shadow/quad.vert?raw';
import blurSource from '../../../shaders/shadow/blur.frag?raw';
import groundSource from '../../../shaders/shadow/ground.frag?raw';
import type { CameraMatrices, DrawOptions, SkinnedRenderer } from './renderer.ts';
import type { RenderItem } from './render-item.ts';
import { ShaderProgram } from '../device/shader-program.ts';
import { RenderTexture } from '../device/render-texture.ts';
import { Framebuffer } from '../device/framebuffer.ts';

/** What a contact shadow looks like (model-viewer's `shadow-intensity` and `shadow-softness`). */
export interface ContactShadowSettings {
  /** Opacity of the shadow in [0, 1]; 0 draws nothing. */
  intensity: number;
  /** Blur in [0, 1]: 0 hard, 1 the softest. */
  softness: number;
}

/** The model's box the shadow sits under: display space, metres (e.g. `ModelView.bounds`). */
export interface ShadowBounds {
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
}

/**
 * What casts a {@link ContactShadow} in one frame: the renderer the frame is drawn with, the main camera and the
 * drawing buffer's size, and how to draw the casting geometry's depth again from the shadow's camera.
 */
export interface ShadowCaster {
  readonly renderer: SkinnedRenderer;
  /** The main camera (the ground square is drawn with it). */
  readonly camera: CameraMatrices;
  /** Drawing buffer size, pixels (the viewport restored after). */
  readonly width: number;
  readonly height: number;
  /**
   * Draws what casts the shadow into the bound depth target as `camera` (the shadow's orthographic camera,
   * display or world space as the caster's own draw) sees it, with this frame's pose: the same skinning
   * shaders as the main draw, so the shadow is the skinned shape.
   */
  drawDepth(camera: CameraMatrices): void;
  /** Puts the renderer's camera state back to the main camera's after {@link drawDepth}. */
  restoreCamera(): void;
}

/** The frame of one skinned model, as `ModelView` hands it to a frame stage. */
export interface ModelShadowFrame {
  readonly renderer: SkinnedRenderer;
  /**
   * The model as the main draw drew it: pose, display matrix, palette request, skinning method, and its skinned
   * vertices when the model was skinned once for every pass (`item.skinnedVertices`).
   */
  readonly item: RenderItem;
  readonly camera: CameraMatrices;
  readonly width: number;
  readonly height: number;
}

/** The shadow's depth pass draws the model as it is, whatever inspection view the main draw shows. */
const DEPTH_PASS: Readonly<DrawOptions> = { inspection: false };

/**
 * A {@link ShadowCaster} for one skinned model: rewritten in place by {@link ModelShadowCaster.use} each frame
 * (no per-frame allocation); its depth pass is `SkinnedRenderer.draw` of the frame's render item (its pose,
 * palette request and skinning method, or its skinned vertices when the view skinned the model once for every
 * pass) as the shadow's camera sees it.
 */
export class ModelShadowCaster implements ShadowCaster {
  private frame: ModelShadowFrame | null = null;

  /** Casts `frame`'s model until the next call; returns this. */
  use(frame: ModelShadowFrame): this {
    this.frame = frame;
    return this;
  }

  private get current(): ModelShadowFrame {
    if (!this.frame) throw new Error('ModelShadowCaster: use(frame) before drawing');
    return this.frame;
  }

  get renderer(): SkinnedRenderer { return this.current.renderer; }
  get camera(): CameraMatrices { return this.current.camera; }
  get width(): number { return this.current.width; }
  get height(): number { return this.current.height; }

  drawDepth(camera: CameraMatrices): void {
    const f = this.current;
    f.renderer.draw(f.item, camera, DEPTH_PASS);
  }

  restoreCamera(): void {
    const f = this.current;
    f.renderer.foldCamera(f.camera, f.item.displayMatrix ?? undefined, f.item.pose.origin);
  }
}

// model-viewer 4.x three-components/Shadow.ts: softness s maps the map's resolution to 2^(9 − 3s) texels
// (× 2 for an animated model, whose shadow square is twice its largest dimension), blurred by a fixed
// 9-tap kernel, so a softer shadow is a coarser map; the depth seen from the ground fades over a far
// plane between 2 × the model's height (hard) and half of it (soft); hard shadows are drawn at 0.3 of the
// intensity, soft ones at all of it.
const LOG_MAX_RESOLUTION = 9;
const LOG_MIN_RESOLUTION = 6;
const ANIMATION_SCALING = 2;
const HARD_INTENSITY = 0.3;
/** Texels of blur reach at the map's edges (9 taps), so the blurred shadow is not cut by the square. */
const TAP_PAD = 10;

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

/** A colour or depth texture of `size²` and a framebuffer on it. */
/** A shadow pass's target: the texture and the framebuffer it is attached to, as they are in the context now. */
interface Target {
  readonly texture: WebGLTexture;
  readonly framebuffer: WebGLFramebuffer;
  /** @internal The resources behind the fields. */
  readonly resources: readonly [RenderTexture, Framebuffer];
}

/**
 * A soft contact shadow on the ground under one skinned model (model-viewer's `shadow-intensity` /
 * `shadow-softness`, after its three-components/Shadow.ts): the model is drawn again by the renderer's own
 * skinning shaders, with the frame's pose and palette, by an orthographic camera looking up from the ground
 * (the bottom of the framed box) into a depth map; two separable blur passes turn depth into darkness; a
 * square on the ground, centred under the box, darkens what is behind it, drawn after the model with the
 * depth test so the model hides it. Caller-owned, one per view (views sharing a context each keep theirs);
 * call {@link draw} right after the model's draw, in the same frame. GL objects are made on first use and
 * restore themselves after a context loss (src/gpu/device/). Frames allocate nothing.
 */
export class ContactShadow {
  private gl: WebGL2RenderingContext | null = null;
  private size = 0;
  private maxSize = 0;
  private depth: Target | null = null;
  private blurA: Target | null = null;
  private blurB: Target | null = null;
  private blurShader: ShaderProgram | null = null;
  private groundShader: ShaderProgram | null = null;
  private readonly blurAt: Record<string, WebGLUniformLocation | null> = {};
  private readonly groundAt: Record<string, WebGLUniformLocation | null> = {};
  private readonly shadowCamera: CameraMatrices = { view: new Float32Array(16), projection: new Float32Array(16), eye: new Float32Array(3) };
  private readonly target = new Float32Array(3);
  private readonly up = new Float32Array([0, 0, 1]);
  private readonly groundViewProjection = new Float32Array(16);

  /**
   * Draws the shadow `caster` casts under `bounds` into the bound default framebuffer; nothing when the
   * intensity is 0. Leaves the renderer's state as its draw does (depth test on, blending off, its last
   * view-projection the main camera's).
   * @param bounds the box of what casts, in the space the caster's camera sees (display space, metres)
   * @param animated whether the model moves (a square twice its largest dimension, as model-viewer)
   * @param resolutionScale the depth map's resolution over model-viewer's (≥ 1; a crowd's shadow spans many
   *   characters), capped by the GPU's texture limit
   */
  draw(caster: ShadowCaster, bounds: ShadowBounds, settings: Readonly<ContactShadowSettings>, animated: boolean, resolutionScale = 1): void {
    const intensity = Math.min(1, Math.max(0, settings.intensity));
    if (!(intensity > 0)) return;
    const renderer = caster.renderer;
    if (renderer.contextLost) return;
    const softness = Math.min(1, Math.max(0, settings.softness));
    const gl = renderer.gl;
    const scale = animated ? ANIMATION_SCALING : 1;
    const base = Math.round(Math.max(1, resolutionScale) * scale * 2 ** (LOG_MAX_RESOLUTION - softness * (LOG_MAX_RESOLUTION - LOG_MIN_RESOLUTION)));
    this.prepare(gl, base + TAP_PAD);
    const size = this.size;
    const { min, max } = bounds;
    const height = Math.max(1e-6, max[1] - min[1]);
    const largest = Math.max(max[0] - min[0], height, max[2] - min[2]) * scale;
    const half = 0.5 * largest * (1 + TAP_PAD / base);
    const cx = 0.5 * (min[0] + max[0]), cz = 0.5 * (min[2] + max[2]);
    const ground = min[1];
    const far = lerp(height * scale, height / 2, softness);

    // The model from below: view x = display x, view y = display z, looking up +Y from the ground.
    const camera = this.shadowCamera;
    camera.eye[0] = cx; camera.eye[1] = ground; camera.eye[2] = cz;
    this.target[0] = cx; this.target[1] = ground + 1; this.target[2] = cz;
    mat4.lookAt(camera.view, camera.eye, this.target, this.up);
    mat4.ortho(camera.projection, -half, half, -half, half, 0, far);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.depth!.framebuffer);
    gl.viewport(0, 0, size, size);
    gl.colorMask(false, false, false, false);
    gl.clearDepth(1);
    gl.clear(gl.DEPTH_BUFFER_BIT);
    caster.drawDepth(camera);
    gl.colorMask(true, true, true, true);
    caster.restoreCamera();

    // Depth → darkness, blurred across then along (model-viewer scales depth by 1 / softness: hard is opaque).
    gl.disable(gl.DEPTH_TEST);
    gl.depthMask(false);
    gl.disable(gl.CULL_FACE);
    gl.disable(gl.BLEND);
    gl.bindVertexArray(null);
    gl.useProgram(this.blurProgram);
    gl.uniform1i(this.blurAt.u_source, 0);
    gl.activeTexture(gl.TEXTURE0);
    this.blurPass(gl, this.depth!, this.blurA!, 1 / size, 0, true, softness > 0 ? 1 / softness : 1e6);
    this.blurPass(gl, this.blurA!, this.blurB!, 0, 1 / size, false, 1);

    // The square on the ground, a hair above it (model-viewer: 0.001 × its size) so it does not fight a floor.
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, caster.width, caster.height);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(this.groundProgram);
    const at = this.groundAt;
    mat4.multiply(this.groundViewProjection, caster.camera.projection, caster.camera.view);
    gl.uniform1i(at.u_ground, 1);
    gl.uniformMatrix4fv(at.u_viewProjection, false, this.groundViewProjection);
    gl.uniform3f(at.u_center, cx, ground + 0.001 * largest, cz);
    gl.uniform1f(at.u_halfSide, half);
    gl.uniform1f(at.u_opacity, intensity * lerp(HARD_INTENSITY, 1, softness * softness));
    gl.uniform1i(at.u_source, 0);
    gl.bindTexture(gl.TEXTURE_2D, this.blurB!.texture);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.disable(gl.BLEND);
    gl.depthMask(true);
  }

  private blurPass(gl: WebGL2RenderingContext, from: Target, to: Target, du: number, dv: number, fromDepth: boolean, depthScale: number): void {
    gl.bindFramebuffer(gl.FRAMEBUFFER, to.framebuffer);
    gl.bindTexture(gl.TEXTURE_2D, from.texture);
    gl.uniform1i(this.blurAt.u_ground, 0);
    gl.uniform2f(this.blurAt.u_step, du, dv);
    gl.uniform1i(this.blurAt.u_fromDepth, fromDepth ? 1 : 0);
    gl.uniform1f(this.blurAt.u_depthScale, depthScale);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  private get blurProgram(): WebGLProgram | null {
    return this.blurShader?.handle ?? null;
  }

  private get groundProgram(): WebGLProgram | null {
    return this.groundShader?.handle ?? null;
  }

  /** Makes the programs (once per context) and the targets (again when `size`, clamped to the GPU's, changes). */
  private prepare(gl: WebGL2RenderingContext, size: number): void {
    if (this.gl !== gl) {
      this.release();
      this.gl = gl;
      this.maxSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
      // Locations are read again at each link (a context restore links again).
      this.blurShader = new ShaderProgram(gl, { name: 'shadow/quad.vert+blur.frag', vertex: quadSource, fragment: blurSource }, (program) => {
        for (const name of ['u_ground', 'u_source', 'u_step', 'u_fromDepth', 'u_depthScale']) this.blurAt[name] = gl.getUniformLocation(program, name);
      });
      this.groundShader = new ShaderProgram(gl, { name: 'shadow/quad.vert+ground.frag', vertex: quadSource, fragment: groundSource }, (program) => {
        for (const name of ['u_ground', 'u_viewProjection', 'u_center', 'u_halfSide', 'u_source', 'u_opacity']) {
          this.groundAt[name] = gl.getUniformLocation(program, name);
        }
      });
    }
    size = Math.min(size, this.maxSize);
    if (this.size === size) return;
    this.releaseTargets();
    this.size = size;
    this.depth = makeTarget(gl, size, true);
    this.blurA = makeTarget(gl, size, false);
    this.blurB = makeTarget(gl, size, false);
  }

  private releaseTargets(): void {
    for (const t of [this.depth, this.blurA, this.blurB]) if (t) for (const r of t.resources) r.dispose();
    this.depth = this.blurA = this.blurB = null;
    this.size = 0;
  }

  private release(): void {
    this.releaseTargets();
    this.blurShader?.dispose();
    this.groundShader?.dispose();
    this.blurShader = this.groundShader = null;
  }

  /** Deletes the GL objects (only drops them while the context is lost). Safe to call twice. */
  dispose(): void {
    this.release();
    this.gl = null;
  }
}

/**
 * A `size²` target: a DEPTH_COMPONENT24 texture (the model seen from below) or an R8 one (darkness), and its
 * framebuffer. Both come back empty after a context loss: every shadow draws them again.
 */
function makeTarget(gl: WebGL2RenderingContext, size: number, depth: boolean): Target {
  // Depth textures are not filterable in WebGL2: NEAREST for the depth, LINEAR for the ground's darkness.
  const filter = depth ? gl.NEAREST : gl.LINEAR;
  const texture = new RenderTexture(gl, {
    target: gl.TEXTURE_2D, internalFormat: depth ? gl.DEPTH_COMPONENT24 : gl.R8, width: size, height: size, levels: 1,
    minFilter: filter, magFilter: filter, label: depth ? 'shadow depth' : 'shadow blur',
  });
  const framebuffer = new Framebuffer(gl, depth ? gl.DEPTH_ATTACHMENT : gl.COLOR_ATTACHMENT0, texture, 'shadow target');
  return {
    get texture() { return texture.handle; },
    get framebuffer() { return framebuffer.handle; },
    resources: [texture, framebuffer],
  };
}
