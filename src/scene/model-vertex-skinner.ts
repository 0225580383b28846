import type { PrimitiveAsset } from '../asset/model-asset.ts';
import { MorphedPrimitive } from '../skinning/morph-targets.ts';
import type { SkinningContext } from '../skinning/skinning-context.ts';
import { SkinningKernel } from '../skinning/skinning-kernel.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';

/** One primitive of one mesh instance: its morphed copy (null without morph targets) and its kernel. */
interface Slot {
  readonly source: PrimitiveAsset;
  readonly morphed: MorphedPrimitive | null;
  kernel: SkinningKernel | null;
}

/**
 * Skins whole primitives of a model on the CPU for code that visits every vertex of a pose (bounds and framing,
 * `forEachModelVertex`): morph targets by `MorphedPrimitive`, then a `SkinningKernel` per primitive
 * (WebAssembly SIMD, or its portable fallback `skinVertices`; within float32 rounding of `skinVertices`,
 * tests/unit/skinning/skinning-kernel*.test.ts). The morphed copies and kernels are made on first use and kept,
 * so a caller that measures many poses (`computeAnimatedBounds`) pays for them once. Not for `sinew eval`, which
 * must stay the exact reference.
 */
export class ModelVertexSkinner {
  private readonly slots = new Map<string, Slot>();

  /**
   * Skins primitive `primitiveIndex` of mesh instance `instanceIndex` (its source `primitive`, with morph targets
   * applied at `morphWeights[morphOffset …]` when it has them and `morphOffset ≥ 0`) by `method`, positions only.
   * Allocates the primitive's morphed copy and kernel on its first call (and a new kernel for a new context).
   * @param skinMatrices `Float32Array(16·m)`, column-major skinning matrices relative to `context.origin`
   * @param morphWeights the pose's morph target weights (`AnimatedModel.morphWeights`), read from `morphOffset` (−1: none)
   * @returns `Float32Array(3·vertexCount)`, the skinned positions (model space − origin), valid until the next call
   *   for this primitive
   * @throws as `SkinningKernel` (a slot of non-zero weight naming a joint outside the context) and `MorphedPrimitive.apply`
   */
  positions(
    instanceIndex: number, primitiveIndex: number, primitive: PrimitiveAsset, skinMatrices: Float32Array, context: SkinningContext,
    method: SkinningMethod, morphWeights: Float32Array, morphOffset: number,
  ): Float32Array {
    const key = `${instanceIndex}/${primitiveIndex}`;
    let slot = this.slots.get(key);
    if (!slot || slot.source !== primitive) {
      slot = { source: primitive, morphed: primitive.morphTargets && morphOffset >= 0 ? new MorphedPrimitive(primitive) : null, kernel: null };
      this.slots.set(key, slot);
    }
    if (slot.kernel?.context !== context) slot.kernel = new SkinningKernel(slot.morphed ? slot.morphed.primitive : primitive, context);
    const kernel = slot.kernel;
    if (slot.morphed) {
      slot.morphed.apply(morphWeights, morphOffset);
      kernel.refreshRest();
    }
    kernel.skin(skinMatrices, method, false, false);
    return kernel.positions;
  }
}
