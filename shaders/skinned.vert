#version 300 es
// Sinew skinned / rigid vertex shader. Variants are #defines inserted after line 1 (src/gl/shader-variant.ts):
//   SKINNED          linear blend skinning of 4 influences (docs/skinning-formulas.md S0); without it the mesh is rigid (u_toDisplay only)
//   PALETTE_TEXTURE  joint matrices from an RGBA32F texture, 3 texels (rows of the affine 3×4) per joint, rows wrapped
//   PALETTE_UBO      joint matrices from the std140 uniform block `Palette` (3 vec4 per joint, 48 bytes)
//                    without either: from `uniform vec4 u_joints[3 * JOINT_COUNT]`
//   JOINT_COUNT n    joints of the uniform / block palette array (not the texture path)
// Arrays of vec4, not of mat3x4: an implementation may store a mat3x4 as 4 vectors (ANGLE does), which
// would cost the uniform path the joints its 3-row layout gains.
// Every path holds each joint's upper 3 rows only (palettes are affine; src/gl/palette-rows.ts): as a mat3x4 J
// whose columns are those rows, `vec4(p, 1.0) * J` is the transformed point.
// Spaces (docs/skinning-formulas.md "Spaces and poses"): the palette takes a bind-pose vertex to model space (the
// skeleton's root space); u_toDisplay takes that to display space, where the camera and lights are. The outputs
// v_displayPosition / v_displayNormal are what transform feedback captures for GPU-vs-CPU parity (with
// u_toDisplay = identity, so display space is model space there).
precision highp float;
precision highp int;

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
#ifdef SKINNED
layout(location = 3) in uvec4 a_joints;   // skin joint indices, integer attribute (never normalised)
layout(location = 4) in vec4 a_weights;   // as stored; the blend divides by their sum (S0)
#endif

// Into display space. Skinned: the display matrix (the palette already placed the vertex in model space;
// identity for parity); rigid: display matrix · model-space matrix of the mesh's joint.
uniform mat4 u_toDisplay;
// Inverse transpose of mat3(u_toDisplay).
uniform mat3 u_normalMatrix;
uniform mat4 u_viewProjection;

#ifdef SKINNED
#if defined(PALETTE_TEXTURE)
uniform highp sampler2D u_jointTexture;
mat3x4 jointMatrix(uint joint) {
  int width = textureSize(u_jointTexture, 0).x;   // a multiple of 3: a joint's rows never straddle two texture rows
  int texel = int(joint) * 3;
  ivec2 c = ivec2(texel % width, texel / width);
  return mat3x4(
    texelFetch(u_jointTexture, c, 0),
    texelFetch(u_jointTexture, c + ivec2(1, 0), 0),
    texelFetch(u_jointTexture, c + ivec2(2, 0), 0));
}
#elif defined(PALETTE_UBO)
layout(std140) uniform Palette {
  vec4 u_jointBlock[3 * JOINT_COUNT];
};
mat3x4 jointMatrix(uint joint) {
  int row = 3 * int(joint);
  return mat3x4(u_jointBlock[row], u_jointBlock[row + 1], u_jointBlock[row + 2]);
}
#else
uniform vec4 u_joints[3 * JOINT_COUNT];
mat3x4 jointMatrix(uint joint) {
  int row = 3 * int(joint);
  return mat3x4(u_joints[row], u_joints[row + 1], u_joints[row + 2]);
}
#endif
#endif

out vec3 v_displayPosition;
out vec3 v_displayNormal;
out vec2 v_uv;

void main() {
  vec3 position = a_position;
  vec3 normal = a_normal;
#ifdef SKINNED
  // docs/skinning-formulas.md S0: p = (Σ wᵢ Kᵢ) p₀ / Σ wᵢ; a vertex whose weights sum to 0 keeps its rest position and normal.
  float weightSum = a_weights.x + a_weights.y + a_weights.z + a_weights.w;
  if (weightSum != 0.0) {
    mat3x4 blend = a_weights.x * jointMatrix(a_joints.x)
                 + a_weights.y * jointMatrix(a_joints.y)
                 + a_weights.z * jointMatrix(a_joints.z)
                 + a_weights.w * jointMatrix(a_joints.w);
    position = (vec4(position, 1.0) * blend) / weightSum;
    // Normals by the inverse transpose of the blended 3×3 A, as sign(det A)·cof(A) (no division; the scale
    // drops out in the normalisation below): cof(A)·n = n.x (c1×c2) + n.y (c2×c0) + n.z (c0×c1).
    // mat3(blend) holds A's rows as columns, so it is Aᵀ.
    mat3 a = transpose(mat3(blend));
    vec3 c0 = a[0], c1 = a[1], c2 = a[2];
    vec3 c12 = cross(c1, c2);
    float det = dot(c0, c12);
    normal = (normal.x * c12 + normal.y * cross(c2, c0) + normal.z * cross(c0, c1)) * (det < 0.0 ? -1.0 : 1.0);
  }
#endif
  v_displayPosition = (u_toDisplay * vec4(position, 1.0)).xyz;
  vec3 displayNormal = u_normalMatrix * normal;
  float normalLength = length(displayNormal);
  v_displayNormal = normalLength > 0.0 ? displayNormal / normalLength : vec3(0.0);
  v_uv = a_uv;
  gl_Position = u_viewProjection * vec4(v_displayPosition, 1.0);
  gl_PointSize = 1.0;
}
