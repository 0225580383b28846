/**
 * A decoded equirectangular (latitude-longitude) environment image, `width` × `height` texels (width = 2 ×
 * height for a full sphere), row 0 the image's top (straight up), u = 0.5 facing −X… as three.js maps one
 * (docs/guide/lighting.md). Either linear radiance from a Radiance `.hdr` (`rgb`: RGB float32,
 * 3·width·height, row-major from the top) or an sRGB-encoded PNG/JPEG decoded by the browser (`bitmap`).
 * `name` is the URL it came from (error messages). Immutable once made.
 */
export interface EquirectImage {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly rgb: Float32Array | null;
  readonly bitmap: ImageBitmap | null;
}
