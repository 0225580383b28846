#version 300 es
// Crowds, once per frame before drawing (src/crowd/gpu/instance-prepass.ts): writes each drawn instance's block in the
// layout the skinning draw reads (src/skinning/instance-blocks.ts, live), so that per vertex it fetches each
// influence's 3 rows once and nothing more. Run under transform feedback with the rasterizer discarded, one
// POINT per output texel: vertex t is texel i = t mod u_blockTexels of block k = t div u_blockTexels; the
// source block k has u_sourceBlockTexels texels (live blocks: the live layout; baked blocks: BAKED_BLOCK_TEXELS).
// - i < u_worldTexels: the source's world rows W' = W·T(O) (a DQS block's padding texel is never read);
// - otherwise pose texel j = i − u_worldTexels, P(j): live, the source's; baked (u_frameTexels > 0), blended
//   between baked frames f₀ and f₁ (u_bakedTexture, u_frameTexels texels per frame) by a, (f₀, f₁, a) being
//   texel 3 of the baked block: (1 − a)·B(f₀, j) + a·B(f₁, j) — joint matrix rows, rigid node rows, morph
//   weights — except a DQS rotation quaternion (j < u_quaternionEnd, j mod 4 = 3), blended on the shorter arc
//   and normalised (nlerp), so it stays a unit rotation. When the baked block's texel 4, (g₀, g₁, b, w), has
//   w > 0, the instance's blended clip's frames g₀, g₁ give B(j) alike and P(j) = (1 − w)·A(j) + w·B(j)
//   (quaternions again by nlerp): a per-instance crossfade. docs/guide/crowds.md documents this blend's error
//   against the live pose.
// - texels of the 3-row matrices in [u_foldFirst, u_foldEnd) (entries of u_worldTexels texels: LBS joints and
//   rigid nodes; DQS rigid nodes only, their palettes are not matrices) are premultiplied by the world matrix:
//   row r of W'·K is Σₘ W'[r][m]·K[m] + (0, 0, 0, W'[r][3]) (K's bottom row 0 0 0 1), so skinned.vert's blend
//   Σ wᵢ·W'Kᵢ lands in world space (its INSTANCE_FOLDED). A DQS entry's 4th texel (padding) is copied.
precision highp float;
precision highp int;

uniform highp sampler2D u_instanceTexture;   // source blocks: world rows, then a live pose or (f₀, f₁, a, 0), (g₀, g₁, b, w)
uniform highp sampler2D u_bakedTexture;
uniform int u_sourceBlockTexels;
uniform int u_blockTexels;                   // output texels per block: u_worldTexels + pose texels
uniform int u_worldTexels;                   // the pose's stride: 3 (LBS), 4 (DQS)
uniform int u_frameTexels;                   // baked: texels per baked frame; live: 0
uniform int u_quaternionEnd;                 // baked DQS: texels of the skins' palettes in a pose; otherwise 0
uniform int u_foldFirst;
uniform int u_foldEnd;

out vec4 v_texel;

vec4 texel(highp sampler2D data, int t) {
  int width = textureSize(data, 0).x;
  return texelFetch(data, ivec2(t % width, t / width), 0);
}

// Baked pose texel j between frames (f₀, f₁) at a: rows linearly, DQS rotation quaternions by nlerp.
vec4 between(vec3 frames, int j) {
  vec4 a = texel(u_bakedTexture, int(frames.x) * u_frameTexels + j), b = texel(u_bakedTexture, int(frames.y) * u_frameTexels + j);
  if (j < u_quaternionEnd && (j & 3) == 3) return normalize(mix(a, dot(a, b) < 0.0 ? -b : b, frames.z));
  return mix(a, b, frames.z);
}

// Pose texel j of the block whose source starts at texel `source`; baked: `frames` = (f₀, f₁, a) and `other` =
// (g₀, g₁, b, w), the blended clip's frames and weight (w = 0: none).
vec4 poseTexel(int source, vec3 frames, vec4 other, int j) {
  if (u_frameTexels == 0) return texel(u_instanceTexture, source + u_worldTexels + j);
  vec4 own = between(frames, j);
  if (other.w <= 0.0) return own;
  vec4 blended = between(other.xyz, j);
  if (j < u_quaternionEnd && (j & 3) == 3) return normalize(mix(own, dot(own, blended) < 0.0 ? -blended : blended, other.w));
  return mix(own, blended, other.w);
}

void main() {
  int k = gl_VertexID / u_blockTexels;
  int i = gl_VertexID - k * u_blockTexels;
  int source = k * u_sourceBlockTexels;
  if (i < u_worldTexels) {
    v_texel = texel(u_instanceTexture, source + i);
  } else {
    vec3 frames = u_frameTexels > 0 ? texel(u_instanceTexture, source + 3).xyz : vec3(0.0);
    vec4 other = u_frameTexels > 0 ? texel(u_instanceTexture, source + 4) : vec4(0.0);
    int j = i - u_worldTexels;
    int row = j >= u_foldFirst && j < u_foldEnd ? (j - u_foldFirst) % u_worldTexels : 3;   // 3: not folded
    if (row < 3) {
      int entry = j - row;
      vec4 world = texel(u_instanceTexture, source + row);
      v_texel = world.x * poseTexel(source, frames, other, entry) + world.y * poseTexel(source, frames, other, entry + 1)
              + world.z * poseTexel(source, frames, other, entry + 2) + vec4(0.0, 0.0, 0.0, world.w);
    } else {
      v_texel = poseTexel(source, frames, other, j);
    }
  }
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
