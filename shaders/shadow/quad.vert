#version 300 es
// A quad from gl_VertexID (0..3, TRIANGLE_STRIP, no attributes) for src/gpu/passes/contact-shadow.ts: u_ground
// false fills the render target (the blur passes), true places it on the ground (corners in display space).
uniform bool u_ground;
uniform mat4 u_viewProjection;
/** Ground quad: its centre (display space) and half side, metres. */
uniform vec3 u_center;
uniform float u_halfSide;
out vec2 v_uv;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = corner;
  vec2 xy = corner * 2.0 - 1.0;
  if (u_ground) {
    gl_Position = u_viewProjection * vec4(u_center + vec3(xy.x, 0.0, xy.y) * u_halfSide, 1.0);
  } else {
    gl_Position = vec4(xy, 0.0, 1.0);
  }
}
