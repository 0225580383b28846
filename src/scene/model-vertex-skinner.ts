import type { PrimitiveAsset } from '../asset/model-asset.ts';
import { MorphedPrimitive } from '../skinning/morph-targets.ts';
import type { SkinningContext } from '../skinning/skinning-context.ts';
import { SkinningKernel } from '../skinning/skinning-kernel.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';

/** One source primitive skinned by one skin: its morphed copy (null without morph targets) and its kernel. */
interface Slot {
  readonly morphed: MorphedPrimitive | null;
  readonly kernel: SkinningKernel;
}

/**
 * Skins whole primitives of a model on the CPU for code that visits every vertex of a pose (bounds and framing,
 * `forEachModelVertex`): morph targets by `MorphedPrimitive`, then a `SkinningKernel` (WebAssembly SIMD, or its
 * portable fallback `skinVertices`; within float32 rounding of `skinVertices`, tests/unit/skinning/skinning-kernel*.test.ts).
 *
 * One morphed copy and one kernel per (source primitive, skinning context) pair, made on first use and kept, so a
 * caller that measures many poses (`computeAnimatedBounds`) pays for them once, and the instances of a mesh share
 * them: a file of 20 000 nodes instancing one skinned mesh makes one kernel, not 20 000 WebAssembly memories
 * (what the memory budget counts, src/pose/model-working-memory.ts). Instances with morph targets re-apply their
 * own weights on each call. Not for `sinew eval`, which must stay the exact reference.
 */
export class ModelVertexSkinner {
  /** Per source primitive, its slots by skinning context (one per skin that skins it; nearly always one). */
  private readonly slots = new Map<PrimitiveAsset, Map<SkinningContext, Slot>>();
  private count = 0;

  /** The kernels made so far: one per (source primitive, skinning context) pair asked for. */
  get kernelCount(): number {
    return this.count;
  }

  /**
   * Skins `primitive` (a mesh's source primitive, with morph targets applied at `morphWeights[morphOffset …]` when
   * it has them and `morphOffset ≥ 0`) by `method`, positions only. Allocates the pair's morphed copy and kernel on
   * its first call.
   * @param skinMatrices `Float32Array(16·m)`, column-major skinning matrices relative to `context.origin`
   * @param morphWeights the pose's morph target weights (`AnimatedModel.morphWeights`), read from `morphOffset` (−1: none)
   * @returns `Float32Array(3·vertexCount)`, the skinned positions (model space − origin), valid until the next call
   *   for this primitive and context
   * @throws as `SkinningKernel` (a slot of non-zero weight naming a joint outside the context) and `MorphedPrimitive.apply`
   */
  positions(
    primitive: PrimitiveAsset, skinMatrices: Float32Array, context: SkinningContext,
    method: SkinningMethod, morphWeights: Float32Array, morphOffset: number,
  ): Float32Array {
    let byContext = this.slots.get(primitive);
    if (!byContext) this.slots.set(primitive, byContext = new Map());
    let slot = byContext.get(context);
    if (!slot) {
      const morphed = primitive.morphTargets ? new MorphedPrimitive(primitive) : null;
      slot = { morphed, kernel: new SkinningKernel(morphed ? morphed.primitive : primitive, context) };
      byContext.set(context, slot);
      this.count++;
    }
    const { kernel, morphed } = slot;
    if (morphed) {
      // Without weights of its own (−1), the instance is skinned from the source's positions (all this skins).
      if (morphOffset >= 0) morphed.apply(morphWeights, morphOffset);
      else morphed.positions.set(primitive.positions);
      kernel.refreshRest();
    }
    kernel.skin(skinMatrices, method, false, false);
    return kernel.positions;
  }
}
