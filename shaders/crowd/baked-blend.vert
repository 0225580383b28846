#version 300 es
// Baked crowds, once per frame before drawing (src/gl/baked-blend.ts): blends each drawn instance's two baked
// frames into a block of the live layout (src/skinning/instance-blocks.ts), so that the skinning draw reads
// each joint once per influence as in live mode, not two frames' worth. Run under transform feedback with the
// rasterizer discarded, one POINT per output texel: vertex t is texel i = t mod u_blockTexels of block
// k = t div u_blockTexels. Texels below u_worldTexels copy the baked block's (its world rows; a DQS block's
// padding texel is never read); texel u_worldTexels + j is texel j of the pose blended between baked frames
// f₀ and f₁ (u_bakedTexture, u_frameTexels texels per frame) by a, (f₀, f₁, a) being texel 3 of the baked
// block: A = (1 − a)·B(f₀, j) + a·B(f₁, j) — joint matrix rows, rigid node rows, morph weights — except a DQS
// rotation quaternion (j < u_quaternionEnd, j mod 4 = 3), which is blended on the shorter arc and normalised
// (nlerp), so it stays a unit rotation. When the block's texel 4, (g₀, g₁, b, w), has w > 0, the instance's
// blended clip's frames g₀ and g₁ give B alike, and the texel is (1 − w)·A + w·B (quaternions again by nlerp).
// README "Crowds" documents this blend's error against the live pose.
precision highp float;
precision highp int;

uniform highp sampler2D u_instanceTexture;   // baked blocks: 3 world rows, (f₀, f₁, a, 0), (g₀, g₁, b, w), unused
uniform int u_sourceTexels;                  // texels per baked block (BAKED_BLOCK_TEXELS)
uniform highp sampler2D u_bakedTexture;
uniform int u_blockTexels;                   // output texels per block: u_worldTexels + u_frameTexels
uniform int u_worldTexels;                   // the pose's stride: 3 (LBS), 4 (DQS)
uniform int u_frameTexels;
uniform int u_quaternionEnd;                 // DQS: texels of the skins' palettes in a pose; LBS: 0

out vec4 v_texel;

vec4 texel(highp sampler2D data, int t) {
  int width = textureSize(data, 0).x;
  return texelFetch(data, ivec2(t % width, t / width), 0);
}

/** Texel j of the pose between baked frames (f₀, f₁) at a: rows linearly, DQS rotations by nlerp. */
vec4 between(vec3 frames, int j, bool quaternion) {
  vec4 a = texel(u_bakedTexture, int(frames.x) * u_frameTexels + j), b = texel(u_bakedTexture, int(frames.y) * u_frameTexels + j);
  return quaternion ? normalize(mix(a, dot(a, b) < 0.0 ? -b : b, frames.z)) : mix(a, b, frames.z);
}

void main() {
  int k = gl_VertexID / u_blockTexels;
  int i = gl_VertexID - k * u_blockTexels;
  int source = u_sourceTexels * k;
  if (i < u_worldTexels) {
    v_texel = texel(u_instanceTexture, source + i);
  } else {
    int j = i - u_worldTexels;
    bool quaternion = j < u_quaternionEnd && (j & 3) == 3;
    vec4 own = between(texel(u_instanceTexture, source + 3).xyz, j, quaternion);
    vec4 other = texel(u_instanceTexture, source + 4);
    if (other.w > 0.0) {
      vec4 blended = between(other.xyz, j, quaternion);
      own = quaternion ? normalize(mix(own, dot(own, blended) < 0.0 ? -blended : blended, other.w)) : mix(own, blended, other.w);
    }
    v_texel = own;
  }
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
