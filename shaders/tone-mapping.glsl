// Exposure and tone mapping, shared by shaders/lit.frag and shaders/environment/skybox.frag (inserted in place
// of their `#pragma tone-mapping` line by src/gpu/shading/tone-mapping.ts). model-viewer's `tone-mapping` set, with
// three.js's operators (model-viewer draws with three; three r187 `tonemapping_pars_fragment`):
//   0 neutral (model-viewer's default `auto`, `commerce`): the Khronos PBR Neutral tone mapper (Khronos 3D
//     Commerce, https://github.com/KhronosGroup/ToneMapping/tree/main/PBR_Neutral);
//   1 aces: three's ACESFilmicToneMapping, Stephen Hill's fit of the ACES RRT + ODT
//     (https://github.com/selfshadow/ltc_code/blob/master/webgl/shaders/ltc/ltc_blit.fs), input scaled by 1/0.6
//     as three does (three.js #19621);
//   2 agx: Troy Sobotka's AgX as Filament ports Blender's (google/filament #7236) with Benjamin Wrensch's
//     polynomial sigmoid (iolite-engine.com/blog_posts/minimal_agx_implementation), Rec. 2020 working space;
//   3 reinhard: c / (1 + c) (Reinhard et al. 2002);
//   4 cineon: Jim Hejl and Richard Burgess-Dawson's filmic curve (filmicworlds.com/blog/filmic-tonemapping-operators);
//   5 linear: exposure only, clamped to [0, 1];
//   6 none: no tone mapping and, as three does, no exposure either.
// u_exposure multiplies the linear radiance first (three's toneMappingExposure).
uniform float u_exposure;  // linear multiplier of radiance, 1 = as lit
uniform int u_toneMapping; // 0…6 above

vec3 toneMapPbrNeutral(vec3 color) {
  const float START = 0.8 - 0.04;
  const float DESATURATION = 0.15;
  float x = min(color.r, min(color.g, color.b));
  float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
  color -= offset;
  float peak = max(color.r, max(color.g, color.b));
  if (peak < START) return color;
  const float D = 1.0 - START;
  float newPeak = 1.0 - D * D / (peak + D - START);
  color *= newPeak / peak;
  float g = 1.0 - 1.0 / (DESATURATION * (peak - newPeak) + 1.0);
  return mix(color, vec3(newPeak), g);
}

vec3 toneMapAces(vec3 color) {
  // Column-major: sRGB → XYZ → D65→D60 → AP1 → RRT_SAT, and ODT_SAT → XYZ → D60→D65 → sRGB.
  const mat3 INPUT = mat3(vec3(0.59719, 0.07600, 0.02840), vec3(0.35458, 0.90834, 0.13383), vec3(0.04823, 0.01566, 0.83777));
  const mat3 OUTPUT = mat3(vec3(1.60475, -0.10208, -0.00327), vec3(-0.53108, 1.10813, -0.07276), vec3(-0.07367, -0.00605, 1.07602));
  vec3 v = INPUT * (color / 0.6);
  vec3 a = v * (v + 0.0245786) - 0.000090537;
  vec3 b = v * (0.983729 * v + 0.4329510) + 0.238081;
  return clamp(OUTPUT * (a / b), 0.0, 1.0);
}

vec3 toneMapAgx(vec3 color) {
  // ITU-R BT.2407 Rec. 709 ↔ Rec. 2020 (column-major), AgX inset / outset (Filament).
  const mat3 SRGB_TO_REC2020 = mat3(vec3(0.6274, 0.0691, 0.0164), vec3(0.3293, 0.9195, 0.0880), vec3(0.0433, 0.0113, 0.8956));
  const mat3 REC2020_TO_SRGB = mat3(vec3(1.6605, -0.1246, -0.0182), vec3(-0.5876, 1.1329, -0.1006), vec3(-0.0728, -0.0083, 1.1187));
  const mat3 INSET = mat3(vec3(0.856627153315983, 0.137318972929847, 0.11189821299995),
    vec3(0.0951212405381588, 0.761241990602591, 0.0767994186031903), vec3(0.0482516061458583, 0.101439036467562, 0.811302368396859));
  const mat3 OUTSET = mat3(vec3(1.1271005818144368, -0.1413297634984383, -0.14132976349843826),
    vec3(-0.11060664309660323, 1.157823702216272, -0.11060664309660294), vec3(-0.016493938717834573, -0.016493938717834257, 1.2519364065950405));
  const float MIN_EV = -12.47393; // log2(2^-10 · 0.18)
  const float MAX_EV = 4.026069;  // log2(2^6.5 · 0.18)
  vec3 c = INSET * (SRGB_TO_REC2020 * color);
  c = clamp((log2(max(c, 1e-10)) - MIN_EV) / (MAX_EV - MIN_EV), 0.0, 1.0);
  vec3 x2 = c * c;
  vec3 x4 = x2 * x2;
  c = 15.5 * x4 * x2 - 40.14 * x4 * c + 31.96 * x4 - 6.868 * x2 * c + 0.4298 * x2 + 0.1191 * c - 0.00232;
  c = pow(max(OUTSET * c, 0.0), vec3(2.2));
  return clamp(REC2020_TO_SRGB * c, 0.0, 1.0);
}

// Linear radiance → display-referred linear colour in [0, 1] (before the sRGB encoding).
vec3 toneMap(vec3 color) {
  if (u_toneMapping == 6) return color;
  color *= u_exposure;
  if (u_toneMapping == 0) return toneMapPbrNeutral(color);
  if (u_toneMapping == 1) return toneMapAces(color);
  if (u_toneMapping == 2) return toneMapAgx(color);
  if (u_toneMapping == 3) return clamp(color / (1.0 + color), 0.0, 1.0);
  if (u_toneMapping == 4) {
    color = max(vec3(0.0), color - 0.004);
    return pow((color * (6.2 * color + 0.5)) / (color * (6.2 * color + 1.7) + 0.06), vec3(2.2));
  }
  return clamp(color, 0.0, 1.0);
}

// Linear [0, 1] → sRGB-encoded (IEC 61966-2-1), the canvas's encoding.
vec3 linearToSrgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}
