import { encodePngRgba } from './png-encode.ts';

/** Fills an RGBA8 image from a function of the texel centre's (u, v) in [0, 1] (v down the image, as glTF's). */
function image(size: number, texel: (u: number, v: number) => readonly [number, number, number, number]): Uint8Array {
  const rgba = new Uint8Array(4 * size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const value = texel((x + 0.5) / size, (y + 0.5) / size);
      for (let c = 0; c < 4; c++) rgba[4 * (y * size + x) + c] = Math.round(255 * Math.min(Math.max(value[c], 0), 1));
    }
  }
  return encodePngRgba(size, size, rgba);
}

const smooth = (edge0: number, edge1: number, x: number): number => {
  const t = Math.min(Math.max((x - edge0) / (edge1 - edge0), 0), 1);
  return t * t * (3 - 2 * t);
};

/**
 * The toon avatar's own textures, PNG bytes made in code (16–64 px; deterministic), by image name. Colour images
 * (`…ShadeMultiply`, `…Matcap`, `…RimMultiply`, `…Glow`, `PupilCatchlight`) hold sRGB values; the others data in
 * the channel MToon reads (VRMC_materials_mtoon-1.0 README: shading shift R, outline width G, UV animation mask B;
 * the normal map as glTF's tangent-space normal texture).
 */
export const AVATAR_TOON_IMAGES = {
  /** White, turning pink towards v = 1 (the shade warms down each part). */
  SkinShadeMultiply: () => image(16, (_u, v) => [1, 1 - 0.25 * v, 1 - 0.2 * v, 1]),
  /** G from 0.4 at v = 0 to 1 at v = 1: the outline thins towards each part's start (the head's crown). */
  SkinOutlineWidth: () => image(16, (_u, v) => [0, 0.4 + 0.6 * v, 0, 1]),
  /** R in [0, 1] in eight bands around u: strands of lighter and darker shading. */
  HairShadingShift: () => image(32, (u) => [0.5 + 0.5 * Math.sin(2 * Math.PI * 8 * u), 0, 0, 1]),
  /** A soft warm ring at 0.6–0.9 of the radius (a sheen near the silhouette), black elsewhere; symmetric in v. */
  HairMatcap: () => image(64, (u, v) => {
    const r = Math.hypot(2 * u - 1, 2 * v - 1);
    const ring = smooth(0.55, 0.72, r) * (1 - smooth(0.82, 0.95, r));
    return [ring, 0.9 * ring, 0.75 * ring, 1];
  }),
  /** Eight bands around u, white and dark grey: the rim broken into strands. */
  HairRimMultiply: () => image(32, (u) => (Math.floor(16 * u) % 2 === 0 ? [1, 1, 1, 1] : [0.3, 0.3, 0.3, 1])),
  /** White, with a round catchlight of alpha 0 up and to the side of the pupil's front (u 0.75, v 0.5). */
  PupilCatchlight: () => image(32, (u, v) => [1, 1, 1, Math.hypot(u - 0.7, 0.5 * (v - 0.3)) < 0.07 ? 0 : 1]),
  /** Bright diagonal stripes on black (an emission pattern the UV animation visibly moves). */
  BracerGlow: () => image(32, (u, v) => {
    const stripe = smooth(0.6, 0.8, 0.5 + 0.5 * Math.sin(2 * Math.PI * 3 * (u + v)));
    return [stripe, stripe, stripe, 1];
  }),
  /** Ridges around u: the tangent-space normal leans ±30° along u. */
  BracerRidges: () => image(32, (u) => {
    const lean = 0.5 * Math.sin(2 * Math.PI * 6 * u);
    const length = Math.hypot(lean, 1);
    return [0.5 + 0.5 * lean / length, 0.5, 0.5 + 0.5 / length, 1];
  }),
  /** B 1 in the middle band of v (its UVs animate), 0 at the ends (they hold still). */
  BracerUvMask: () => image(16, (_u, v) => [0, 0, v >= 0.25 && v < 0.75 ? 1 : 0, 1]),
} as const satisfies Record<string, () => Uint8Array>;

/** An image of the toon avatar: one of {@link AVATAR_TOON_IMAGES}, or the cheeks' stripes the PBR avatar has too. */
export type AvatarMToonImageName = keyof typeof AVATAR_TOON_IMAGES | 'CheekStripes';
