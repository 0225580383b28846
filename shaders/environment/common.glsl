// Shared by the environment passes (prepended after `#version` by src/gpu/shading/image-based-lighting.ts).
precision highp float;
precision highp int;

const float PI = 3.14159265358979;

uniform int u_face;    // cube map face 0…5: +X, −X, +Y, −Y, +Z, −Z
uniform float u_size;  // the face's width in texels at the level being written

// Unit direction through the centre of the pixel at gl_FragCoord of face u_face, by the cube map rule of
// OpenGL ES 3.0 §3.8.10 (Table 3.21) inverted: s = (sc/|ma| + 1)/2, t = (tc/|ma| + 1)/2, row 0 at t = 0.
vec3 faceDirection() {
  vec2 st = 2.0 * gl_FragCoord.xy / u_size - 1.0;
  float sc = st.x, tc = st.y;
  vec3 d;
  if (u_face == 0) d = vec3(1.0, -tc, -sc);
  else if (u_face == 1) d = vec3(-1.0, -tc, sc);
  else if (u_face == 2) d = vec3(sc, 1.0, tc);
  else if (u_face == 3) d = vec3(sc, -1.0, -tc);
  else if (u_face == 4) d = vec3(sc, -tc, 1.0);
  else d = vec3(-sc, -tc, -1.0);
  return normalize(d);
}

// Hammersley point i of n: (i/n, radical inverse of i in base 2) (Dammertz, "Hammersley Points on the Hemisphere").
vec2 hammersley(int i, int n) {
  uint bits = uint(i);
  bits = (bits << 16u) | (bits >> 16u);
  bits = ((bits & 0x55555555u) << 1u) | ((bits & 0xAAAAAAAAu) >> 1u);
  bits = ((bits & 0x33333333u) << 2u) | ((bits & 0xCCCCCCCCu) >> 2u);
  bits = ((bits & 0x0F0F0F0Fu) << 4u) | ((bits & 0xF0F0F0F0u) >> 4u);
  bits = ((bits & 0x00FF00FFu) << 8u) | ((bits & 0xFF00FF00u) >> 8u);
  return vec2(float(i) / float(n), float(bits) * 2.3283064365386963e-10);
}

// GGX / Trowbridge-Reitz normal distribution D(h) with α = roughness² (glTF 2.0 Appendix B.3.2).
float distributionGgx(float nDotH, float alpha) {
  float a2 = alpha * alpha;
  float f = nDotH * nDotH * (a2 - 1.0) + 1.0;
  return a2 / (PI * f * f);
}

// Orthonormal frame (tangent, bitangent, n) around the unit vector n.
mat3 frameAround(vec3 n) {
  vec3 up = abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0);
  vec3 t = normalize(cross(up, n));
  return mat3(t, cross(n, t), n);
}

// A half vector drawn from D(h)·(n·h) around +Z for the Hammersley point xi (Walter et al. 2007, eq. 35–36),
// with its pdf D(h)·(n·h) in w.
vec4 sampleGgx(vec2 xi, float alpha) {
  float cosTheta = sqrt((1.0 - xi.y) / (1.0 + (alpha * alpha - 1.0) * xi.y));
  float sinTheta = sqrt(max(0.0, 1.0 - cosTheta * cosTheta));
  float phi = 2.0 * PI * xi.x;
  return vec4(sinTheta * cos(phi), sinTheta * sin(phi), cosTheta, distributionGgx(cosTheta, alpha) * cosTheta);
}

// Smith height-correlated visibility V = G / (4 (n·l)(n·v)) for GGX (glTF 2.0 Appendix B.3.2).
float visibilityGgx(float nDotL, float nDotV, float alpha) {
  float a2 = alpha * alpha;
  float gv = nDotL * sqrt(nDotV * nDotV * (1.0 - a2) + a2);
  float gl = nDotV * sqrt(nDotL * nDotL * (1.0 - a2) + a2);
  float sum = gv + gl;
  return sum > 0.0 ? 0.5 / sum : 0.0;
}
