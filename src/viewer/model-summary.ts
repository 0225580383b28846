import type { ModelAsset } from '../asset/model-asset.ts';

/**
 * The viewer panel's one-line description of a model, e.g. `24 joints · 1728 vertices · 3 clips`. Joints are
 * counted per skin (`SkinAsset.joints`), not the skeleton's nodes, which also hold meshes, cameras and
 * helpers: one skin reads `24 joints`, several `2 skins (24 + 19 joints)` (with `, 40 distinct` when skins
 * share joints), none `no skin`. Vertices are summed over every mesh instance's primitives.
 */
export function summarizeModel(asset: ModelAsset): string {
  let vertices = 0;
  for (const instance of asset.meshInstances) {
    for (const p of asset.meshes[instance.mesh]?.primitives ?? []) vertices += p.vertexCount;
  }
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const skins = asset.skins;
  let joints: string;
  if (skins.length === 0) {
    joints = 'no skin';
  } else if (skins.length === 1) {
    joints = plural(skins[0].joints.length, 'joint', 'joints');
  } else {
    const distinct = new Set<number>();
    let sum = 0;
    for (const skin of skins) {
      sum += skin.joints.length;
      for (const joint of skin.joints) distinct.add(joint);
    }
    joints = `${skins.length} skins (${skins.map((s) => s.joints.length).join(' + ')} joints${distinct.size !== sum ? `, ${distinct.size} distinct` : ''})`;
  }
  return [joints, plural(vertices, 'vertex', 'vertices'), plural(asset.clips.length, 'clip', 'clips')].join(' · ');
}
