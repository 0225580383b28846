#version 300 es
// The contact shadow on the ground (src/gpu/passes/contact-shadow.ts): black at the blurred darkness × u_opacity,
// alpha-blended over what is drawn (the model, drawn before, hides it by the depth test).
precision highp float;
uniform sampler2D u_source;
uniform float u_opacity;
in vec2 v_uv;
out vec4 outColor;
void main() {
  outColor = vec4(0.0, 0.0, 0.0, texture(u_source, v_uv).r * u_opacity);
}
