import vertexSource from '../../../shaders/environment/fullscreen.vert?raw';
import commonSource from '../../../shaders/environment/common.glsl?raw';
import studioSource from '../../../shaders/environment/studio.frag?raw';
import filterSource from '../../../shaders/environment/filter.frag?raw';
import brdfLutSource from '../../../shaders/environment/brdf-lut.frag?raw';
import roomSource from '../../../shaders/environment/room.frag?raw';
import equirectSource from '../../../shaders/environment/equirect.frag?raw';
import { compileProgram, deleteProgram } from '../device/shader-program.ts';
import { GpuContext } from '../device/gpu-context.ts';
import { RenderTexture } from '../device/render-texture.ts';
import { setRoomUniforms, type RoomScene } from './room-environments.ts';
import { createEnvironmentLight, environmentLightFromCube, type EnvironmentLight } from './environment-light.ts';

/** Face width of the environment cube map the filters read (level 0, with a full mip chain). */
export const ENVIRONMENT_SIZE = 128;
/** Face width of level 0 of the GGX-prefiltered specular cube map (roughness 0). */
export const SPECULAR_SIZE = 128;
/** Mip levels of the specular cube map: level i holds roughness i / (levels − 1), faces `SPECULAR_SIZE >> i` wide. */
export const SPECULAR_LEVELS = 6;
/** Face width of the Lambertian (irradiance / π) cube map. */
export const DIFFUSE_SIZE = 32;
/** Width and height of the BRDF integration table (x = n·v, y = roughness). */
export const BRDF_LUT_SIZE = 128;
/** Face width of the environment cube's mip level read back for its {@link EnvironmentLight} (bands 0–2 need few texels). */
export const LIGHT_READBACK_SIZE = 8;
/** Importance samples per texel: GGX prefilter, Lambertian, BRDF table. Filtered importance sampling keeps them few. */
export const GGX_SAMPLES = 32;
export const LAMBERTIAN_SAMPLES = 64;
export const BRDF_LUT_SAMPLES = 64;

/**
 * What an {@link ImageBasedLighting} is made from: Sinew's `studio` (shaders/environment/studio.frag), one of
 * model-viewer's generated rooms (src/gpu/shading/room-environments.ts, shaders/environment/room.frag), or an
 * equirectangular image already uploaded as a 2D texture (`texture`: a resource, read as it is at each
 * prefilter; `width` texels wide, with a full mip chain; shaders/environment/equirect.frag; the caller keeps
 * owning it).
 */
export type EnvironmentSource =
  | { readonly kind: 'studio' }
  | { readonly kind: 'room'; readonly scene: RoomScene }
  | { readonly kind: 'equirect'; readonly texture: { readonly handle: WebGLTexture }; readonly width: number };

const STUDIO: EnvironmentSource = { kind: 'studio' };

/**
 * The image-based lighting a model is lit by (by default Sinew's studio environment, `shaders/environment/studio.frag`,
 * generated, nothing downloaded; or another {@link EnvironmentSource}) prefiltered on the GPU for the split-sum approximation (Karis 2013), as the
 * Khronos glTF Sample Viewer prefilters its environments:
 * - `specular`: cube map, GGX-prefiltered radiance, {@link SPECULAR_LEVELS} mip levels (level i: roughness
 *   i/(levels − 1));
 * - `diffuse`: cube map, Lambertian irradiance / π ({@link DIFFUSE_SIZE}² faces);
 * - `brdfLut`: 2D table of the GGX split-sum scale and bias of F0 in R and G ({@link BRDF_LUT_SIZE}²).
 * Textures are RGBA16F when the context can render to half floats (EXT_color_buffer_float or
 * EXT_color_buffer_half_float), else RGBA8 (an LDR environment: the area lights clip at 1).
 *
 * - `light`: the environment split into a key light and an SH ambient for MToon ({@link EnvironmentLight}), from
 *   the environment cube's {@link LIGHT_READBACK_SIZE}² mip level read back once per prefilter.
 *
 * Prefiltered synchronously by the constructor, and again by {@link restore} after a context loss (a resource
 * of kind `environment` of the context's {@link GpuContext}: restored after its textures, which come back
 * empty); each prefilter leaves the framebuffer binding null, the viewport unset, depth test, blending,
 * culling and scissor disabled. Owns its textures: {@link dispose}.
 */
export class ImageBasedLighting {
  readonly kind = 'environment';
  /** Whether the textures are RGBA16F (true) or RGBA8. */
  readonly highDynamicRange: boolean;
  /** The key light and ambient MToon shades with; rewritten in place by each prefilter (a context restore). */
  readonly light: EnvironmentLight = createEnvironmentLight();
  private readonly specularTexture: RenderTexture;
  private readonly diffuseTexture: RenderTexture;
  private readonly brdfLutTexture: RenderTexture;
  private readonly device: GpuContext;
  private disposed = false;

  /**
   * @throws Error when a pass's program fails to build or GL objects cannot be created (context lost)
   */
  constructor(private readonly gl: WebGL2RenderingContext, private readonly source: EnvironmentSource = STUDIO) {
    const device = GpuContext.of(gl);
    // Through the device, so a restored context has them again before the textures are drawn into.
    this.highDynamicRange = device.extension('EXT_color_buffer_float') !== null || device.extension('EXT_color_buffer_half_float') !== null;
    const internalFormat = this.highDynamicRange ? gl.RGBA16F : gl.RGBA8;
    const cube = (size: number, levels: number, label: string) => new RenderTexture(gl, {
      target: gl.TEXTURE_CUBE_MAP, internalFormat, width: size, height: size, levels,
      minFilter: levels > 1 ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR, magFilter: gl.LINEAR, label,
    });
    this.specularTexture = cube(SPECULAR_SIZE, SPECULAR_LEVELS, 'specular environment');
    this.diffuseTexture = cube(DIFFUSE_SIZE, 1, 'diffuse environment');
    this.brdfLutTexture = new RenderTexture(gl, {
      target: gl.TEXTURE_2D, internalFormat, width: BRDF_LUT_SIZE, height: BRDF_LUT_SIZE, levels: 1,
      minFilter: gl.LINEAR, magFilter: gl.LINEAR, label: 'BRDF table',
    });
    this.device = device;
    try {
      this.restore();
    } catch (error) {
      this.dispose();
      throw error;
    }
    this.device.add(this);
  }

  /** GGX-prefiltered radiance cube map. */
  get specular(): WebGLTexture {
    return this.specularTexture.handle;
  }

  /** Lambertian irradiance / π cube map. */
  get diffuse(): WebGLTexture {
    return this.diffuseTexture.handle;
  }

  /** The BRDF split-sum table. */
  get brdfLut(): WebGLTexture {
    return this.brdfLutTexture.handle;
  }

  /**
   * Draws the three textures (their storage made by their own restore): the environment's passes, run by the
   * constructor and by the context's restore.
   * @throws Error when a pass's program fails to build
   */
  restore(): void {
    const gl = this.gl, source = this.source;
    const internalFormat = this.highDynamicRange ? gl.RGBA16F : gl.RGBA8;
    const build = (name: string, fragment: string) => compileProgram(gl, {
      name: `fullscreen.vert+${name}`,
      vertex: vertexSource,
      fragment: `#version 300 es\n${commonSource}\n${fragment}`,
    });
    const studio = source.kind === 'studio' ? build('studio.frag', studioSource)
      : source.kind === 'room' ? build('room.frag', roomSource) : build('equirect.frag', equirectSource);
    const filter = build('filter.frag', filterSource);
    const lut = build('brdf-lut.frag', brdfLutSource);
    const framebuffer = gl.createFramebuffer();
    const vao = gl.createVertexArray();
    try {
      gl.disable(gl.DEPTH_TEST);
      gl.disable(gl.BLEND);
      gl.disable(gl.CULL_FACE);
      gl.disable(gl.SCISSOR_TEST);
      gl.disable(gl.RASTERIZER_DISCARD);
      gl.bindVertexArray(vao);
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);

      const scratchCube = (size: number, levels: number): WebGLTexture => {
        const texture = gl.createTexture();
        if (!texture) throw new Error('ImageBasedLighting: gl.createTexture failed (context lost?)');
        gl.bindTexture(gl.TEXTURE_CUBE_MAP, texture);
        gl.texStorage2D(gl.TEXTURE_CUBE_MAP, levels, internalFormat, size, size);
        gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, levels > 1 ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        for (const wrap of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R]) gl.texParameteri(gl.TEXTURE_CUBE_MAP, wrap, gl.CLAMP_TO_EDGE);
        return texture;
      };
      /** Runs `program` once per face of `level` of `texture` (u_face, u_size set). */
      const eachFace = (program: WebGLProgram, texture: WebGLTexture, level: number, size: number) => {
        gl.viewport(0, 0, size, size);
        gl.uniform1f(gl.getUniformLocation(program, 'u_size'), size);
        for (let face = 0; face < 6; face++) {
          gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_CUBE_MAP_POSITIVE_X + face, texture, level);
          gl.uniform1i(gl.getUniformLocation(program, 'u_face'), face);
          gl.drawArrays(gl.TRIANGLES, 0, 3);
        }
      };

      // 1. The environment at full size, then its mip chain (what filtered importance sampling reads).
      const sourceLevels = Math.log2(ENVIRONMENT_SIZE) + 1;
      const base = scratchCube(ENVIRONMENT_SIZE, sourceLevels);
      gl.useProgram(studio);
      if (source.kind === 'room') setRoomUniforms(gl, studio, source.scene);
      if (source.kind === 'equirect') {
        gl.activeTexture(gl.TEXTURE1);
        gl.bindTexture(gl.TEXTURE_2D, source.texture.handle);
        gl.activeTexture(gl.TEXTURE0);
        gl.uniform1i(gl.getUniformLocation(studio, 'u_equirect'), 1);
      }
      const lod = (faceSize: number) => {
        // The equirect's texel angle 2π/width against the face's (π/2)/faceSize.
        if (source.kind === 'equirect') gl.uniform1f(gl.getUniformLocation(studio, 'u_lod'), Math.max(0, Math.log2(source.width / (4 * faceSize))));
      };
      lod(ENVIRONMENT_SIZE);
      eachFace(studio, base, 0, ENVIRONMENT_SIZE);
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, base);
      gl.generateMipmap(gl.TEXTURE_CUBE_MAP);
      this.readLight(framebuffer!, base);
      // Roughness 0 is the environment itself (a mirror): drawn directly, not filtered.
      const specular = this.specular;
      lod(SPECULAR_SIZE);
      eachFace(studio, specular, 0, SPECULAR_SIZE);
      if (source.kind === 'equirect') {
        gl.activeTexture(gl.TEXTURE1);
        gl.bindTexture(gl.TEXTURE_2D, null);
        gl.activeTexture(gl.TEXTURE0);
      }

      // 2. GGX-prefiltered specular levels 1… and the Lambertian cube, from the source on unit 0.
      const diffuse = this.diffuse;
      gl.useProgram(filter);
      const at = (name: string) => gl.getUniformLocation(filter, name);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, base);
      gl.uniform1i(at('u_source'), 0);
      gl.uniform1f(at('u_sourceSize'), ENVIRONMENT_SIZE);
      gl.uniform1i(at('u_lambertian'), 0);
      gl.uniform1i(at('u_sampleCount'), GGX_SAMPLES);
      for (let level = 1; level < SPECULAR_LEVELS; level++) {
        gl.uniform1f(at('u_roughness'), level / (SPECULAR_LEVELS - 1));
        eachFace(filter, specular, level, SPECULAR_SIZE >> level);
      }
      gl.uniform1i(at('u_lambertian'), 1);
      gl.uniform1i(at('u_sampleCount'), LAMBERTIAN_SAMPLES);
      eachFace(filter, diffuse, 0, DIFFUSE_SIZE);
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, null);
      gl.deleteTexture(base);

      // 3. The BRDF table (independent of the environment).
      const table = this.brdfLut;
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, table, 0);
      gl.useProgram(lut);
      gl.viewport(0, 0, BRDF_LUT_SIZE, BRDF_LUT_SIZE);
      gl.uniform1f(gl.getUniformLocation(lut, 'u_size'), BRDF_LUT_SIZE);
      gl.uniform1i(gl.getUniformLocation(lut, 'u_sampleCount'), BRDF_LUT_SAMPLES);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    } finally {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.bindVertexArray(null);
      gl.useProgram(null);
      gl.deleteFramebuffer(framebuffer);
      gl.deleteVertexArray(vao);
      deleteProgram(gl, studio);
      deleteProgram(gl, filter);
      deleteProgram(gl, lut);
    }
  }

  /**
   * Reads level log2(ENVIRONMENT_SIZE / LIGHT_READBACK_SIZE) of the environment cube `base` (its box-filtered mip)
   * through `framebuffer` (bound) and splits it into {@link light}. Once per prefilter: a synchronous readback,
   * six faces of {@link LIGHT_READBACK_SIZE}² texels.
   */
  private readLight(framebuffer: WebGLFramebuffer, base: WebGLTexture): void {
    const gl = this.gl, size = LIGHT_READBACK_SIZE;
    const level = Math.log2(ENVIRONMENT_SIZE / size);
    const faces = new Float32Array(6 * size * size * 4);
    const bytes = this.highDynamicRange ? null : new Uint8Array(size * size * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    for (let face = 0; face < 6; face++) {
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_CUBE_MAP_POSITIVE_X + face, base, level);
      if (bytes) {
        gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, bytes);
        for (let i = 0; i < bytes.length; i++) faces[face * bytes.length + i] = bytes[i] / 255;
      } else {
        gl.readPixels(0, 0, size, size, gl.RGBA, gl.FLOAT, faces.subarray(face * size * size * 4, (face + 1) * size * size * 4));
      }
    }
    environmentLightFromCube(this.light, faces, size);
  }

  /** Deletes the textures (forgets them when the context is lost). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.device?.remove(this);
    this.specularTexture.dispose();
    this.diffuseTexture.dispose();
    this.brdfLutTexture.dispose();
  }
}
