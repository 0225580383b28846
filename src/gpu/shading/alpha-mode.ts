import type { AlphaMode as GltfAlphaMode } from '../../asset/model-asset.ts';

/**
 * glTF 2.0 §3.9.4 "Alpha Coverage" as the GPU side branches on it, and as lit.frag's `u_alphaMode` reads it
 * (the values are the uniform's): OPAQUE ignores alpha; MASK keeps a fragment only when its alpha ≥ the cutoff;
 * BLEND composites over what is behind, drawn after the opaque primitives, farthest first, without depth writes.
 * The asset keeps glTF's strings (`MaterialAsset.alphaMode`); {@link alphaModeOf} maps them.
 */
export enum AlphaMode {
  Opaque = 0,
  Mask = 1,
  Blend = 2,
}

/** The {@link AlphaMode} of glTF's `material.alphaMode` string (absent: OPAQUE, the glTF default). */
export function alphaModeOf(mode: GltfAlphaMode | undefined): AlphaMode {
  return mode === 'BLEND' ? AlphaMode.Blend : mode === 'MASK' ? AlphaMode.Mask : AlphaMode.Opaque;
}
