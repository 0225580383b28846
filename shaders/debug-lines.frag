#version 300 es
// Sinew debug overlay: the vertex colour; points are drawn as discs.
precision highp float;

in vec4 v_color;
uniform bool u_points;

out vec4 outColor;

void main() {
  if (u_points) {
    vec2 d = gl_PointCoord - 0.5;
    float r = dot(d, d);
    if (r > 0.25) discard;
    outColor = vec4(r > 0.12 ? v_color.rgb * 0.35 : v_color.rgb, v_color.a);
  } else {
    outColor = v_color;
  }
}
