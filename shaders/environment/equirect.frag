// An equirectangular (latitude-longitude) environment image, as three.js maps one
// (EquirectangularReflectionMapping, `equirectUv`): u = atan(d.z, d.x)/2π + 0.5 around +Y, the image's top row
// straight up. Row 0 of the uploaded texture is the image's top row. Linear radiance: sRGB images are uploaded
// as SRGB8_ALPHA8 (sampling decodes them), Radiance .hdr as RGB16F. u_lod picks the mip level whose texels
// match the face's (no derivatives: the u seam would pick the smallest level).
out vec4 outColor;

uniform sampler2D u_equirect;
uniform float u_lod;

vec3 equirectRadiance(vec3 d) {
  vec2 uv = vec2(atan(d.z, d.x) / (2.0 * PI) + 0.5, 0.5 - asin(clamp(d.y, -1.0, 1.0)) / PI);
  return textureLod(u_equirect, uv, u_lod).rgb;
}

void main() {
  outColor = vec4(equirectRadiance(faceDirection()), 1.0);
}
