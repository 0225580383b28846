import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimatedModel } from './animated-model.ts';
import { MorphedPrimitive } from '../skinning/morph-targets.ts';
import { DEFAULT_SKINNING_METHOD } from '../skinning/skinning-method.ts';
import { ModelVertexSkinner } from './model-vertex-skinner.ts';
import type { Bounds } from './orbit-camera.ts';

/** A mutable axis-aligned box, in the model's units. */
export interface ModelBounds extends Bounds {
  readonly min: [number, number, number];
  readonly max: [number, number, number];
}

/**
 * Calls `visit(x, y, z)` with every vertex of a model at its current pose (the instances of a skinned mesh that
 * share a skin and have no morph weights of their own coincide, and are visited once) (`animated`'s buffers as its last
 * `evaluate(source)` left them): morph targets applied first at the pose's weights (`MorphedPrimitive`), every
 * skinned primitive skinned whole on the CPU by `skinner` (a `SkinningKernel` per primitive: WebAssembly SIMD,
 * or the portable `skinVertices`; LBS with normalised weights) with its skin's skinning matrices,
 * every rigid one placed by its joint's model-space matrix; then each point has the model's origin
 * (`animated.origin`, to which the pose buffers are relative) added back in f64 and goes through `displayMatrix`
 * when given (model space → display space, e.g. Z-up to Y-up). Non-finite points are skipped. Allocates (the
 * skinner's kernels on first use, one per skinned primitive and skin, morphed copies of rigid primitives per call): meant for framing on load, not
 * per frame; pass one `skinner` to calls over several poses of the same model.
 * @param skinner skins the skinned primitives, keeping its kernels between calls (default: a new one)
 */
export function forEachModelVertex(
  asset: ModelAsset, animated: AnimatedModel, displayMatrix: Float32Array | undefined, visit: (x: number, y: number, z: number) => void,
  skinner: ModelVertexSkinner = new ModelVertexSkinner(),
): void {
  const d = displayMatrix;
  const ox = animated.origin[0], oy = animated.origin[1], oz = animated.origin[2];
  const add = (x: number, y: number, z: number): void => {
    x += ox; y += oy; z += oz;
    if (d) {
      const tx = d[0] * x + d[4] * y + d[8] * z + d[12];
      const ty = d[1] * x + d[5] * y + d[9] * z + d[13];
      const tz = d[2] * x + d[6] * y + d[10] * z + d[14];
      x = tx; y = ty; z = tz;
    }
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return;
    visit(x, y, z);
  };
  // Skinned instances of one mesh and skin without morph weights of their own coincide (glTF 2.0 §3.7.3: a skinned
  // mesh ignores its node): the first one stands for them all, by `mesh · skinCount + skin`.
  const visited = new Set<number>();
  const skinCount = asset.skins.length;
  for (const instance of asset.meshInstances) {
    const mesh = asset.meshes[instance.mesh];
    if (!mesh) continue;
    const morphOffset = instance.morphWeightOffset ?? -1;
    if (instance.skin >= 0 && morphOffset < 0) {
      const key = instance.mesh * skinCount + instance.skin;
      if (visited.has(key)) continue;
      visited.add(key);
    }
    for (const sourcePrimitive of mesh.primitives) {
      const n = sourcePrimitive.vertexCount;
      if (instance.skin >= 0 && sourcePrimitive.joints && sourcePrimitive.weights && animated.skinMatrices[instance.skin]) {
        const out = skinner.positions(sourcePrimitive, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin],
          DEFAULT_SKINNING_METHOD, animated.morphWeights, morphOffset);
        for (let v = 0; v < n; v++) add(out[3 * v], out[3 * v + 1], out[3 * v + 2]);
      } else {
        const primitive = sourcePrimitive.morphTargets && morphOffset >= 0
          ? new MorphedPrimitive(sourcePrimitive).apply(animated.morphWeights, morphOffset)
          : sourcePrimitive;
        const m = animated.modelMatrices;
        const o = 16 * instance.node;
        const rest = primitive.positions;
        for (let v = 0; v < n; v++) {
          const x = rest[3 * v], y = rest[3 * v + 1], z = rest[3 * v + 2];
          add(
            m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12],
            m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13],
            m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14],
          );
        }
      }
    }
  }
}

/**
 * The axis-aligned bounds of a model at its current pose: the box around {@link forEachModelVertex}'s points.
 * Allocates (see {@link forEachModelVertex}): meant for framing on load, not per frame.
 *
 * A model with no vertices (or only non-finite ones) gets the unit box around the origin, so a camera
 * framed on it is still valid.
 * @param skinner skins the skinned primitives, keeping its kernels between calls (default: a new one)
 * @returns in model space, or display space with `displayMatrix`
 */
export function computeModelBounds(
  asset: ModelAsset, animated: AnimatedModel, displayMatrix?: Float32Array, skinner: ModelVertexSkinner = new ModelVertexSkinner(),
): ModelBounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  forEachModelVertex(asset, animated, displayMatrix, (x, y, z) => {
    if (x < min[0]) min[0] = x;
    if (y < min[1]) min[1] = y;
    if (z < min[2]) min[2] = z;
    if (x > max[0]) max[0] = x;
    if (y > max[1]) max[1] = y;
    if (z > max[2]) max[2] = z;
  }, skinner);
  if (!(min[0] <= max[0])) return { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] };
  return { min, max };
}

/**
 * The union of {@link computeModelBounds} over the rest pose and `samplesPerClip` evenly spaced times of each
 * clip (both ends included), so a camera framed on it keeps the whole animation in view (a run that leaves
 * its start, a tail that swings wide). Evaluates `animated` at those poses and leaves it at the rest pose:
 * evaluate it again afterwards. Allocates (one kernel per skinned primitive, reused for every pose): meant for
 * framing on load, not per frame.
 * @param samplesPerClip poses per clip, ≥ 2 (default 8)
 * @returns in model space, or display space with `displayMatrix`
 */
export function computeAnimatedBounds(asset: ModelAsset, animated: AnimatedModel, displayMatrix?: Float32Array, samplesPerClip = 8): ModelBounds {
  animated.evaluate(animated.clipSample(-1));
  const skinner = new ModelVertexSkinner();
  const box = computeModelBounds(asset, animated, displayMatrix, skinner);
  const n = Math.max(2, samplesPerClip);
  for (let c = 0; c < animated.clips.length; c++) {
    const duration = asset.clips[c].duration;
    for (let k = 0; k < n; k++) {
      animated.evaluate(animated.clipSample(c).at((duration * k) / (n - 1)));
      const b = computeModelBounds(asset, animated, displayMatrix, skinner);
      for (let a = 0; a < 3; a++) {
        box.min[a] = Math.min(box.min[a], b.min[a]);
        box.max[a] = Math.max(box.max[a], b.max[a]);
      }
    }
  }
  animated.evaluate(animated.clipSample(-1));
  return box;
}
