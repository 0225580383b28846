#version 300 es
// One triangle that covers the viewport (no vertex attributes: gl_VertexID 0, 1, 2), for the environment
// passes of src/gpu/shading/image-based-lighting.ts. v_pixel is unused: the fragment shaders read gl_FragCoord.
void main() {
  vec2 corner = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}
