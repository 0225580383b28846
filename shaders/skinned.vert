#version 300 es
// Sinew skinned / rigid vertex shader. Variants are #defines inserted after line 1 (src/gpu/skinning/shader-variant.ts):
//   SKINNED          skinning of influence slots 0–3 (a_joints / a_weights); without it the mesh is rigid
//                    (u_toDisplay only)
//   INFLUENCES_8     also slots 4–7 (a_joints1 / a_weights1): primitives of 8 or more influences per vertex
//   INFLUENCE_OVERFLOW  also slots 8… from the overflow texture (with INFLUENCES_8): primitives of more than 8
//                    (src/gpu/skinning/influence-overflow.ts); no influence is ever dropped
//   WEIGHTS_NORMALIZE | WEIGHTS_AS_STORED | WEIGHTS_REST_REMAINDER | WEIGHTS_IMPLICIT_LAST
//                    how weights are read (exactly one when SKINNED; src/skinning/skinning-method.ts WeightPolicy,
//                    docs/explanation/skinning-formulas.md S0, S2)
//   SKINNING_DQS     dual quaternion skinning (Kavan, Collins, Žára, O'Sullivan 2008, two-phase for scale:
//                    src/skinning/skin-vertices-dqs.ts); without it linear blend skinning (S0)
//   PALETTE_STRIDE n vec4s per joint: 3 for LBS (rows of the affine 3×4, src/skinning/palette-rows.ts), 4 for DQS
//                    (rows of S with t in w, then the rotation quaternion, src/skinning/dual-quaternion-palette.ts)
//   PALETTE_TEXTURE  joint data from an RGBA32F texture, PALETTE_STRIDE texels per joint, rows wrapped
//   PALETTE_UBO      joint data from the std140 uniform block `Palette` (16·PALETTE_STRIDE bytes per joint)
//                    without either: from `uniform vec4 u_joints[PALETTE_STRIDE * JOINT_COUNT]`
//   JOINT_COUNT n    joints of the uniform / block palette array (not the texture path)
//   INSTANCED        instanced skinning (src/crowd/crowd.ts): u_instanceBase + gl_InstanceID picks the instance's
//                    block in u_instanceTexture (src/skinning/instance-blocks.ts): its world matrix W' = W·T(O),
//                    then its pose, as the per-frame pass src/crowd/gpu/instance-prepass.ts leaves them (baked crowds'
//                    two frames blended, rows linearly, DQS rotations nlerp; every 3-row matrix of the pose —
//                    LBS joints, rigid nodes — premultiplied by W', so LBS reads no world matrix per vertex:
//                    INSTANCE_FOLDED, defined below).
//                    A crowd's rigid mesh is drawn by it too, as skinned to its node's matrix in the pose with
//                    weight 1 (the generic attributes a_joints = 0, a_weights = (1, 0, 0, 0))
//   INSTANCE_TEXTURE_WIDTH n  texels per row of u_instanceTexture (with INSTANCED; instance-blocks.ts), a
//                    constant so that the texel addresses divide by a constant
//   MORPH_TARGETS    morph targets applied before skinning (or before u_toDisplay for rigid meshes): the
//                    active targets' deltas from float textures (src/gpu/skinning/morph-texture.ts, docs/explanation/skinning-formulas.md M0);
//                    with INSTANCED the weights come from the instance's pose (u_morphWeights)
//   TEXCOORD, TEXCOORD_1, VERTEX_COLOR, VERTEX_TANGENT  the optional outputs v_uv, v_uv1, v_color,
//                    v_displayTangent, each only when lit.frag reads it (shader-variant.ts vertexOutputDefines;
//                    the tangent always with transform feedback)
//   MTOON_OUTLINE    the MToon outline (inverted hull, src/gpu/passes/outline-pass.ts): the display-space vertex
//                    moved along its unit display normal by the outline width (u_outlineWidthMode: 1 world metres,
//                    2 screen), on skinned vertices, skin-once vertices and crowds alike
//   OUTLINE_WIDTH_MAP  (with MTOON_OUTLINE) the width multiplied by the G channel of u_outlineWidthMultiplyTexture
//   WEIGHT_VIEW      the viewer's weight views (shaders/debug-weights.frag): also writes v_weightView, the
//                    selected joint's share of the vertex's weight over every influence slot and its count of
//                    non-zero influences (src/gpu/debug/draw-style.ts)
// Arrays of vec4, not of mat3x4: an implementation may store a mat3x4 as 4 vectors (ANGLE does), which
// would cost the uniform path the joints its 3-row layout gains. jointMatrix() returns a joint's first 3 vec4s
// as the columns of a mat3x4 J, so `vec4(p, 1.0) * J` is the transformed point (`vec4(p, 0.0) * J` its 3×3 part).
// Spaces (docs/explanation/skinning-formulas.md "Spaces and poses"): the palette takes a bind-pose vertex to model space (the
// skeleton's root space); u_toDisplay takes that to display space, where the camera and lights are. The outputs
// v_displayPosition / v_displayNormal are what transform feedback captures for GPU-vs-CPU parity (with
// u_toDisplay = identity, so display space is model space there).
precision highp float;
precision highp int;

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
// glTF TANGENT (xyz, w = ±1 handedness); a primitive without tangents leaves the array disabled, so it reads
// (0, 0, 0, 1) and v_displayTangent is (0, 0, 0, 1).
layout(location = 5) in vec4 a_tangent;
// Material inputs, passed through to lit.frag: TEXCOORD_1 (the primitive's TEXCOORD_0 again when it has no
// second set) and COLOR_0 as linear RGBA (disabled without one: the renderer sets its constant to white).
layout(location = 9) in vec2 a_uv1;
layout(location = 10) in vec4 a_color;
#ifdef SKINNED
layout(location = 3) in uvec4 a_joints;   // skin joint indices, integer attribute (never normalised)
layout(location = 4) in vec4 a_weights;   // as stored; the blend divides by their sum (S0)
#ifdef INFLUENCES_8
layout(location = 6) in uvec4 a_joints1;  // slots 4–7
layout(location = 7) in vec4 a_weights1;
#endif
#ifdef INFLUENCE_OVERFLOW
// (first texel, count) of the vertex's slots 8… in u_overflowTexture.
layout(location = 8) in uvec2 a_overflow;
// RG32F, one texel per influence: (joint index as float, exact below 2²⁴; weight as stored); rows of
// textureSize().x texels, texel t at (t % width, t / width).
uniform highp sampler2D u_overflowTexture;
vec2 overflowInfluence(int texel) {
  int width = textureSize(u_overflowTexture, 0).x;
  return texelFetch(u_overflowTexture, ivec2(texel % width, texel / width), 0).xy;
}
#endif
#endif

// Into display space. Skinned: the display matrix (the palette already placed the vertex in model space;
// identity for parity); rigid: display matrix · model-space matrix of the mesh's joint.
uniform mat4 u_toDisplay;
// Inverse transpose of mat3(u_toDisplay).
uniform mat3 u_normalMatrix;
uniform mat4 u_viewProjection;
// The model origin O (model space) the palette is relative to (src/scene/model-origin.ts): what stays at rest
// is moved by T(−O), not left in place. (0, 0, 0) for a model near model space's origin.
uniform vec3 u_origin;

#ifdef INSTANCED
// One RGBA32F texel row-major texture of per-instance blocks of u_blockTexels texels (instance-blocks.ts).
uniform highp sampler2D u_instanceTexture;
uniform int u_blockTexels;
// The block of gl_InstanceID 0: a crowd draws the instances that mirror as a second range (WebGL2 has no base instance).
uniform int u_instanceBase;
// Texel t's place in rows of INSTANCE_TEXTURE_WIDTH: the quotient by a float product (no integer division),
// off by at most one where float(t) rounds (t ≥ 2²⁴) or t / width is within rounding of an integer, then corrected.
ivec2 instanceTexelAt(int t) {
  int row = int(float(t) * (1.0 / float(INSTANCE_TEXTURE_WIDTH)));
  int column = t - row * INSTANCE_TEXTURE_WIDTH;
  row += (column >= INSTANCE_TEXTURE_WIDTH ? 1 : 0) - (column < 0 ? 1 : 0);
  return ivec2(t - row * INSTANCE_TEXTURE_WIDTH, row);
}
vec4 blockTexel(int texel) {
  return texelFetch(u_instanceTexture, instanceTexelAt((u_instanceBase + gl_InstanceID) * u_blockTexels + texel), 0);
}
// The block's first texel. Its world rows share that row: blocks are multiples of the palette stride (3 +
// 3·entries, or 4 + 4·entries for DQS), and the width (2 040) is a multiple of 3 and 4.
ivec2 blockStart() {
  return instanceTexelAt((u_instanceBase + gl_InstanceID) * u_blockTexels);
}
// The instance's world matrix W' = W·T(O): its 3 rows as the columns of a mat3x4.
mat3x4 instanceWorld() {
  ivec2 at = blockStart();
  return mat3x4(texelFetch(u_instanceTexture, at, 0), texelFetch(u_instanceTexture, at + ivec2(1, 0), 0),
                texelFetch(u_instanceTexture, at + ivec2(2, 0), 0));
}
#ifndef SKINNING_DQS
// LBS: the pose's matrices are W'·K (instance-prepass.ts), so the blend lands in world space directly.
#define INSTANCE_FOLDED
#endif
#endif

#ifdef SKINNED
#if defined(INSTANCED)
uniform int u_skinOffset;   // the skin's palette within the block
vec4 jointVector(uint joint, int k) {
  return blockTexel(u_skinOffset + int(joint) * PALETTE_STRIDE + k);
}
#elif defined(PALETTE_TEXTURE)
uniform highp sampler2D u_jointTexture;
vec4 jointVector(uint joint, int k) {
  int width = textureSize(u_jointTexture, 0).x;   // a multiple of 12: a joint's texels never straddle two rows
  int texel = int(joint) * PALETTE_STRIDE + k;
  return texelFetch(u_jointTexture, ivec2(texel % width, texel / width), 0);
}
#elif defined(PALETTE_UBO)
layout(std140) uniform Palette {
  vec4 u_jointBlock[PALETTE_STRIDE * JOINT_COUNT];
};
vec4 jointVector(uint joint, int k) {
  return u_jointBlock[int(joint) * PALETTE_STRIDE + k];
}
#else
uniform vec4 u_joints[PALETTE_STRIDE * JOINT_COUNT];
vec4 jointVector(uint joint, int k) {
  return u_joints[int(joint) * PALETTE_STRIDE + k];
}
#endif
#if defined(INSTANCED)
// A joint's texels never straddle a row (blocks, skin offsets and the width are multiples of PALETTE_STRIDE):
// one division for all three rows.
mat3x4 jointMatrix(uint joint) {
  ivec2 at = instanceTexelAt((u_instanceBase + gl_InstanceID) * u_blockTexels + u_skinOffset + int(joint) * PALETTE_STRIDE);
  return mat3x4(texelFetch(u_instanceTexture, at, 0), texelFetch(u_instanceTexture, at + ivec2(1, 0), 0),
                texelFetch(u_instanceTexture, at + ivec2(2, 0), 0));
}
#else
mat3x4 jointMatrix(uint joint) {
  return mat3x4(jointVector(joint, 0), jointVector(joint, 1), jointVector(joint, 2));
}
#endif

// sign(det A)·cof(A)·n for the 3×3 A given by its columns: the inverse transpose of A applied to n, up to a
// positive scale that the normalisation drops (no division). cof(A)·n = n.x (c1×c2) + n.y (c2×c0) + n.z (c0×c1).
vec3 cofactorTimes(vec3 c0, vec3 c1, vec3 c2, vec3 n) {
  vec3 c12 = cross(c1, c2);
  float det = dot(c0, c12);
  return (n.x * c12 + n.y * cross(c2, c0) + n.z * cross(c0, c1)) * (det < 0.0 ? -1.0 : 1.0);
}

#ifdef SKINNING_DQS
// Sums one influence into the scale/shear blend s and the dual quaternion blend (br, bd), its sign aligned
// with q0 (the rotation of influence slot 0). Dual part ½·(t, 0)⊗q: vector ½(q.w·t + t × q.xyz), scalar −½ t·q.xyz.
void addDualInfluence(uint joint, float w, vec4 q0, inout mat3x4 s, inout vec4 br, inout vec4 bd) {
  mat3x4 j = jointMatrix(joint);
  vec4 q = jointVector(joint, 3);
  s += w * j;
  float ws = dot(q, q0) < 0.0 ? -w : w;
  vec3 t = vec3(j[0].w, j[1].w, j[2].w);
  br += ws * q;
  bd += ws * 0.5 * vec4(q.w * t + cross(t, q.xyz), -dot(t, q.xyz));
}

// v rotated by the unit quaternion r: v + 2 r.xyz × (r.xyz × v + r.w v).
vec3 rotateByQuaternion(vec4 r, vec3 v) {
  return v + 2.0 * cross(r.xyz, cross(r.xyz, v) + r.w * v);
}
#endif
#endif

#ifdef INSTANCED
// The instance's world matrix W·T(O) (3 rows; INSTANCED implies SKINNED): into world space, normals by its
// cofactor, tangents by the matrix itself.
void instanceToWorld(inout vec3 position, inout vec3 normal, inout vec3 tangent) {
  mat3x4 world = instanceWorld();
  position = vec4(position, 1.0) * world;
  tangent = vec4(tangent, 0.0) * world;
  mat3 a = transpose(mat3(world));
  normal = cofactorTimes(a[0], a[1], a[2], normal);
}
#endif

#ifdef MORPH_TARGETS
// Morph targets (src/gpu/skinning/morph-texture.ts has the layouts; docs/explanation/skinning-formulas.md M0). u_morphDeltas: RGBA32F,
// per target t and vertex v, u_morphLayout.y texels (position delta; normal delta at slot u_morphLayout.z,
// tangent delta at slot u_morphLayout.w, −1 when absent) from texel (t·u_morphLayout.x + v)·u_morphLayout.y, rows
// wrapped. u_morphActive: RG32F (target index, weight) of the u_morphActiveCount targets whose weight is not 0,
// in target order. The vertex is gl_VertexID (the index value under drawElements).
uniform highp sampler2D u_morphDeltas;
#ifndef INSTANCED
uniform highp sampler2D u_morphActive;
#endif
uniform int u_morphActiveCount;
uniform ivec4 u_morphLayout;
vec3 morphDelta(int texel) {
  int width = textureSize(u_morphDeltas, 0).x;
  return texelFetch(u_morphDeltas, ivec2(texel % width, texel / width), 0).xyz;
}
#ifdef INSTANCED
// Crowds: every target's weight is in the instance's pose, 4 per texel from texel u_morphWeights of its block
// (baked: blended linearly between its two frames first); u_morphActiveCount is then the target count and
// zero weights are skipped here, so the sum runs in target order over the non-zero weights as above.
uniform int u_morphWeights;
// Weights of targets 4k … 4k + 3.
vec4 morphWeights4(int k) {
  return blockTexel(u_morphWeights + k);
}
#endif
// position += Σ wₜ·Δpₜ, normal += Σ wₜ·Δnₜ, tangent += Σ wₜ·Δtₜ over the active targets, in target order.
void applyMorphTargets(inout vec3 position, inout vec3 normal, inout vec3 tangent) {
#ifdef INSTANCED
  vec4 weights = vec4(0.0);
#else
  int activeWidth = textureSize(u_morphActive, 0).x;
#endif
  for (int i = 0; i < u_morphActiveCount; i++) {
#ifdef INSTANCED
    if (i % 4 == 0) weights = morphWeights4(i / 4);
    vec2 target = vec2(float(i), weights[i % 4]);
    if (target.y == 0.0) continue;
#else
    vec2 target = texelFetch(u_morphActive, ivec2(i % activeWidth, i / activeWidth), 0).xy;
#endif
    int first = (int(target.x) * u_morphLayout.x + gl_VertexID) * u_morphLayout.y;
    position += target.y * morphDelta(first);
    if (u_morphLayout.z >= 0) normal += target.y * morphDelta(first + u_morphLayout.z);
    if (u_morphLayout.w >= 0) tangent += target.y * morphDelta(first + u_morphLayout.w);
  }
}
#endif

out vec3 v_displayPosition;
out vec3 v_displayNormal;
#ifdef VERTEX_TANGENT
// Unit display-space tangent (skinned with the blended matrix itself, not its inverse transpose), w kept.
out vec4 v_displayTangent;
#endif
#ifdef TEXCOORD
out vec2 v_uv;
#endif
#ifdef TEXCOORD_1
out vec2 v_uv1;
#endif
#ifdef VERTEX_COLOR
out vec4 v_color;
#endif
#ifdef MTOON_OUTLINE
// VRMC_materials_mtoon-1.0 README "Outline" as three-vrm's MToon vertex shader computes it: 1 worldCoordinates,
// 2 screenCoordinates (0 none draws no outline pass at all).
uniform int u_outlineWidthMode;
// Metres (world) or the screen share (screen): MToonMaterialAsset.outlineWidthFactor.
uniform float u_outlineWidthFactor;
// projection[1][1] of the camera (1 / tan(vertical half field of view) for a perspective camera).
uniform float u_outlineProjectionY;
#ifdef OUTLINE_WIDTH_MAP
uniform highp sampler2D u_outlineWidthMultiplyTexture;
// The width texture's UV set (0, 1) and its KHR_texture_transform (column-major 3×3).
uniform int u_outlineWidthUvSet;
uniform mat3 u_outlineWidthUvTransform;
#endif
// The outline width in display units at a display-space point. Display space is world space in metres (the
// display matrix places and turns the model; three-vrm measures the offset in world units too). Screen mode
// scales by the view depth (clip w of a perspective projection) over projection[1][1], as three-vrm does: the
// width is then outlineWidthFactor × half the screen height, where the specification says a share of the whole
// screen height; Sinew follows three-vrm so the two draw the same outline.
float outlineWidth(vec3 displayPosition) {
  float width = u_outlineWidthFactor;
#ifdef OUTLINE_WIDTH_MAP
  vec2 uv = u_outlineWidthUvSet == 1 ? a_uv1 : a_uv;
  width *= textureLod(u_outlineWidthMultiplyTexture, (u_outlineWidthUvTransform * vec3(uv, 1.0)).xy, 0.0).g;
#endif
  if (u_outlineWidthMode == 2) width *= (u_viewProjection * vec4(displayPosition, 1.0)).w / u_outlineProjectionY;
  return width;
}
#endif
#ifdef WEIGHT_VIEW
// Skin-local index of the selected joint (rigid meshes: 0 when their node is selected), −1 for none.
uniform int u_weightJoint;
// x: the selected joint's weight ÷ the weight sum (1 on a selected rigid mesh), y: non-zero influences.
out vec2 v_weightView;
#endif

void main() {
  vec3 position = a_position;
  vec3 normal = a_normal;
  vec3 tangent = a_tangent.xyz;
#ifdef MORPH_TARGETS
  applyMorphTargets(position, normal, tangent);
#endif
#ifdef SKINNED
  // Weights of every slot, summed in slot order (as src/skinning/skin-vertices.ts).
  vec4 w = a_weights;
#ifdef INFLUENCES_8
  vec4 w1 = a_weights1;
#endif
#if defined(WEIGHTS_IMPLICIT_LAST) && !defined(INFLUENCES_8)
  w.w = 1.0 - (w.x + w.y + w.z);   // S2 blend form: the last slot's weight is what the others leave
#elif defined(WEIGHTS_IMPLICIT_LAST) && !defined(INFLUENCE_OVERFLOW)
  w1.w = 1.0 - (w.x + w.y + w.z + w.w + w1.x + w1.y + w1.z);
#endif
  float weightSum = w.x + w.y + w.z + w.w;
#ifdef INFLUENCES_8
  weightSum += w1.x + w1.y + w1.z + w1.w;
#endif
#ifdef INFLUENCE_OVERFLOW
  int overflowFirst = int(a_overflow.x), overflowCount = int(a_overflow.y);
#ifdef WEIGHTS_IMPLICIT_LAST
  for (int i = 0; i < overflowCount - 1; i++) weightSum += overflowInfluence(overflowFirst + i).y;
  float implicitWeight = 1.0 - weightSum;   // the last overflow slot's weight
  weightSum += implicitWeight;
#else
  for (int i = 0; i < overflowCount; i++) weightSum += overflowInfluence(overflowFirst + i).y;
#endif
#endif
#if defined(WEIGHTS_NORMALIZE) || defined(WEIGHTS_AS_STORED)
  bool weighted = weightSum != 0.0;   // no influence at all: not skinned, keeps its rest position and normal (S0)
#else
  bool weighted = true;
#endif
#ifdef SKINNING_DQS
  if (weighted) {
    // Kavan et al. 2008 with the two-phase extension: S_b = Σ wᵢSᵢ linearly, then the normalised dual
    // quaternion blend of the rigid parts (as src/skinning/skin-vertices-dqs.ts).
    vec4 q0 = jointVector(a_joints.x, 3);
    mat3x4 s = mat3x4(0.0);
    vec4 br = vec4(0.0), bd = vec4(0.0);
    addDualInfluence(a_joints.x, w.x, q0, s, br, bd);
    addDualInfluence(a_joints.y, w.y, q0, s, br, bd);
    addDualInfluence(a_joints.z, w.z, q0, s, br, bd);
    addDualInfluence(a_joints.w, w.w, q0, s, br, bd);
#ifdef INFLUENCES_8
    addDualInfluence(a_joints1.x, w1.x, q0, s, br, bd);
    addDualInfluence(a_joints1.y, w1.y, q0, s, br, bd);
    addDualInfluence(a_joints1.z, w1.z, q0, s, br, bd);
    addDualInfluence(a_joints1.w, w1.w, q0, s, br, bd);
#endif
#ifdef INFLUENCE_OVERFLOW
    for (int i = 0; i < overflowCount; i++) {
      vec2 jw = overflowInfluence(overflowFirst + i);
#ifdef WEIGHTS_IMPLICIT_LAST
      if (i == overflowCount - 1) jw.y = implicitWeight;
#endif
      if (jw.y != 0.0) addDualInfluence(uint(jw.x), jw.y, q0, s, br, bd);
    }
#endif
#ifdef WEIGHTS_REST_REMAINDER
    float rest = 1.0 - weightSum;
    s += rest * mat3x4(1.0);
    float restSigned = q0.w < 0.0 ? -rest : rest;   // T(−O) = (1, ½(−O, 0)): the identity when O = 0, aligned with q0
    br.w += restSigned;
    bd.xyz -= restSigned * 0.5 * u_origin;
#endif
#ifdef WEIGHTS_NORMALIZE
    s /= weightSum;
#endif
    float len = length(br);
    if (len > 0.0) {
      br /= len;
      bd /= len;
      vec3 t = 2.0 * (br.w * bd.xyz - bd.w * br.xyz + cross(br.xyz, bd.xyz));
      position = rotateByQuaternion(br, vec4(position, 0.0) * s) + t;
      tangent = rotateByQuaternion(br, vec4(tangent, 0.0) * s);
      // mat3(s) holds S's rows as columns, so it is Sᵀ.
      mat3 a = transpose(mat3(s));
      normal = rotateByQuaternion(br, cofactorTimes(a[0], a[1], a[2], normal));
    } else {
      position -= u_origin;   // left at rest: T(−O)
    }
  } else {
    position -= u_origin;
  }
#else
  if (weighted) {
    // docs/explanation/skinning-formulas.md S0: p = (Σ wᵢ Kᵢ) p₀ / Σ wᵢ; other policies per S2.
    // Summed in slot order; a slot of zero weight adds nothing (0·K = 0), so its joint matrix is not fetched
    // (glTF pads unused slots with weight 0).
    mat3x4 blend = w.x * jointMatrix(a_joints.x);
    if (w.y != 0.0) blend += w.y * jointMatrix(a_joints.y);
    if (w.z != 0.0) blend += w.z * jointMatrix(a_joints.z);
    if (w.w != 0.0) blend += w.w * jointMatrix(a_joints.w);
#ifdef INFLUENCES_8
    if (w1.x != 0.0) blend += w1.x * jointMatrix(a_joints1.x);
    if (w1.y != 0.0) blend += w1.y * jointMatrix(a_joints1.y);
    if (w1.z != 0.0) blend += w1.z * jointMatrix(a_joints1.z);
    if (w1.w != 0.0) blend += w1.w * jointMatrix(a_joints1.w);
#endif
#ifdef INFLUENCE_OVERFLOW
    for (int i = 0; i < overflowCount; i++) {
      vec2 jw = overflowInfluence(overflowFirst + i);
#ifdef WEIGHTS_IMPLICIT_LAST
      if (i == overflowCount - 1) jw.y = implicitWeight;
#endif
      if (jw.y != 0.0) blend += jw.y * jointMatrix(uint(jw.x));
    }
#endif
#if defined(WEIGHTS_REST_REMAINDER) && defined(INSTANCE_FOLDED)
    // The missing weight stays at rest, then is placed by the instance: (1 − Σwᵢ)·W'·T(−O) = (1 − Σwᵢ)·W, the
    // unfolded path's (1 − Σwᵢ)·I and its −(1 − Σwᵢ)·O in one.
    if (weightSum != 1.0) {
      mat3x4 world = instanceWorld();
      world[0].w -= dot(world[0].xyz, u_origin);
      world[1].w -= dot(world[1].xyz, u_origin);
      world[2].w -= dot(world[2].xyz, u_origin);
      blend += (1.0 - weightSum) * world;
    }
#elif defined(WEIGHTS_REST_REMAINDER)
    blend += (1.0 - weightSum) * mat3x4(1.0);   // S2 difference form: the missing weight stays at rest
#endif
    position = vec4(position, 1.0) * blend;
    tangent = vec4(tangent, 0.0) * blend;
#ifdef WEIGHTS_NORMALIZE
    position /= weightSum;
    tangent /= weightSum;
#elif defined(INSTANCE_FOLDED) && !defined(WEIGHTS_REST_REMAINDER)
    // Σwᵢ·W'Kᵢ carries Σwᵢ·W't where the unfolded W'·(… − (1 − Σwᵢ)·O) carries W't − (1 − Σwᵢ)·W'O: add the
    // difference, (1 − Σwᵢ) of W's own translation W't − W'O (W' = W·T(O)).
    if (weightSum != 1.0) {
      mat3x4 world = instanceWorld();
      position += (1.0 - weightSum) * (vec3(world[0].w, world[1].w, world[2].w) - vec4(u_origin, 0.0) * world);
    }
#elif !defined(INSTANCE_FOLDED)
    position -= (1.0 - weightSum) * u_origin;   // the share missing from the palette's T(−O) (skin-vertices.ts)
#endif
    // Normals by the inverse transpose of the blended 3×3 A; mat3(blend) holds A's rows as columns, so it is Aᵀ.
    mat3 a = transpose(mat3(blend));
    normal = cofactorTimes(a[0], a[1], a[2], normal);
  } else {
    position -= u_origin;   // left at rest: T(−O)
#ifdef INSTANCE_FOLDED
    instanceToWorld(position, normal, tangent);
#endif
  }
#endif
#ifdef WEIGHT_VIEW
  {
    // Same slots and weights as the blend above (the weight policy's implicit weights included).
    uint selected = uint(max(u_weightJoint, 0));
    bool any = u_weightJoint >= 0;
    float share = 0.0;
    float count = 0.0;
    for (int k = 0; k < 4; k++) {
      if (any && a_joints[k] == selected) share += w[k];
      if (w[k] != 0.0) count += 1.0;
    }
#ifdef INFLUENCES_8
    for (int k = 0; k < 4; k++) {
      if (any && a_joints1[k] == selected) share += w1[k];
      if (w1[k] != 0.0) count += 1.0;
    }
#endif
#ifdef INFLUENCE_OVERFLOW
    for (int i = 0; i < overflowCount; i++) {
      vec2 jw = overflowInfluence(overflowFirst + i);
#ifdef WEIGHTS_IMPLICIT_LAST
      if (i == overflowCount - 1) jw.y = implicitWeight;
#endif
      if (any && uint(jw.x) == selected) share += jw.y;
      if (jw.y != 0.0) count += 1.0;
    }
#endif
    v_weightView = vec2(weightSum != 0.0 ? share / weightSum : 0.0, count);
  }
#endif
#elif defined(WEIGHT_VIEW)
  v_weightView = vec2(u_weightJoint >= 0 ? 1.0 : 0.0, 1.0);
#endif
#ifdef INSTANCED
  // World space is display space: crowds are drawn without u_toDisplay (an identity there).
#ifndef INSTANCE_FOLDED
  instanceToWorld(position, normal, tangent);
#endif
  v_displayPosition = position;
  vec3 displayNormal = normal;
#else
  v_displayPosition = (u_toDisplay * vec4(position, 1.0)).xyz;
  vec3 displayNormal = u_normalMatrix * normal;
#endif
  float normalLength = length(displayNormal);
  v_displayNormal = normalLength > 0.0 ? displayNormal / normalLength : vec3(0.0);
#ifdef VERTEX_TANGENT
#ifdef INSTANCED
  vec3 displayTangent = tangent;
#else
  vec3 displayTangent = mat3(u_toDisplay) * tangent;
#endif
  float tangentLength = length(displayTangent);
  v_displayTangent = vec4(tangentLength > 0.0 ? displayTangent / tangentLength : vec3(0.0), a_tangent.w);
#endif
#ifdef TEXCOORD
  v_uv = a_uv;
#endif
#ifdef TEXCOORD_1
  v_uv1 = a_uv1;
#endif
#ifdef VERTEX_COLOR
  v_color = a_color;
#endif
#ifdef MTOON_OUTLINE
  // The hull: out along the unit normal (a vertex without a normal stays put); lit.frag shades it as the surface
  // with the normal flipped.
  v_displayPosition += v_displayNormal * outlineWidth(v_displayPosition);
  gl_Position = u_viewProjection * vec4(v_displayPosition, 1.0);
  // three-vrm's depth nudge ("anti-artifact magic"): the hull a hair behind where it lies, against z-fighting.
  gl_Position.z += 1e-6 * gl_Position.w;
#else
  gl_Position = u_viewProjection * vec4(v_displayPosition, 1.0);
#endif
  gl_PointSize = 1.0;
}
