// Prefilters the environment for the split-sum image-based lighting of lit.frag (Karis, "Real Shading in
// Unreal Engine 4", 2013), as the Khronos glTF Sample Viewer does: per output texel (direction n, with v = n),
// u_sampleCount importance samples of the source cube map, each read at the mip level its pdf covers
// ("filtered importance sampling", Křivánek & Colbert, GPU Gems 3 ch. 20: lod = ½ log2(Ωs / Ωp) with
// Ωs = 1/(N·pdf), Ωp = 4π/(6·w²)).
//   u_lambertian = true: irradiance / π for a Lambertian surface (cosine-weighted samples);
//   else the GGX-filtered radiance for roughness u_roughness (samples of D(h)·(n·h), weighted by n·l).
out vec4 outColor;

uniform samplerCube u_source;   // the environment, with its full mip chain
uniform float u_sourceSize;     // its level-0 face width
uniform int u_sampleCount;
uniform float u_roughness;
uniform bool u_lambertian;

float lodFor(float pdf) {
  return 0.5 * log2(6.0 * u_sourceSize * u_sourceSize / (4.0 * PI * float(u_sampleCount) * pdf)) + 1.0;
}

void main() {
  vec3 n = faceDirection();
  mat3 frame = frameAround(n);
  vec3 sum = vec3(0.0);
  float weight = 0.0;
  float alpha = u_roughness * u_roughness;
  for (int i = 0; i < u_sampleCount; i++) {
    vec2 xi = hammersley(i, u_sampleCount);
    if (u_lambertian) {
      // Cosine-weighted direction: pdf = (n·l)/π; the estimator of irradiance/π is the plain mean.
      float cosTheta = sqrt(1.0 - xi.y);
      float sinTheta = sqrt(xi.y);
      float phi = 2.0 * PI * xi.x;
      vec3 l = frame * vec3(sinTheta * cos(phi), sinTheta * sin(phi), cosTheta);
      sum += textureLod(u_source, l, lodFor(cosTheta / PI)).rgb;
      weight += 1.0;
    } else {
      vec4 h = sampleGgx(xi, alpha);
      vec3 hw = frame * h.xyz;
      vec3 l = reflect(-n, hw);
      float nDotL = dot(n, l);
      if (nDotL > 0.0) {
        // v = n, so the pdf of l is D(h)(n·h) / (4 (v·h)) = D(h) / 4.
        float pdf = h.w / (4.0 * h.z);
        sum += textureLod(u_source, l, alpha == 0.0 ? 0.0 : lodFor(pdf)).rgb * nDotL;
        weight += nDotL;
      }
    }
  }
  outColor = vec4(weight > 0.0 ? sum / weight : vec3(0.0), 1.0);
}
