/**
 * Allocates an immutable float texture for data the vertex shader reads with `texelFetch` (palettes, instance
 * blocks, morph deltas and active lists, influence overflow): `width × height` texels of `internalFormat`
 * (e.g. RGBA32F, RG32F), one level, NEAREST filtering and CLAMP_TO_EDGE, contents undefined until the caller's
 * `texSubImage2D`. Leaves it bound to TEXTURE_2D of the active unit.
 * @param owner names the caller in the error message
 * @throws Error when the texture cannot be created (context lost)
 */
export function createDataTexture(
  gl: WebGL2RenderingContext, internalFormat: number, width: number, height: number, owner: string,
): WebGLTexture {
  const texture = gl.createTexture();
  if (!texture) throw new Error(`${owner}: gl.createTexture failed (context lost?)`);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.texStorage2D(gl.TEXTURE_2D, 1, internalFormat, width, height);
  return texture;
}
