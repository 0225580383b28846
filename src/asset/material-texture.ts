/**
 * Which texture coordinates a texture samples: the set (glTF `textureInfo.texCoord`, or the
 * KHR_texture_transform `texCoord` that overrides it) and the transform applied to them.
 */
export interface TextureCoordinates {
  /** 0: `PrimitiveAsset.uvs` (TEXCOORD_0); 1: `PrimitiveAsset.uvs1` (TEXCOORD_1). */
  readonly texCoord: 0 | 1;
  /** KHR_texture_transform; absent: identity. */
  readonly transform?: TextureTransform;
}

/**
 * KHR_texture_transform: uv′ = T(offset) · R(rotation) · S(scale) · (u, v, 1), with R rotating by
 * `rotation` radians counter-clockwise in UV space (the extension's matrix: rows (cos r, sin r) and (−sin r, cos r)).
 */
export interface TextureTransform {
  /** (u, v) added last [0, 0]. */
  readonly offset: readonly [number, number];
  /** Radians [0]. */
  readonly rotation: number;
  /** (u, v) factors applied first [1, 1]. */
  readonly scale: readonly [number, number];
}

/** A texture of a material other than the base colour: the image, how it is sampled, and with which coordinates. */
export interface MaterialTexture extends TextureCoordinates {
  /** Index into `ModelAsset.images`. */
  readonly image: number;
  /** The glTF texture's sampler; absent: glTF's defaults. */
  readonly sampler?: TextureSampler;
}

/**
 * Texture sampling state as glTF 2.0 §5.26 "Sampler" gives it, in WebGL enum values. Absent filters are the
 * client's choice: Sinew then filters trilinearly (LINEAR magnification, LINEAR_MIPMAP_LINEAR minification).
 */
export interface TextureSampler {
  /** 33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT or 10497 REPEAT (default). */
  readonly wrapS: number;
  /** As `wrapS`, for the v coordinate. */
  readonly wrapT: number;
  /** 9728 NEAREST or 9729 LINEAR, or undefined. */
  readonly magFilter?: number;
  /** NEAREST, LINEAR, or one of the mipmap filters 9984–9987 (mipmaps are generated only for these), or undefined. */
  readonly minFilter?: number;
}
