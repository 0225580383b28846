import { GpuResource } from './gpu-resource.ts';

/** What a {@link DataTexture} is made of besides its context. */
export interface DataTextureSpec {
  /** Sized internal format, e.g. RGBA32F, RG32F. */
  readonly internalFormat: number;
  readonly width: number;
  readonly height: number;
  /** Names the owner in error messages. */
  readonly label: string;
  /**
   * Texels uploaded now and again on restore (`format`, `type` below): kept by reference, or a function that
   * makes them again (packed from an asset, so the packing is not kept); absent for a texture whose contents its
   * owner rewrites before each use (a palette): restored to its size only.
   */
  readonly contents?: { readonly format: number; readonly type: number; readonly texels: ArrayBufferView<ArrayBuffer> | (() => ArrayBufferView<ArrayBuffer>) };
}

/**
 * An immutable float texture for data the vertex shader reads with `texelFetch` (palettes, instance blocks,
 * morph deltas and active lists, influence overflow): `width × height` texels of `internalFormat`, one
 * level, NEAREST filtering and CLAMP_TO_EDGE (`texStorage2D`, WebGL 2.0 §3.7.6). Contents as
 * {@link DataTextureSpec.contents} says. Leaves it bound to TEXTURE_2D of the active unit after each fill.
 */
export class DataTexture extends GpuResource<WebGLTexture> {
  readonly kind = 'texture';
  readonly width: number;
  readonly height: number;

  /** @throws Error when the texture cannot be made (context lost) */
  constructor(gl: WebGL2RenderingContext, private readonly spec: DataTextureSpec) {
    super(gl);
    this.width = spec.width;
    this.height = spec.height;
    void this.start();
  }

  protected create(): WebGLTexture | null {
    return this.gl.createTexture();
  }

  protected fill(texture: WebGLTexture): void {
    const gl = this.gl, spec = this.spec;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texStorage2D(gl.TEXTURE_2D, 1, spec.internalFormat, spec.width, spec.height);
    if (spec.contents) {
      const { texels } = spec.contents;
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, spec.width, spec.height, spec.contents.format, spec.contents.type, typeof texels === 'function' ? texels() : texels);
    }
  }

  protected destroy(texture: WebGLTexture): void {
    this.gl.deleteTexture(texture);
  }

  protected override describe(): string {
    return this.spec.label;
  }
}

