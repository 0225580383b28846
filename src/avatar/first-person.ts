import type { FirstPersonType } from '../asset/avatar-asset.ts';
import type { ModelAsset } from '../asset/model-asset.ts';

/** The share of a skinned `auto` mesh's influence weight on the head's subtree above which first person hides it. */
export const FIRST_PERSON_HEAD_SHARE = 0.5;

/** Which mesh instances (indices into `ModelAsset.meshInstances`) each view hides (VRMC_vrm-1.0 `firstPerson.md`). */
export interface FirstPersonVisibility {
  /** Each instance's annotation type (`auto` when not annotated), same order as `meshInstances`. */
  readonly types: readonly FirstPersonType[];
  /** Hidden in the first-person view: `thirdPersonOnly`, and `auto` instances on the head (below). Ascending. */
  readonly hiddenInFirstPerson: readonly number[];
  /** Hidden in the third-person view: `firstPersonOnly`. Ascending. */
  readonly hiddenInThirdPerson: readonly number[];
}

/**
 * The first-person annotations of an avatar applied to its mesh instances (VRMC_vrm-1.0 `firstPerson.md`): an
 * instance takes the type of the annotation naming its node, else `auto`. `auto` is resolved per whole instance,
 * where three-vrm splits a skinned mesh into the triangles weighted to the head and the rest:
 * - a skinned `auto` instance is hidden in first person when more than {@link FIRST_PERSON_HEAD_SHARE} of its
 *   influence weight (over every vertex and slot of every primitive) lies on the humanoid head or its descendants;
 * - a rigid `auto` instance is hidden when its node is the head or below it (three-vrm hides those too).
 * So a body mesh that includes the face stays visible in first person (Sinew does not cut meshes), and a
 * separate head or hair mesh is hidden. Without an avatar or a head bone nothing is hidden.
 */
export function firstPersonVisibility(asset: ModelAsset): FirstPersonVisibility {
  const instances = asset.meshInstances;
  const avatar = asset.avatar;
  const typeOf = new Map<number, FirstPersonType>();
  for (const annotation of avatar?.firstPerson.meshAnnotations ?? []) typeOf.set(annotation.node, annotation.type);
  const types = instances.map((instance) => typeOf.get(instance.node) ?? typeOf.get(instance.sourceNode ?? -1) ?? 'auto');
  const head = avatar?.humanoid.bones.head ?? -1;
  const underHead = new Uint8Array(asset.skeleton.jointCount);
  if (head >= 0 && head < underHead.length) {
    const parents = asset.skeleton.parents;
    // Parents come first (Skeleton), so one pass marks the head's whole subtree.
    for (let j = 0; j < underHead.length; j++) underHead[j] = j === head || (parents[j] >= 0 && underHead[parents[j]] === 1) ? 1 : 0;
  }
  const hiddenInFirstPerson: number[] = [], hiddenInThirdPerson: number[] = [];
  instances.forEach((instance, i) => {
    const type = types[i];
    if (type === 'thirdPersonOnly') hiddenInFirstPerson.push(i);
    else if (type === 'firstPersonOnly') hiddenInThirdPerson.push(i);
    else if (type === 'auto' && head >= 0 && headShare(asset, i, underHead) > FIRST_PERSON_HEAD_SHARE) hiddenInFirstPerson.push(i);
  });
  return { types, hiddenInFirstPerson, hiddenInThirdPerson };
}

/** The share of instance i's influence weight on joints under the head (skinned), or 1/0 for a rigid instance under the head or not. */
function headShare(asset: ModelAsset, i: number, underHead: Uint8Array): number {
  const instance = asset.meshInstances[i];
  const skin = instance.skin >= 0 ? asset.skins[instance.skin] : null;
  let total = 0, onHead = 0;
  if (skin) {
    for (const primitive of asset.meshes[instance.mesh].primitives) {
      const { joints, weights } = primitive;
      if (!joints || !weights) continue;
      for (let k = 0; k < weights.length; k++) {
        const w = weights[k];
        if (!(w > 0)) continue;
        total += w;
        if (underHead[skin.joints[joints[k]]] === 1) onHead += w;
      }
    }
  }
  if (total > 0) return onHead / total;
  return underHead[instance.node] === 1 ? 1 : 0;
}
