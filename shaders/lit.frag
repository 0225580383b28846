#version 300 es
// Sinew's material shader: glTF 2.0 metallic-roughness (§3.9, the BRDF of Appendix B) lit by the studio
// environment through split-sum image-based lighting (src/gpu/shading/image-based-lighting.ts), as the Khronos glTF
// Sample Viewer shades it without punctual lights: Lambertian diffuse from the irradiance cube, GGX specular
// from the prefiltered cube and the BRDF table, Fdez-Agüera's roughness-dependent Fresnel and multiple
// scattering, occlusion on the image-based light, emission added, then exposure and tone mapping (shaders/tone-mapping.glsl; default
// the Khronos PBR Neutral tone mapper) and sRGB encoding. KHR_materials_unlit outputs the base colour as it is (tone mapped and encoded alike). Textures: base colour and emissive
// are SRGB8_ALPHA8 (sampling returns linear values), the others linear; each samples TEXCOORD_0 or _1 through
// its KHR_texture_transform (u_uvSet, u_uvTransform; index 0 base colour, 1 metallic-roughness, 2 normal,
// 3 occlusion, 4 emissive). Back faces (reaching here only for double-sided materials) are shaded with the
// flipped normal frame.
// MTOON (VRMC_materials_mtoon, shaders/mtoon.glsl) replaces metallic-roughness by toon shading with its own
// textures (indices 5–10: shade multiply, shading shift, matcap, rim multiply, outline width, UV animation mask),
// the UV animation applied to every texture coordinate before its KHR_texture_transform; MTOON_OUTLINE is its
// outline pass (the surface result with the normal flipped, then the outline colour).
// Material features are #defines inserted after line 1 (src/gpu/skinning/shader-variant.ts MaterialFeature), so a
// material samples and computes only what it has: NORMAL_MAP, METALLIC_ROUGHNESS_MAP, OCCLUSION_MAP,
// EMISSIVE_MAP, UNLIT, BASE_COLOR_MAP; and reads only the vertex outputs it needs: TEXCOORD (v_uv, with any
// texture), TEXCOORD_1 (v_uv1, a texture reads set 1), VERTEX_COLOR (v_color), VERTEX_TANGENT (v_displayTangent,
// the primitive's tangents with a normal map). What is left out stands for its neutral value: a white texture,
// a white vertex colour, no tangent (derivatives give the frame).
precision highp float;

in vec3 v_displayPosition;
in vec3 v_displayNormal;
#ifdef VERTEX_TANGENT
in vec4 v_displayTangent;
#endif
#ifdef TEXCOORD
in vec2 v_uv;
#endif
#ifdef TEXCOORD_1
in vec2 v_uv1;
#endif
#ifdef VERTEX_COLOR
in vec4 v_color;
#endif

uniform vec3 u_eye;                   // camera position, display space
uniform bool u_flatShading;           // no normals in the file: use the skinned triangle's face normal

uniform vec4 u_baseColorFactor;       // linear RGBA
uniform sampler2D u_baseColorTexture; // sRGB, or 1×1 white
uniform float u_metallicFactor;
uniform float u_roughnessFactor;
uniform sampler2D u_metallicRoughnessTexture; // G roughness, B metalness; or 1×1 white
uniform sampler2D u_normalTexture;
uniform float u_normalScale;
uniform sampler2D u_occlusionTexture; // R; or 1×1 white
uniform float u_occlusionStrength;
uniform vec3 u_emissive;              // emissiveFactor × emissive strength, linear
uniform sampler2D u_emissiveTexture;  // sRGB, or 1×1 white
uniform int u_alphaMode;              // 0 OPAQUE, 1 MASK, 2 BLEND
uniform float u_alphaCutoff;
uniform int u_uvSet[11];              // 0: TEXCOORD_0, 1: TEXCOORD_1
uniform mat3 u_uvTransform[11];       // KHR_texture_transform (identity without)

uniform samplerCube u_specularEnvironment; // GGX-prefiltered, level = roughness · u_specularLevels
uniform float u_specularLevels;            // its mip levels − 1
uniform samplerCube u_diffuseEnvironment;  // irradiance / π
uniform sampler2D u_brdfLut;               // (n·v, roughness) → (scale, bias) of F0

out vec4 outColor;

// MToon's uniforms and mtoonShade() (shaders/mtoon.glsl; empty without MTOON).
#pragma mtoon

#ifdef TEXCOORD
// Texture i's own coordinate set, as the vertex gave it.
vec2 vertexUv(int i) {
#ifdef TEXCOORD_1
  return u_uvSet[i] == 1 ? v_uv1 : v_uv;
#else
  return v_uv;
#endif
}

vec2 textureUv(int i) {
  vec2 uv = vertexUv(i);
#ifdef MTOON
  uv = mtoonAnimateUv(uv);
#endif
  return (u_uvTransform[i] * vec3(uv, 1.0)).xy;
}
#endif

// toneMap(): exposure and the tone mapping operator (shaders/tone-mapping.glsl).
#pragma tone-mapping

// The split-sum specular term's Fresnel-weighted scale for reflectance F0 (single plus multiple
// scattering, Fdez-Agüera 2019, "A Multiple-Scattering Microfacet Model for Real-Time Image-based Lighting").
// fresnel5 = (1 − n·v)⁵.
vec3 iblFresnel(vec3 f0, float fresnel5, float roughness, vec2 fab) {
  vec3 fr = max(vec3(1.0 - roughness), f0) - f0;
  vec3 kS = f0 + fr * fresnel5;
  vec3 fssEss = kS * fab.x + fab.y;
  float ems = 1.0 - (fab.x + fab.y);
  vec3 fAvg = f0 + (1.0 - f0) / 21.0;
  vec3 fmsEms = ems * fssEss * fAvg / (1.0 - fAvg * ems);
  return fssEss + fmsEms;
}

void main() {
#if defined(MTOON) && defined(UV_ANIMATION_MASK_MAP)
  // The mask itself is not animated.
  mtoonUvMask = texture(u_uvAnimationMaskTexture, (u_uvTransform[10] * vec3(vertexUv(10), 1.0)).xy).b;
#endif
  vec4 base = u_baseColorFactor;
#if defined(VERTEX_COLOR) && !defined(MTOON)
  base *= v_color;
#endif
#ifdef BASE_COLOR_MAP
  base *= texture(u_baseColorTexture, textureUv(0));
#endif
  float alpha = base.a;
  if (u_alphaMode == 1) {
    if (alpha < u_alphaCutoff) discard;
    alpha = 1.0;
  } else if (u_alphaMode == 0) {
    alpha = 1.0;
  }
#ifdef UNLIT
  // The base colour is the radiance; tone mapped like everything else, as the Sample Viewer does.
  outColor = vec4(linearToSrgb(toneMap(base.rgb)), alpha);
#else

  // Normal frame (t, b, ng). Without tangents in the file, t follows the normal texture's u direction from
  // screen-space derivatives of position and UV, as the Sample Viewer computes it.
  vec3 ng;
  vec3 n;
  if (u_flatShading) {
    // glTF 2.0 §3.7.2.1: flat normals when the file has none; the derivatives' cross product is the face
    // normal of the deformed triangle, already facing the viewer.
    ng = normalize(cross(dFdx(v_displayPosition), dFdy(v_displayPosition)));
  } else {
    ng = normalize(v_displayNormal);
  }
  n = ng;
#ifdef NORMAL_MAP
  {
    vec2 uv = textureUv(2);
    vec3 t;
    float handedness = 1.0;
#ifdef VERTEX_TANGENT
    if (!u_flatShading && dot(v_displayTangent.xyz, v_displayTangent.xyz) > 0.0) {
      t = v_displayTangent.xyz;
      handedness = v_displayTangent.w < 0.0 ? -1.0 : 1.0;
    } else
#endif
    {
      vec3 uvDx = dFdx(vec3(uv, 0.0));
      vec3 uvDy = dFdy(vec3(uv, 0.0));
      if (length(uvDx) + length(uvDy) <= 1e-6) {
        uvDx = vec3(1.0, 0.0, 0.0);
        uvDy = vec3(0.0, 1.0, 0.0);
      }
      float det = uvDx.s * uvDy.t - uvDy.s * uvDx.t;
      t = (uvDy.t * dFdx(v_displayPosition) - uvDx.t * dFdy(v_displayPosition)) / (det == 0.0 ? 1.0 : det);
    }
    t = t - ng * dot(ng, t);
    t = dot(t, t) > 0.0 ? normalize(t) : normalize(cross(abs(ng.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0), ng));
    vec3 b = cross(ng, t) * handedness;
    vec3 tn = texture(u_normalTexture, uv).rgb * 2.0 - 1.0;
    tn.xy *= u_normalScale;
    n = normalize(mat3(t, b, ng) * tn);
  }
#endif
  if (!u_flatShading && !gl_FrontFacing) n = -n;
  vec3 v = normalize(u_eye - v_displayPosition);
  vec3 emissive = u_emissive;
#ifdef EMISSIVE_MAP
  emissive *= texture(u_emissiveTexture, textureUv(4)).rgb;
#endif

#ifdef MTOON
#ifdef MTOON_OUTLINE
  // three-vrm's `normal *= -1.0`: the outline pass draws back faces, whose flipped normal is flipped back.
  n = -n;
#endif
  vec3 color = mtoonShade(base.rgb, n, v, emissive);
#else
  float metallic = u_metallicFactor;
  float roughness = u_roughnessFactor;
#ifdef METALLIC_ROUGHNESS_MAP
  vec4 mr = texture(u_metallicRoughnessTexture, textureUv(1));
  metallic *= mr.b;
  roughness *= mr.g;
#endif
  metallic = clamp(metallic, 0.0, 1.0);
  roughness = clamp(roughness, 0.0, 1.0);

  float nDotV = clamp(dot(n, v), 0.0, 1.0);
  vec2 fab = texture(u_brdfLut, clamp(vec2(nDotV, roughness), 0.0, 1.0)).rg;
  vec3 r = reflect(-v, n);
  vec3 specularLight = textureLod(u_specularEnvironment, r, roughness * u_specularLevels).rgb;
  vec3 diffuseLight = texture(u_diffuseEnvironment, n).rgb;

  // glTF 2.0 Appendix B.3.5: metals reflect with F0 = base colour and have no diffuse; dielectrics reflect
  // with F0 = 0.04 over a Lambertian base.
  float k = 1.0 - nDotV;
  float fresnel5 = k * k * k * k * k;
  vec3 metal = specularLight * iblFresnel(base.rgb, fresnel5, roughness, fab);
  vec3 dielectricFresnel = iblFresnel(vec3(0.04), fresnel5, roughness, fab);
  vec3 dielectric = mix(diffuseLight * base.rgb, specularLight, dielectricFresnel);
  vec3 color = mix(dielectric, metal, metallic);

#ifdef OCCLUSION_MAP
  float ao = texture(u_occlusionTexture, textureUv(3)).r;
  color *= 1.0 + u_occlusionStrength * (ao - 1.0);
#endif
  color += emissive;
#endif
  outColor = vec4(linearToSrgb(toneMap(color)), alpha);
#endif
}
