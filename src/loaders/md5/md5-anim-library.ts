import type { ModelAsset } from '../../asset/model-asset.ts';
import type { Md5Anim } from './parse-md5-anim.ts';
import type { Md5Joint, Md5Mesh } from './parse-md5-mesh.ts';
import { md5ToModelAsset } from './md5-to-model-asset.ts';
import { quatMultiply, quatRotateAt } from '../../math/quaternion.ts';

/**
 * An `.md5anim` on its own, as a mesh-less {@link ModelAsset}: its hierarchy is the skeleton and its baseframe
 * the rest pose (and bind pose), its frames one clip named after the file, exactly as
 * {@link md5ToModelAsset} converts an anim against an `.md5mesh` of the same joints. The baseframe is
 * parent-relative (roots in model space); it is composed down the hierarchy into the model-space joints an
 * `.md5mesh` would state (`p = p_parent + q_parent·t`, `q = q_parent·r`), which the converter makes relative
 * again. `upAxis` `'z'`, as MD5.
 * @throws LoadError as md5ToModelAsset
 */
export function md5AnimToModelAsset(anim: Md5Anim): ModelAsset {
  const n = anim.hierarchy.length;
  const joints: (Md5Joint | undefined)[] = new Array(n);
  const place = (i: number, depth: number): Md5Joint => {
    const done = joints[i];
    if (done) return done;
    const { name, parent, line } = anim.hierarchy[i];
    const t = anim.basePositions.subarray(3 * i, 3 * i + 3), r = anim.baseOrientations.subarray(4 * i, 4 * i + 4);
    let position: [number, number, number] = [t[0], t[1], t[2]];
    let orientation: [number, number, number, number] = [r[0], r[1], r[2], r[3]];
    // parseMd5Anim refuses cycles, so depth stays below n.
    if (parent >= 0 && depth < n) {
      const up = place(parent, depth + 1);
      const p = new Float64Array(3), q = new Float64Array(4);
      quatRotateAt(p, 0, up.orientation, 0, t, 0);
      quatMultiply(q, up.orientation, r);
      position = [up.position[0] + p[0], up.position[1] + p[1], up.position[2] + p[2]];
      orientation = [q[0], q[1], q[2], q[3]];
    }
    return (joints[i] = { name, parent, position, orientation, line });
  };
  for (let i = 0; i < n; i++) place(i, 0);
  const mesh: Md5Mesh = { fileName: anim.fileName, commandline: anim.commandline, joints: joints as Md5Joint[], meshes: [] };
  const asset = md5ToModelAsset(mesh, anim, anim.fileName);
  return { ...asset, skins: [] };
}
