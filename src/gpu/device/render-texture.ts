import { GpuResource } from './gpu-resource.ts';

/** What a {@link RenderTexture} is made of besides its context. */
export interface RenderTextureSpec {
  /** `TEXTURE_2D` or `TEXTURE_CUBE_MAP`. */
  readonly target: number;
  /** Sized internal format (RGBA16F, RGBA8, R8, DEPTH_COMPONENT24…). */
  readonly internalFormat: number;
  /** Width and height of level 0 (a cube map's faces are square). */
  readonly width: number;
  readonly height: number;
  /** Mip levels allocated (1: none). */
  readonly levels: number;
  /** MIN and MAG filters. */
  readonly minFilter: number;
  readonly magFilter: number;
  readonly label: string;
}

/**
 * A texture passes render into (environment cube maps, shadow targets): immutable storage (`texStorage2D`,
 * WebGL 2.0 §3.7.6), CLAMP_TO_EDGE, contents undefined until drawn. A restore allocates it again at the same
 * size; whoever draws into it draws again (every frame, or the environment's restore). Leaves the target unbound.
 */
export class RenderTexture extends GpuResource<WebGLTexture> {
  readonly kind = 'texture';

  /** @throws Error when the texture cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext, readonly spec: RenderTextureSpec) {
    super(gl);
    void this.start();
  }

  protected create(): WebGLTexture | null {
    return this.gl.createTexture();
  }

  protected fill(texture: WebGLTexture): void {
    const gl = this.gl, s = this.spec;
    gl.bindTexture(s.target, texture);
    gl.texStorage2D(s.target, s.levels, s.internalFormat, s.width, s.height);
    gl.texParameteri(s.target, gl.TEXTURE_MIN_FILTER, s.minFilter);
    gl.texParameteri(s.target, gl.TEXTURE_MAG_FILTER, s.magFilter);
    gl.texParameteri(s.target, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(s.target, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    if (s.target === gl.TEXTURE_CUBE_MAP) gl.texParameteri(s.target, gl.TEXTURE_WRAP_R, gl.CLAMP_TO_EDGE);
    gl.bindTexture(s.target, null);
  }

  protected destroy(texture: WebGLTexture): void {
    this.gl.deleteTexture(texture);
  }

  protected override describe(): string {
    return this.spec.label;
  }
}
