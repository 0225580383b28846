#version 300 es
// The skybox: the equirectangular image behind the model (drawn before it, depth untouched), through the
// same exposure and tone mapping as the model (three.js tone-maps scene.background alike). Each pixel's view
// direction is u_inverseViewProjection (rotation only) applied to its far-plane point; u_lod is the mip level
// whose texels match a pixel's angle (no derivatives: the u seam would pick the smallest level).
precision highp float;

uniform mat4 u_inverseViewProjection;
uniform vec2 u_viewportSize; // pixels
uniform sampler2D u_equirect;
uniform float u_lod;

out vec4 outColor;

#pragma tone-mapping

void main() {
  vec2 ndc = 2.0 * gl_FragCoord.xy / u_viewportSize - 1.0;
  vec4 far = u_inverseViewProjection * vec4(ndc, 1.0, 1.0);
  vec3 d = normalize(far.xyz / far.w);
  const float PI = 3.14159265358979;
  vec2 uv = vec2(atan(d.z, d.x) / (2.0 * PI) + 0.5, 0.5 - asin(clamp(d.y, -1.0, 1.0)) / PI);
  outColor = vec4(linearToSrgb(toneMap(textureLod(u_equirect, uv, u_lod).rgb)), 1.0);
}
