// The studio environment Sinew lights models with (docs/guide/lighting.md): radiance in linear
// units for each direction of display space (+Y up, the camera on +Z at yaw 0). A sky fading from a pale
// horizon to a soft blue-grey zenith, a darker warm ground below a soft horizon line, and three soft-edged
// area lights: a large warm key above front right (≈ 22° across, radiance 7), a cool fill on the left and a
// narrow rim light behind. A white Lambertian surface facing the key receives irradiance/π ≈ 0.95, facing up
// ≈ 0.8, the camera ≈ 0.6, away from it ≈ 0.3 and the ground ≈ 0.1: shape reads without clipping.
// Written into each face of the base cube map (level 0); the filter passes blur it.
out vec4 outColor;

// A soft-edged disc light of angular radius `radius` (radians) around `axis`: 1 inside, 0 outside, smooth in between.
float softbox(vec3 d, vec3 axis, float radius) {
  float angle = acos(clamp(dot(d, axis), -1.0, 1.0));
  return 1.0 - smoothstep(radius * 0.6, radius, angle);
}

vec3 studioRadiance(vec3 d) {
  const vec3 ZENITH = vec3(0.30, 0.34, 0.42);
  const vec3 HORIZON = vec3(0.52, 0.52, 0.50);
  const vec3 GROUND_NEAR = vec3(0.20, 0.18, 0.16);
  const vec3 GROUND_FAR = vec3(0.08, 0.075, 0.07);
  float y = d.y;
  vec3 sky = mix(HORIZON, ZENITH, sqrt(max(y, 0.0)));
  vec3 ground = mix(GROUND_NEAR, GROUND_FAR, sqrt(max(-y, 0.0)));
  vec3 c = mix(ground, sky, smoothstep(-0.04, 0.04, y));
  c += vec3(7.0, 6.5, 5.6) * softbox(d, normalize(vec3(0.55, 0.65, 0.52)), 0.38);
  c += vec3(0.7, 0.85, 1.05) * softbox(d, normalize(vec3(-0.85, 0.25, 0.35)), 0.5);
  c += vec3(2.0, 2.0, 2.1) * softbox(d, normalize(vec3(-0.1, 0.45, -0.9)), 0.22);
  return c;
}

void main() {
  outColor = vec4(studioRadiance(faceDirection()), 1.0);
}
