import type { MaterialAsset, MeshInstance, ModelAsset } from './model-asset.ts';
import type { MaterialTexture } from './material-texture.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { didYouMeanJoint, findJoint, MAX_SKELETON_JOINTS, validateSkeleton } from '../skeleton/skeleton.ts';

/**
 * Largest |cᵢ·cⱼ| / (|cᵢ|·|cⱼ|) of two columns of an offset's 3×3 part still taken as orthogonal: an offset built
 * in f64 as T·R·S (or rounded to float32, ~10⁻⁷) passes, a shear that the TRS rest pose would silently drop does not.
 */
const SHEAR_TOLERANCE = 1e-6;


/**
 * A copy of `character` that carries `prop` on `joint`, as one model: what `propMatrix(character, joint, offset)`
 * draws beside the character (docs/guide/attachments.md), baked into the asset, so that whatever draws
 * one asset — a `Crowd` (every instance carries the prop, live and baked, LBS and DQS), `sinew eval`, a view —
 * draws the prop with it. The prop's vertices land at `Mⱼ · offset · M'ₚ · p` (Mⱼ the joint's model-space matrix,
 * M'ₚ the prop node's in the prop's own rest pose; docs/explanation/skinning-formulas.md S4), the single-model attachment's place.
 *
 * Appended after the character's own data, which keeps its indices (its clips, skins, mesh instances and morph
 * weight ranges address the same things; its evaluated vertices are the same numbers unless the model origin O moves —
 * `computeModelOrigin` includes the new nodes, which matters only for a model over 1 024 units from its origin):
 * - skeleton: one node (named `name`, default `"<prop> on <joint>"`) whose parent is `joint` and whose rest
 *   pose is `offset` as translation, rotation and scale (a mirroring offset, det < 0, as a negative x scale, as
 *   the glTF loader decomposes node matrices), then every node of the prop in its order (parents first still
 *   holds), its roots under that node, each at its own rest pose; `sourceIndices` −1 (no node of the character's
 *   file). The character's clips do not animate them: the prop stays at its rest pose relative to the joint (its
 *   own clips are not carried over; an `Attachment` in a view can play them).
 * - the prop's meshes, its mesh instances on the moved nodes (`sourceNode` null), rigid or skinned: a skinned
 *   prop's skins are appended with their joints moved the same way and their inverse bind matrices unchanged
 *   (K = Mⱼ·offset·K′, glTF 2.0 §3.7.3), morph weight ranges moved past the character's, the rest pose's morph
 *   weights appended;
 * - materials and images appended, the prop's primitives' `material` and its materials' image indices shifted.
 *
 * Typed arrays that need no change are shared with the inputs (neither is modified). `warnings` are both
 * models'; `upAxis` is the character's (the prop's axes are used as they are, as an attachment does).
 * Allocates per call (set-up, not per frame).
 * @param joint a skeleton joint index of `character`, or its name (the first joint of that name)
 * @param offset 16 numbers, column-major: the prop's model space → the joint's frame, in the character's units
 *   (metres for glTF); an affine translation · rotation · scale. Default identity.
 * @param name the new node's name
 * @throws RangeError naming the character and listing some of its joints when there is no such joint; naming the
 *   problem when `offset` is not 16 finite numbers, not affine (last row not 0 0 0 1), scales an axis to 0 or
 *   shears (a rest pose holds only translation, rotation and scale); when the joints together pass {@link MAX_SKELETON_JOINTS}
 */
export function withProp(character: ModelAsset, prop: ModelAsset, joint: number | string, offset?: ArrayLike<number>, name?: string): ModelAsset {
  const j = resolveJoint(character, joint);
  const trs = decomposeOffset(offset, `${character.name}: prop ${prop.name} on joint ${describeJoint(character, j)}`);
  const n = character.skeleton.jointCount, base = n + 1, m = prop.skeleton.jointCount;
  if (base + m > MAX_SKELETON_JOINTS) {
    throw new RangeError(`${character.name}: with prop ${prop.name} it would have ${base + m} joints; a skeleton holds at most ${MAX_SKELETON_JOINTS}`);
  }

  const parents = new Int32Array(base + m);
  parents.set(character.skeleton.parents);
  parents[n] = j;
  for (let i = 0; i < m; i++) {
    const p = prop.skeleton.parents[i];
    parents[base + i] = p < 0 ? n : base + p;
  }
  const sourceIndices = new Int32Array(base + m).fill(-1);
  sourceIndices.set(character.skeleton.sourceIndices);
  const skeleton = {
    jointCount: base + m,
    names: [...character.skeleton.names, name ?? `${prop.name} on ${character.skeleton.names[j] || `joint ${j}`}`, ...prop.skeleton.names],
    parents,
    sourceIndices,
  };
  validateSkeleton(skeleton, `${character.name} with ${prop.name}`);

  const characterWeights = character.restPose.morphWeights ?? new Float32Array(0);
  const propWeights = prop.restPose.morphWeights ?? new Float32Array(0);
  const restPose: LocalPose = {
    translations: concat(character.restPose.translations, trs.translation, prop.restPose.translations),
    rotations: concat(character.restPose.rotations, trs.rotation, prop.restPose.rotations),
    scales: concat(character.restPose.scales, trs.scale, prop.restPose.scales),
    morphWeights: concat(characterWeights, propWeights),
  };

  const materialBase = character.materials.length, imageBase = character.images.length;
  const meshBase = character.meshes.length, skinBase = character.skins.length;
  const meshes = [
    ...character.meshes,
    ...prop.meshes.map((mesh) => ({ ...mesh, primitives: mesh.primitives.map((primitive) => ({ ...primitive, material: primitive.material + materialBase })) })),
  ];
  const skins = [
    ...character.skins,
    ...prop.skins.map((skin) => ({ ...skin, joints: skin.joints.map((k) => k + base) })),
  ];
  const meshInstances: MeshInstance[] = [
    ...character.meshInstances,
    ...prop.meshInstances.map((instance) => {
      const moved: MeshInstance = { node: instance.node + base, sourceNode: null, mesh: instance.mesh + meshBase, skin: instance.skin < 0 ? -1 : instance.skin + skinBase };
      const morph = instance.morphWeightOffset ?? -1;
      return morph >= 0 ? { ...moved, morphWeightOffset: morph + characterWeights.length } : moved;
    }),
  ];
  const materials = [...character.materials, ...prop.materials.map((material) => shiftImages(material, imageBase))];
  return {
    ...character,
    name: `${character.name} with ${prop.name}`,
    skeleton,
    restPose,
    meshes,
    skins,
    meshInstances,
    materials,
    images: [...character.images, ...prop.images],
    warnings: [...character.warnings, ...prop.warnings],
  };
}

/** The joint's index; a name resolves to the first joint of that name. */
function resolveJoint(asset: ModelAsset, joint: number | string): number {
  const skeleton = asset.skeleton;
  const index = typeof joint === 'number' ? joint : findJoint(skeleton, joint);
  if (!Number.isInteger(index) || index < 0 || index >= skeleton.jointCount) {
    const known = skeleton.names.filter((name) => name).slice(0, 8).join(', ');
    throw new RangeError(`${asset.name}: no joint ${typeof joint === 'number' ? joint : JSON.stringify(joint)} to hold a prop (${didYouMeanJoint(skeleton, joint)}${skeleton.jointCount} joints${known ? `: ${known}${skeleton.jointCount > 8 ? ', …' : ''}` : ''})`);
  }
  return index;
}

function describeJoint(asset: ModelAsset, j: number): string {
  const name = asset.skeleton.names[j];
  return name ? JSON.stringify(name) : String(j);
}

/**
 * `offset` (column-major, default identity) as translation, rotation (x, y, z, w) and scale, T·R·S: scales are
 * the 3×3 columns' lengths, x negated when det < 0; R = L·S⁻¹ as a unit quaternion (Shoemake's branch on the
 * largest diagonal term, "Animating rotation with quaternion curves", SIGGRAPH 1985).
 */
function decomposeOffset(offset: ArrayLike<number> | undefined, what: string): { translation: Float32Array; rotation: Float32Array; scale: Float32Array } {
  if (offset === undefined) return { translation: new Float32Array(3), rotation: Float32Array.of(0, 0, 0, 1), scale: Float32Array.of(1, 1, 1) };
  const m = Array.from(offset);
  if (m.length !== 16 || !m.every(Number.isFinite)) {
    throw new RangeError(`${what}: offset must be 16 finite numbers (a column-major 4×4 matrix), got ${m.length === 16 ? 'a non-finite one' : m.length}`);
  }
  if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) throw new RangeError(`${what}: offset's last row must be (0, 0, 0, 1), an affine transform`);
  const c = [0, 1, 2].map((k) => [m[4 * k], m[4 * k + 1], m[4 * k + 2]]);
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const s = c.map((col) => Math.sqrt(dot(col, col)));
  if (s.some((length) => !(length > 0))) throw new RangeError(`${what}: offset scales an axis to 0, which has no rotation`);
  for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
    if (Math.abs(dot(c[a], c[b])) > SHEAR_TOLERANCE * s[a] * s[b]) {
      throw new RangeError(`${what}: offset shears (columns ${a} and ${b} are not orthogonal); a joint's rest pose holds only translation · rotation · scale`);
    }
  }
  const det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1]) + c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1]);
  if (det < 0) s[0] = -s[0];
  // r[col][row] of the rotation.
  const r = c.map((col, k) => col.map((x) => x / s[k]));
  const trace = r[0][0] + r[1][1] + r[2][2];
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const t = 2 * Math.sqrt(trace + 1);
    w = t / 4; x = (r[1][2] - r[2][1]) / t; y = (r[2][0] - r[0][2]) / t; z = (r[0][1] - r[1][0]) / t;
  } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
    const t = 2 * Math.sqrt(1 + r[0][0] - r[1][1] - r[2][2]);
    x = t / 4; w = (r[1][2] - r[2][1]) / t; y = (r[1][0] + r[0][1]) / t; z = (r[2][0] + r[0][2]) / t;
  } else if (r[1][1] > r[2][2]) {
    const t = 2 * Math.sqrt(1 + r[1][1] - r[0][0] - r[2][2]);
    y = t / 4; w = (r[2][0] - r[0][2]) / t; x = (r[1][0] + r[0][1]) / t; z = (r[2][1] + r[1][2]) / t;
  } else {
    const t = 2 * Math.sqrt(1 + r[2][2] - r[0][0] - r[1][1]);
    z = t / 4; w = (r[0][1] - r[1][0]) / t; x = (r[2][0] + r[0][2]) / t; y = (r[2][1] + r[1][2]) / t;
  }
  const length = Math.hypot(x, y, z, w);
  return {
    translation: Float32Array.of(m[12], m[13], m[14]),
    rotation: Float32Array.of(x / length, y / length, z / length, w / length),
    scale: Float32Array.of(s[0], s[1], s[2]),
  };
}

/** `material` with every image index moved by `base` (−1, none, stays). */
function shiftImages(material: MaterialAsset, base: number): MaterialAsset {
  if (base === 0) return material;
  const shift = (texture: MaterialTexture | undefined) => (texture ? { ...texture, image: texture.image + base } : undefined);
  const out: { -readonly [K in keyof MaterialAsset]: MaterialAsset[K] } = { ...material, baseColorTexture: material.baseColorTexture < 0 ? -1 : material.baseColorTexture + base };
  if (material.metallicRoughnessTexture) out.metallicRoughnessTexture = shift(material.metallicRoughnessTexture);
  if (material.normalTexture) out.normalTexture = shift(material.normalTexture);
  if (material.occlusionTexture) out.occlusionTexture = shift(material.occlusionTexture);
  if (material.emissiveTexture) out.emissiveTexture = shift(material.emissiveTexture);
  return out;
}

function concat(...parts: Float32Array[]): Float32Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
