// model-viewer's generated environments `neutral` and `legacy` (model-viewer 4.x
// three-components/EnvironmentScene.ts, rendered there by a three.js CubeCamera), ray-cast here instead of
// rasterised: the camera at the origin of a large white room (a box seen from inside), six white boxes standing
// on its floor, emissive box "area lights" (MeshBasicMaterial, radiance = their intensity) and one point light
// (three's physically based PointLight: intensity in candela, cutoff distance 28, decay 2, no shadows). The
// white surfaces are Lambertian with albedo 1: radiance = E/π with E the point light's irradiance. The scene
// data (src/gpu/shading/room-environments.ts) is already shifted by the scene's y offset of −3.5.
out vec4 outColor;

uniform vec3 u_roomCenter;
uniform vec3 u_roomScale;
uniform vec3 u_boxCenter[6];
uniform vec3 u_boxScale[6];
uniform float u_boxAngle[6];   // rotation about +Y, radians (three's rotation.y)
uniform int u_lightCount;
uniform vec3 u_lightCenter[8];
uniform vec3 u_lightScale[8];
uniform float u_lightRadiance[8];
uniform vec3 u_pointPosition;
uniform float u_pointIntensity; // candela

// Entry (x) and exit (y) distances along the unit ray d from the origin through the box `center`, `scale`,
// rotated by `angle` about +Y; x > y when the ray misses. `normal` is the entry face's normal.
vec2 hitBox(vec3 d, vec3 center, vec3 scale, float angle, out vec3 entryNormal, out vec3 exitNormal) {
  float c = cos(angle), s = sin(angle);
  // three's Ry(θ) = [c 0 s; 0 1 0; −s 0 c]; its inverse (the transpose) takes world to the box's frame.
  mat3 toWorld = mat3(vec3(c, 0.0, -s), vec3(0.0, 1.0, 0.0), vec3(s, 0.0, c));
  mat3 toLocal = transpose(toWorld);
  vec3 o = toLocal * (-center) / scale;
  vec3 v = toLocal * d / scale;
  vec3 inv = 1.0 / v;
  vec3 t0 = (-0.5 - o) * inv;
  vec3 t1 = (0.5 - o) * inv;
  vec3 tn = min(t0, t1), tf = max(t0, t1);
  float near = max(max(tn.x, tn.y), tn.z);
  float far = min(min(tf.x, tf.y), tf.z);
  vec3 nNear = near == tn.x ? vec3(-sign(v.x), 0.0, 0.0) : near == tn.y ? vec3(0.0, -sign(v.y), 0.0) : vec3(0.0, 0.0, -sign(v.z));
  vec3 nFar = far == tf.x ? vec3(-sign(v.x), 0.0, 0.0) : far == tf.y ? vec3(0.0, -sign(v.y), 0.0) : vec3(0.0, 0.0, -sign(v.z));
  entryNormal = normalize(toWorld * (nNear / scale));
  exitNormal = normalize(toWorld * (nFar / scale)); // faces inward: the room's inside
  return vec2(near, far);
}

// three's getDistanceAttenuation (physically based lights): inverse square, windowed to 0 at `cutoff`.
float attenuation(float distance, float cutoff) {
  float ratio = distance / cutoff;
  float window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
  return window * window / max(distance * distance, 0.01);
}

vec3 roomRadiance(vec3 d) {
  vec3 entryN, exitN;
  vec2 room = hitBox(d, u_roomCenter, u_roomScale, 0.0, entryN, exitN);
  float t = room.y;
  vec3 n = exitN;
  for (int i = 0; i < 8; i++) {
    if (i >= u_lightCount) break;
    vec2 hit = hitBox(d, u_lightCenter[i], u_lightScale[i], 0.0, entryN, exitN);
    if (hit.x <= hit.y && hit.x > 0.0 && hit.x < t) return vec3(u_lightRadiance[i]);
  }
  for (int i = 0; i < 6; i++) {
    vec2 hit = hitBox(d, u_boxCenter[i], u_boxScale[i], u_boxAngle[i], entryN, exitN);
    if (hit.x <= hit.y && hit.x > 0.0 && hit.x < t) {
      t = hit.x;
      n = entryN;
    }
  }
  vec3 p = d * t;
  vec3 toLight = u_pointPosition - p;
  float distance = length(toLight);
  float irradiance = u_pointIntensity * max(dot(n, toLight / distance), 0.0) * attenuation(distance, 28.0);
  return vec3(irradiance / PI);
}

void main() {
  outColor = vec4(roomRadiance(faceDirection()), 1.0);
}
