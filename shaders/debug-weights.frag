#version 300 es
// Sinew weight views (with shaders/skinned.vert built with WEIGHT_VIEW): the selected joint's weight as a heat
// map (u_weightMode 0: dark blue at 0 through green and yellow to red at 1, the usual rigging palette), or the
// count of non-zero influences per vertex (u_weightMode 1: 1 blue, 2 cyan, 3 green, 4 yellow, 5–8 orange,
// more red). Lit by a fixed half-Lambert term so the shape still reads.
precision highp float;

in vec3 v_displayPosition;
in vec3 v_displayNormal;
in vec2 v_weightView;

uniform int u_weightMode;
uniform vec3 u_eye;

out vec4 outColor;

vec3 heat(float t) {
  t = clamp(t, 0.0, 1.0);
  vec3 c0 = vec3(0.05, 0.08, 0.45), c1 = vec3(0.0, 0.75, 0.3), c2 = vec3(0.98, 0.9, 0.1), c3 = vec3(0.95, 0.1, 0.05);
  if (t < 1.0 / 3.0) return mix(c0, c1, 3.0 * t);
  if (t < 2.0 / 3.0) return mix(c1, c2, 3.0 * t - 1.0);
  return mix(c2, c3, 3.0 * t - 2.0);
}

vec3 countColor(float n) {
  if (n < 1.5) return vec3(0.15, 0.35, 0.95);
  if (n < 2.5) return vec3(0.1, 0.8, 0.85);
  if (n < 3.5) return vec3(0.2, 0.8, 0.25);
  if (n < 4.5) return vec3(0.95, 0.85, 0.15);
  if (n < 8.5) return vec3(0.98, 0.5, 0.1);
  return vec3(0.9, 0.1, 0.1);
}

void main() {
  vec3 n = normalize(v_displayNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(u_eye - v_displayPosition);
  float light = 0.55 + 0.45 * abs(dot(n, v));
  vec3 color = u_weightMode == 0 ? heat(v_weightView.x) : countColor(v_weightView.y);
  outColor = vec4(color * light, 1.0);
}
