// MToon toon shading (VRMC_materials_mtoon 1.0, VRM 0.x MToon converted at load), a material feature of
// shaders/lit.frag: inserted in place of its `#pragma mtoon` line by src/gpu/shading/mtoon-shader.ts and used
// under `#ifdef MTOON`. Lit by the environment split into a key light and an SH ambient
// (src/gpu/shading/environment-light.ts): three-vrm's formulas for one DirectionalLight and one LightProbe,
// plus the specification's GI equalization, which three-vrm 3.5.5 declares but never applies. Texture indices
// (u_uvSet / u_uvTransform): 5 shade multiply, 6 shading shift, 7 matcap, 8 rim multiply, 10 UV animation mask.
// Vertex colours are ignored (README "Vertex Colors"). docs/explanation/mtoon.md has the sources.
#ifdef MTOON

uniform vec3 u_shadeColorFactor;             // linear RGB
uniform sampler2D u_shadeMultiplyTexture;    // sRGB
uniform float u_shadingShiftFactor;
uniform sampler2D u_shadingShiftTexture;     // R, linear
uniform float u_shadingShiftTextureScale;
uniform float u_shadingToonyFactor;
uniform float u_giEqualizationFactor;
uniform vec3 u_matcapFactor;                 // linear RGB
uniform sampler2D u_matcapTexture;           // sRGB
uniform vec3 u_parametricRimColorFactor;     // linear RGB
uniform float u_parametricRimFresnelPowerFactor;
uniform float u_parametricRimLiftFactor;
uniform sampler2D u_rimMultiplyTexture;      // sRGB
uniform float u_rimLightingMixFactor;
uniform vec3 u_outlineColorFactor;           // linear RGB
uniform float u_outlineLightingMixFactor;
uniform sampler2D u_uvAnimationMaskTexture;  // B, linear
uniform vec3 u_uvAnimation;                  // scroll x, scroll y (UV units), rotation phase (radians)
uniform bool u_v0CompatShade;                // VRM 0.x: the direct result clamped to the lit colour
uniform vec3 u_keyLightDirection;            // unit, towards the light, display space
uniform vec3 u_keyLightColor;                // linear irradiance at normal incidence
uniform vec3 u_ambientSh[9];                 // radiance SH, three.js SphericalHarmonics3 order

const float MTOON_PI = 3.14159265358979;

#ifdef TEXCOORD
vec2 textureUv(int i); // lit.frag: texture i's coordinates, UV animation and KHR_texture_transform applied
#endif

// The UV animation's mask for this fragment (README "UV Animation Mask Texture"), set once by mtoonBeginUv().
float mtoonUvMask = 1.0;

// Irradiance of the ambient SH at unit normal n (Ramamoorthi & Hanrahan 2001; three's shGetIrradianceAt).
vec3 mtoonAmbientIrradiance(vec3 n) {
  float x = n.x, y = n.y, z = n.z;
  vec3 e = u_ambientSh[0] * 0.886227;
  e += u_ambientSh[1] * 2.0 * 0.511664 * y;
  e += u_ambientSh[2] * 2.0 * 0.511664 * z;
  e += u_ambientSh[3] * 2.0 * 0.511664 * x;
  e += u_ambientSh[4] * 2.0 * 0.429043 * x * y;
  e += u_ambientSh[5] * 2.0 * 0.429043 * y * z;
  e += u_ambientSh[6] * (0.743125 * z * z - 0.247708);
  e += u_ambientSh[7] * 2.0 * 0.429043 * x * z;
  e += u_ambientSh[8] * 0.429043 * (x * x - y * y);
  return e;
}

// UV animation of a texture coordinate (README "Transform Order"): rotate about (0.5, 0.5), then scroll, both
// scaled by the mask. The rotation is the README's matrix [cos sin; −sin cos] (three-vrm's
// mat2(cos, −sin, sin, cos)); the README's pseudocode writes the transpose, Sinew follows the matrix and three-vrm.
vec2 mtoonAnimateUv(vec2 uv) {
  float phase = u_uvAnimation.z * mtoonUvMask;
  float c = cos(phase), s = sin(phase);
  uv = mat2(c, -s, s, c) * (uv - 0.5) + 0.5;
  return uv + u_uvAnimation.xy * mtoonUvMask;
}

float mtoonLinearstep(float a, float b, float t) {
  return clamp((t - a) / (b - a), 0.0, 1.0);
}

// The MToon surface colour (linear radiance, before exposure): lit colour `lit`, unit shading normal n, unit
// view vector v (surface → eye), emission `emissive`; with MTOON_OUTLINE, the outline's colour from it.
vec3 mtoonShade(vec3 lit, vec3 n, vec3 v, vec3 emissive) {
  // README "Lighting", "Implementation": the toony ramp between shade and lit colour.
  vec3 shade = u_shadeColorFactor;
#ifdef SHADE_MULTIPLY_MAP
  shade *= texture(u_shadeMultiplyTexture, textureUv(5)).rgb;
#endif
  float shift = u_shadingShiftFactor;
#ifdef SHADING_SHIFT_MAP
  shift += texture(u_shadingShiftTexture, textureUv(6)).r * u_shadingShiftTextureScale;
#endif
  float dotNL = clamp(dot(n, u_keyLightDirection), -1.0, 1.0);
  float shading = mtoonLinearstep(-1.0 + u_shadingToonyFactor, 1.0 - u_shadingToonyFactor, dotNL + shift);
  // three-vrm: lightColor · BRDF_Lambert(mix(shade, lit, shading)).
  vec3 color = u_keyLightColor * mix(shade, lit, shading) / MTOON_PI;
  if (u_v0CompatShade) color = min(color, lit);

  // README "Global Illumination": gi(n) = lerp(rawGi(n), (rawGi(up) + rawGi(down)) / 2, giEqualizationFactor),
  // lighting the lit colour as a Lambertian (three-vrm's irradiance · BRDF_Lambert(lit)).
  vec3 uniformGi = 0.5 * (mtoonAmbientIrradiance(vec3(0.0, 1.0, 0.0)) + mtoonAmbientIrradiance(vec3(0.0, -1.0, 0.0)));
  vec3 gi = mix(mtoonAmbientIrradiance(n), uniformGi, u_giEqualizationFactor);
  color += gi * lit / MTOON_PI;

  // README "Rim Lighting", "Implementation".
  vec3 rim = u_parametricRimColorFactor
    * pow(clamp(1.0 - dot(n, v) + u_parametricRimLiftFactor, 0.0, 1.0), max(u_parametricRimFresnelPowerFactor, 1e-5));
#ifdef MATCAP_MAP
  {
    // The README's world-space view frame (worldViewX, worldViewY) and 0.495 scale; its pseudocode's v runs
    // upwards (Unity's texture space), glTF's downwards, so v is flipped (three-vrm flips it alike).
    vec3 x = normalize(vec3(v.z, 0.0, -v.x));
    vec3 y = cross(v, x);
    vec2 matcapUv = vec2(dot(x, n), -dot(y, n)) * 0.495 + 0.5;
    // KHR_texture_transform applies; the UV animation does not (README "UV Animation").
    matcapUv = (u_uvTransform[7] * vec3(matcapUv, 1.0)).xy;
    rim += u_matcapFactor * texture(u_matcapTexture, matcapUv).rgb;
  }
#endif
#ifdef RIM_MULTIPLY_MAP
  rim *= texture(u_rimMultiplyTexture, textureUv(8)).rgb;
#endif
  // The rim's lighting: three-vrm's (lightColor + irradiance) / π, with the equalized GI.
  vec3 lighting = (u_keyLightColor + gi) / MTOON_PI;
  color += rim * mix(vec3(1.0), lighting, u_rimLightingMixFactor);

  color += emissive;
#ifdef MTOON_OUTLINE
  // README "Outline Lighting Mix".
  color = u_outlineColorFactor * mix(vec3(1.0), color, u_outlineLightingMixFactor);
#endif
  return color;
}
#endif
