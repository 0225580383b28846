#version 300 es
// One separable pass of the contact shadow's blur (src/gpu/passes/contact-shadow.ts): 9 taps along u_step (one
// texel), binomial weights (C(8, k) / 256). u_fromDepth: the first pass turns the depth seen from the ground
// (0 at the ground, 1 at the far plane) into darkness, as model-viewer's depth material does:
// (1 − depth) × u_depthScale, clamped; nothing drawn (depth 1) is no shadow.
precision highp float;
uniform sampler2D u_source;
uniform vec2 u_step;
uniform bool u_fromDepth;
uniform float u_depthScale;
in vec2 v_uv;
out vec4 outColor;

float darkness(vec2 uv) {
  float v = texture(u_source, uv).r;
  return u_fromDepth ? clamp((1.0 - v) * u_depthScale, 0.0, 1.0) : v;
}

void main() {
  const float weights[5] = float[5](70.0 / 256.0, 56.0 / 256.0, 28.0 / 256.0, 8.0 / 256.0, 1.0 / 256.0);
  float sum = darkness(v_uv) * weights[0];
  for (int k = 1; k < 5; k++) {
    vec2 offset = u_step * float(k);
    sum += (darkness(v_uv + offset) + darkness(v_uv - offset)) * weights[k];
  }
  outColor = vec4(sum, 0.0, 0.0, 1.0);
}
