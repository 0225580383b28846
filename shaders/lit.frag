#version 300 es
// Sinew lit fragment shader: base colour factor × sRGB texture (uploaded as SRGB8_ALPHA8, so sampling returns
// linear values), hemisphere ambient + two directional lights (Lambert + a little Blinn-Phong), a filmic tone
// curve, output encoded to sRGB. Back faces (reaching here only for double-sided materials) are lit with the flipped normal.
precision highp float;

in vec3 v_displayPosition;
in vec3 v_displayNormal;
in vec2 v_uv;

uniform vec4 u_baseColorFactor;       // linear RGBA
uniform sampler2D u_baseColorTexture; // sRGB texture, or 1×1 white
uniform vec3 u_eye;                   // camera position, display space (as the light directions)
uniform bool u_flatShading;           // no normals in the file: use the skinned triangle's face normal

out vec4 outColor;

const vec3 SKY = vec3(0.42, 0.46, 0.55);
const vec3 GROUND = vec3(0.18, 0.16, 0.14);
const vec3 KEY_DIRECTION = vec3(0.4574957, 0.7624929, 0.4574957);   // normalize(0.6, 1.0, 0.6), towards the light
const vec3 KEY_COLOR = vec3(1.0, 0.96, 0.9);
const vec3 FILL_DIRECTION = vec3(-0.6423453, 0.3211726, -0.6958740); // normalize(-0.6, 0.3, -0.65)
const vec3 FILL_COLOR = vec3(0.25, 0.3, 0.4);
const float SPECULAR = 0.12;
const float SHININESS = 32.0;

vec3 linearToSrgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// Filmic tone curve (Narkowicz's ACES fit) applied to luminance, so hues keep their ratios: highlights roll
// off instead of clipping to white, and a white albedo facing the key light keeps its shape.
vec3 toneMap(vec3 c) {
  float luminance = dot(c, vec3(0.2126, 0.7152, 0.0722));
  if (luminance <= 0.0) return vec3(0.0);
  float mapped = (luminance * (2.51 * luminance + 0.03)) / (luminance * (2.43 * luminance + 0.59) + 0.14);
  return clamp(c * (mapped / luminance), 0.0, 1.0);
}

vec3 directional(vec3 n, vec3 v, vec3 l, vec3 color, vec3 albedo) {
  float lambert = max(dot(n, l), 0.0);
  vec3 h = normalize(l + v);
  float specular = lambert > 0.0 ? SPECULAR * pow(max(dot(n, h), 0.0), SHININESS) : 0.0;
  return color * (albedo * lambert + specular);
}

void main() {
  vec4 base = u_baseColorFactor * texture(u_baseColorTexture, v_uv);
  vec3 n;
  if (u_flatShading) {
    // glTF 2.0 §3.7.2.1: flat normals when the file has none. The derivatives' cross product is the face
    // normal of the deformed triangle, already facing the viewer.
    n = normalize(cross(dFdx(v_displayPosition), dFdy(v_displayPosition)));
  } else {
    n = normalize(v_displayNormal);
    if (!gl_FrontFacing) n = -n;
  }
  vec3 v = normalize(u_eye - v_displayPosition);
  vec3 color = base.rgb * mix(GROUND, SKY, 0.5 + 0.5 * n.y);
  color += directional(n, v, KEY_DIRECTION, KEY_COLOR, base.rgb);
  color += directional(n, v, FILL_DIRECTION, FILL_COLOR, base.rgb);
  outColor = vec4(linearToSrgb(toneMap(color)), 1.0);
}
