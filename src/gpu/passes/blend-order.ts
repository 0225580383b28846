import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../asset/model-asset.ts';
import type { RenderItem } from './render-item.ts';

const IDENTITY = mat4.create() as Float32Array;

/**
 * The BLEND primitives of one draw and their drawing order: by render queue first (VRMC_materials_mtoon-1.0
 * README "Render Queue", {@link blendQueueOf}: lower first), then farthest first within a queue (glTF 2.0 §3.9.4,
 * by the primitive's bounding-box centre): the renderer's scratch, grown when a draw has more, never shrunk, so
 * frames allocate nothing once it has grown.
 */
export class BlendOrder {
  /** Entries collected since {@link clear}. */
  count = 0;
  /** `Int32Array(≥ count)`: entry k's mesh instance. */
  instance = new Int32Array(8);
  /** `Int32Array(≥ count)`: entry k's primitive index in its instance's mesh. */
  primitive = new Int32Array(8);
  private distance = new Float64Array(8);
  private queue = new Int32Array(8);
  /** `Int32Array(≥ count)`: entries in drawing order after {@link sort}. */
  order = new Int32Array(8);

  /** Forgets the entries (keeps the storage). */
  clear(): void {
    this.count = 0;
  }

  /**
   * Adds primitive `p` of mesh instance `i` at squared distance `distance` from the eye, in render queue `queue`
   * ({@link blendQueueOf}; default 19, a BLEND material without depth writes and offset 0).
   */
  push(i: number, p: number, distance: number, queue = BLEND_QUEUE_DEFAULT): void {
    const k = this.count;
    if (k === this.order.length) this.grow(2 * k);
    this.instance[k] = i;
    this.primitive[k] = p;
    this.distance[k] = distance;
    this.queue[k] = queue;
    this.order[k] = k;
    this.count = k + 1;
  }

  /**
   * Sorts {@link order} by queue, lowest first, then by distance, largest first (insertion sort: few blended
   * primitives, stable, no allocation).
   */
  sort(): void {
    const order = this.order, distance = this.distance, queue = this.queue;
    for (let k = 1; k < this.count; k++) {
      const item = order[k];
      const d = distance[item], q = queue[item];
      let j = k - 1;
      while (j >= 0 && (queue[order[j]] > q || (queue[order[j]] === q && distance[order[j]] < d))) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = item;
    }
  }

  private grow(size: number): void {
    const grow = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.instance = grow(this.instance, (n) => new Int32Array(n));
    this.primitive = grow(this.primitive, (n) => new Int32Array(n));
    this.distance = grow(this.distance, (n) => new Float64Array(n));
    this.queue = grow(this.queue, (n) => new Int32Array(n));
    this.order = grow(this.order, (n) => new Int32Array(n));
  }
}

/**
 * Squared display-space distance from `eye` (origin-relative, as the renderer's `u_eye`) to the bounding-box
 * centre of primitive `p` of mesh instance `i` of `item`, placed by its node (rigid) or by the skinning matrix of
 * its heaviest joint (skinned), then by the item's display matrix.
 */
export function distanceToEye(item: RenderItem, i: number, p: number, eye: Float32Array): number {
  const instance = item.gpuModel.asset.meshInstances[i];
  const primitive = item.gpuModel.primitive(instance.mesh, p);
  const pose = item.pose, display = item.displayMatrix ?? IDENTITY;
  const c = primitive.center;
  const skinned = instance.skin >= 0 && primitive.skinned;
  const m = skinned ? pose.skinMatrices[instance.skin] : pose.modelMatrices;
  const o = skinned ? 16 * primitive.anchorJoint : 16 * instance.node;
  // Model space, then display space.
  const mx = m[o] * c[0] + m[o + 4] * c[1] + m[o + 8] * c[2] + m[o + 12];
  const my = m[o + 1] * c[0] + m[o + 5] * c[1] + m[o + 9] * c[2] + m[o + 13];
  const mz = m[o + 2] * c[0] + m[o + 6] * c[1] + m[o + 10] * c[2] + m[o + 14];
  const dx = display[0] * mx + display[4] * my + display[8] * mz + display[12] - eye[0];
  const dy = display[1] * mx + display[5] * my + display[9] * mz + display[13] - eye[1];
  const dz = display[2] * mx + display[6] * my + display[10] * mz + display[14] - eye[2];
  return dx * dx + dy * dy + dz * dz;
}

/** {@link blendQueueOf} of a BLEND material that is not MToon, or MToon without depth writes and offset 0. */
export const BLEND_QUEUE_DEFAULT = 19;

/**
 * The render queue of a BLEND material `material` of `asset`, lower drawn first (VRMC_materials_mtoon-1.0 README
 * "Render Queue"): with `transparentWithZWrite` its `renderQueueOffsetNumber` (0 to 9), without it 19 plus the
 * offset (−9 to 0), so every BLEND material that writes depth comes before every one that does not, and a higher
 * offset later within each — the numbers three-vrm gives its meshes' `renderOrder`. A material that is not MToon
 * (or an index out of range) takes 19, the specification's "assume their renderQueueOffsetNumber is 0" for a BLEND
 * material without depth writes; three-vrm leaves such meshes at `renderOrder` 0, before its MToon BLEND ones
 * without depth writes: Sinew follows the specification.
 */
export function blendQueueOf(asset: ModelAsset, material: number): number {
  const mtoon = material >= 0 && material < asset.materials.length ? asset.materials[material].mtoon : undefined;
  if (!mtoon) return BLEND_QUEUE_DEFAULT;
  return (mtoon.transparentWithZWrite ? 0 : BLEND_QUEUE_DEFAULT) + mtoon.renderQueueOffsetNumber;
}

/** Whether BLEND material `material` of `asset` writes depth (MToon `transparentWithZWrite`; README "Render Mode"). */
export function writesDepthWhenBlended(asset: ModelAsset, material: number): boolean {
  return material >= 0 && material < asset.materials.length && asset.materials[material].mtoon?.transparentWithZWrite === true;
}
