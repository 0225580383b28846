#version 300 es
// Sinew debug overlay lines and points (skeleton, bounds, normals): positions in display space relative to the
// model's origin (as skinned.vert's v_displayPosition), one RGBA colour per vertex. src/gpu/debug/line-overlay.ts.
precision highp float;

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;

uniform mat4 u_viewProjection;
uniform float u_pointSize;

out vec4 v_color;

void main() {
  v_color = a_color;
  gl_Position = u_viewProjection * vec4(a_position, 1.0);
  gl_PointSize = u_pointSize;
}
