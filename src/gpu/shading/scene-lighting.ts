import { mat4 } from 'gl-matrix';
import vertexSource from '../../../shaders/environment/fullscreen.vert?raw';
import skyboxSource from '../../../shaders/environment/skybox.frag?raw';
import type { EquirectImage } from '../../asset/equirect-image.ts';
import { ImageBasedLighting, type EnvironmentSource } from './image-based-lighting.ts';
import { LEGACY_ROOM, NEUTRAL_ROOM } from './room-environments.ts';
import { ShaderProgram } from '../device/shader-program.ts';
import { VertexArray } from '../device/vertex-array.ts';
import { EquirectTexture } from './equirect-texture.ts';
import { toneMappingOperator, withToneMapping, type ToneMapping } from './tone-mapping.ts';

/**
 * An environment: Sinew's `studio` (the default), model-viewer's generated `neutral` or `legacy` room, or an
 * equirectangular image ({@link EquirectImage}: a Radiance .hdr or a PNG/JPEG).
 */
export type EnvironmentChoice = 'studio' | 'neutral' | 'legacy' | EquirectImage;

/**
 * The light of one view's draws (model-viewer's `environment-image`, `skybox-image`, `exposure`,
 * `tone-mapping`). Views sharing one renderer each pass their own to {@link LightingLibrary.select} before
 * drawing, so nothing of one view's light is left for the next.
 */
export interface SceneLighting {
  /** What lights the model. */
  environment: EnvironmentChoice;
  /** Drawn behind the model, or null (the clear colour shows). */
  skybox: EquirectImage | null;
  /** Linear multiplier of radiance before tone mapping (model-viewer's `exposure`, three's toneMappingExposure); ≥ 0. */
  exposure: number;
  toneMapping: ToneMapping;
}

/** Sinew's default light: the studio environment, no skybox, exposure 1, Khronos PBR Neutral. */
export const DEFAULT_LIGHTING: Readonly<SceneLighting> = Object.freeze({
  environment: 'studio', skybox: null, exposure: 1, toneMapping: 'neutral',
});

/** Prefiltered environments of images kept at most; the least recently selected goes first (rebuilt if selected again). */
export const MAX_CACHED_ENVIRONMENTS = 8;

interface ImageEntry {
  readonly texture: EquirectTexture;
  lighting: ImageBasedLighting | null;
}

/**
 * The renderer's environments and skybox pass, per context: built-ins prefiltered on first use (studio at
 * once), images uploaded (RGB16F or SRGB8_ALPHA8 with mip chain) and prefiltered on first use and cached by
 * image object (at most {@link MAX_CACHED_ENVIRONMENTS}). {@link select} makes one the current light
 * (`current`, `exposure`, `operator` for the draws) and draws its skybox. Its GL objects are resources
 * (src/gpu/device/): they restore themselves after a context loss.
 */
export class LightingLibrary {
  /** The light the next draws bind. */
  current: ImageBasedLighting;
  /** The draws' `u_exposure` and `u_toneMapping`. */
  exposure = 1;
  operator = 0;
  private readonly builtIns = new Map<string, ImageBasedLighting>();
  private readonly images = new Map<EquirectImage, ImageEntry>();
  private skyProgram: ShaderProgram | null = null;
  private readonly skyLocations: Record<string, WebGLUniformLocation | null> = {};
  /** An empty vertex array: the skybox's full-screen triangle comes from gl_VertexID. */
  private readonly vao: VertexArray;
  private readonly rotationOnly = mat4.create();
  private readonly inverse = mat4.create() as Float32Array;

  /** @throws Error as {@link ImageBasedLighting}'s constructor */
  constructor(private readonly gl: WebGL2RenderingContext) {
    this.current = new ImageBasedLighting(gl);
    this.builtIns.set('studio', this.current);
    this.vao = new VertexArray(gl, () => {}, 'skybox vertex array');
  }

  /**
   * Makes `lighting` the light of the draws that follow and, when it has a skybox, draws it over the
   * `width` × `height` viewport (depth untouched; call after beginFrame, before the model). Prefilters an
   * environment not seen yet (a few milliseconds on the GPU). `camera` as the renderer's draws take it.
   * @throws Error when a pass fails to build, or an image is larger than the context's textures can be
   */
  select(lighting: Readonly<SceneLighting>, view: Float32Array, projection: Float32Array, width: number, height: number): void {
    this.current = this.environmentOf(lighting.environment);
    // A new environment was prefiltered: its passes left the viewport and depth test elsewhere.
    this.gl.viewport(0, 0, width, height);
    this.gl.enable(this.gl.DEPTH_TEST);
    this.exposure = lighting.exposure;
    this.operator = toneMappingOperator(lighting.toneMapping);
    if (lighting.skybox) this.drawSkybox(lighting.skybox, view, projection, width, height);
  }

  private environmentOf(choice: EnvironmentChoice): ImageBasedLighting {
    if (typeof choice === 'string') {
      let lighting = this.builtIns.get(choice);
      if (!lighting) {
        const source: EnvironmentSource = choice === 'studio' ? { kind: 'studio' } : { kind: 'room', scene: choice === 'neutral' ? NEUTRAL_ROOM : LEGACY_ROOM };
        lighting = new ImageBasedLighting(this.gl, source);
        this.builtIns.set(choice, lighting);
      }
      return lighting;
    }
    const entry = this.imageEntry(choice);
    entry.lighting ??= new ImageBasedLighting(this.gl, { kind: 'equirect', texture: entry.texture, width: choice.width });
    return entry.lighting;
  }

  /** The image's texture (uploaded on first use), most recently used last in {@link images}. */
  private imageEntry(image: EquirectImage): ImageEntry {
    let entry = this.images.get(image);
    if (entry) {
      this.images.delete(image);
      this.images.set(image, entry);
      return entry;
    }
    const gl = this.gl;
    const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    if (image.width > max || image.height > max) {
      throw new Error(`${image.name}: ${image.width} × ${image.height} is larger than this GPU's textures (${max})`);
    }
    const texture = new EquirectTexture(gl, image);
    entry = { texture, lighting: null };
    this.images.set(image, entry);
    while (this.images.size > MAX_CACHED_ENVIRONMENTS) {
      const [oldest, old] = this.images.entries().next().value!;
      this.images.delete(oldest);
      old.texture.dispose();
      old.lighting?.dispose();
    }
    return entry;
  }

  private drawSkybox(image: EquirectImage, view: Float32Array, projection: Float32Array, width: number, height: number): void {
    const gl = this.gl;
    const entry = this.imageEntry(image);
    // Locations are read again at each link (a context restore links it again).
    this.skyProgram ??= new ShaderProgram(gl, { name: 'fullscreen.vert+skybox.frag', vertex: vertexSource, fragment: withToneMapping(skyboxSource) }, (program) => {
      for (const name of ['u_inverseViewProjection', 'u_viewportSize', 'u_equirect', 'u_lod', 'u_exposure', 'u_toneMapping']) {
        this.skyLocations[name] = gl.getUniformLocation(program, name);
      }
    });
    const at = this.skyLocations;
    const m = this.rotationOnly;
    mat4.copy(m, view);
    m[12] = m[13] = m[14] = 0;
    mat4.multiply(m, projection, m);
    if (!mat4.invert(this.inverse, m)) return;
    gl.useProgram(this.skyProgram.handle);
    gl.uniformMatrix4fv(at.u_inverseViewProjection, false, this.inverse);
    gl.uniform2f(at.u_viewportSize, width, height);
    // A pixel spans about 2/(height · projection[5]) radians; the image's texels 2π/width.
    const pixelAngle = 2 / (height * Math.abs(projection[5]));
    gl.uniform1f(at.u_lod, Math.max(0, Math.log2(image.width * pixelAngle / (2 * Math.PI))));
    gl.uniform1f(at.u_exposure, this.exposure);
    gl.uniform1i(at.u_toneMapping, this.operator);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, entry.texture.handle);
    gl.uniform1i(at.u_equirect, 0);
    gl.disable(gl.DEPTH_TEST);
    gl.depthMask(false);
    gl.disable(gl.BLEND);
    gl.bindVertexArray(this.vao.handle);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
    gl.enable(gl.DEPTH_TEST);
    gl.depthMask(true);
  }

  /** Deletes every texture and program (forgets them while the context is lost). Idempotent. */
  dispose(): void {
    for (const lighting of this.builtIns.values()) lighting.dispose();
    for (const entry of this.images.values()) {
      entry.texture.dispose();
      entry.lighting?.dispose();
    }
    this.skyProgram?.dispose();
    this.vao.dispose();
    this.builtIns.clear();
    this.images.clear();
    this.skyProgram = null;
  }
}
