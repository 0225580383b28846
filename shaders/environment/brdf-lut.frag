// The GGX split-sum BRDF table (Karis 2013): for x = n·v and y = perceptual roughness (texel centres), the
// scale A and bias B of F0 in ∫ f(l, v)(n·l) dl = F0·A + B, with Schlick's Fresnel and the height-correlated
// Smith visibility of glTF 2.0 Appendix B. Importance-sampled with u_sampleCount GGX half vectors.
out vec4 outColor;

uniform int u_sampleCount;

void main() {
  float nDotV = gl_FragCoord.x / u_size;
  float roughness = gl_FragCoord.y / u_size;
  float alpha = roughness * roughness;
  vec3 v = vec3(sqrt(1.0 - nDotV * nDotV), 0.0, nDotV);
  float a = 0.0, b = 0.0;
  for (int i = 0; i < u_sampleCount; i++) {
    vec4 h = sampleGgx(hammersley(i, u_sampleCount), alpha);
    vec3 l = reflect(-v, h.xyz);
    float nDotL = l.z;
    float vDotH = dot(v, h.xyz);
    if (nDotL > 0.0 && vDotH > 0.0) {
      // f·(n·l)/pdf(l) with pdf(l) = D(n·h)/(4 v·h): 4·V·(n·l)(v·h)/(n·h), times F = F0(1 − Fc) + Fc.
      float g = 4.0 * visibilityGgx(nDotL, nDotV, alpha) * nDotL * vDotH / h.z;
      float fc = pow(1.0 - vDotH, 5.0);
      a += (1.0 - fc) * g;
      b += fc * g;
    }
  }
  outColor = vec4(a / float(u_sampleCount), b / float(u_sampleCount), 0.0, 1.0);
}
