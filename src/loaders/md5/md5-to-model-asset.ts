import type {
  ImageAsset, MaterialAsset, MeshAsset, MeshInstance, ModelAsset, PrimitiveAsset, SkinAsset,
} from '../../asset/model-asset.ts';
import type { AnimationChannel, AnimationClip } from '../../asset/animation-clip.ts';
import type { Skeleton } from '../../skeleton/skeleton.ts';
import { createLocalPose } from '../../skeleton/local-pose.ts';
import { computeVertexNormals } from '../../asset/vertex-normals.ts';
import type { Md5Mesh, Md5MeshPart } from './parse-md5-mesh.ts';
import type { Md5Anim } from './parse-md5-anim.ts';
import { mat3FromQuatAt, quatConjugateMultiplyAt, quatConjugateRotateAt, quatNormalizeAt, quatRotateAt } from '../../math/quaternion.ts';
import { computeMd5FramePose } from './md5-frame-pose.ts';
import { imageMimeType, resolveMd5ShaderImage } from './md5-shader-images.ts';
import { LoadError, toLoadError, quoteUrl, quoteValue } from '../load-error.ts';

/** Base colour of a material whose shader names no image found: neutral grey, linear RGBA. */
export const MD5_UNTEXTURED_COLOR: readonly [number, number, number, number] = [0.7, 0.7, 0.7, 1];

/**
 * Converts a parsed `.md5mesh` (and optionally an `.md5anim` of the same skeleton) into a {@link ModelAsset},
 * so MD5 runs through the same bind pose + inverse bind path as glTF (docs/explanation/skinning-formulas.md S3, algorithm 2).
 *
 * - Skeleton: the MD5 joints, reordered parents-first when the file is not (`sourceIndices` keeps the file
 *   order); rest pose: the bind pose made parent-relative (`t = q_p⁻¹·(p − p_p)`, `r = q_p⁻¹·q`, unit scale).
 * - Bind-pose vertices by docs/explanation/skinning-formulas.md S3 algorithm 1 with the bind joints:
 *   `v = Σ_k bias_k · (jointPos_k + jointRot_k · offset_k)`; biases kept as stored (skinning divides by
 *   their sum, docs/explanation/skinning-formulas.md S0).
 * - One skin over every joint (skin joint i = skeleton joint i); inverse bind matrices = inverse of each bind
 *   joint's model matrix `T(p)·R(q)`, i.e. `R(q)ᵀ·T(−p)`.
 * - One MeshAsset (one primitive) and one MeshInstance (`joint` 0, `sourceNode` null, `skin` 0) per MD5 mesh.
 *   Influences: every weight of every vertex is kept, in file order: `influenceCount` = the most weights of
 *   any vertex rounded up to a multiple of 4 (at least 4), unused slots weight 0 on joint 0. Triangles are emitted with the
 *   file's second and third indices swapped: MD5 lists them clockwise seen from outside (Doom 3's
 *   convention), Sinew counter-clockwise, so computed normals point outward. Normals by
 *   `computeVertexNormals` from the bind mesh (MD5 stores none); uvs as stored (v down, as glTF).
 * - Materials: one per MD5 mesh, base colour texture resolved from the shader against `images` by base name
 *   (`resolveMd5ShaderImage`), or {@link MD5_UNTEXTURED_COLOR} with a warning when a non-empty shader
 *   matches nothing. Each used image is stored once, encoded, with its MIME type.
 * - The anim becomes one clip named after its file (extension dropped): per joint a LINEAR translation and a
 *   LINEAR rotation channel with one key per frame at `frame / frameRate` seconds, duration
 *   `(numFrames − 1) / frameRate`; quaternions renormalised and sign-aligned with the previous key.
 * - `upAxis` `'z'`: the file's axes are kept.
 *
 * @param fileName the asset's name, used in warnings (usually the `.md5mesh` file name)
 * @param images encoded images by file name (e.g. `guard1_body.png`), typically the mesh's sibling files
 * @throws LoadError (code `MD5_ANIM_MISMATCH`, about the anim file) naming both files when the anim's joint count, names or parents differ from the mesh's
 */
export function md5ToModelAsset(
  mesh: Md5Mesh,
  anim: Md5Anim | null,
  fileName: string,
  images: Readonly<Record<string, Uint8Array>> = {},
): ModelAsset {
  try {
    return convert(mesh, anim, fileName, images);
  } catch (error) {
    // A failure the converter did not foresee (a JS runtime error) still names the file.
    throw toLoadError(fileName, error);
  }
}

function convert(
  mesh: Md5Mesh,
  anim: Md5Anim | null,
  fileName: string,
  images: Readonly<Record<string, Uint8Array>> = {},
): ModelAsset {
  const n = mesh.joints.length;
  const warnings: string[] = [];

  // Parents-first order; identity when the file already has it.
  const order = parentsFirstOrder(mesh.joints.map((j) => j.parent));
  const newIndexOf = new Int32Array(n);
  for (let k = 0; k < n; k++) newIndexOf[order[k]] = k;
  const parents = new Int32Array(n);
  const names: string[] = [];
  for (let k = 0; k < n; k++) {
    const joint = mesh.joints[order[k]];
    parents[k] = joint.parent < 0 ? -1 : newIndexOf[joint.parent];
    names.push(joint.name);
  }
  const skeleton: Skeleton = { jointCount: n, names, parents, sourceIndices: Int32Array.from(order) };

  // Bind pose, model space, double precision, quaternions renormalised.
  const bindPositions = new Float64Array(3 * n);
  const bindRotations = new Float64Array(4 * n);
  for (let k = 0; k < n; k++) {
    const { position, orientation } = mesh.joints[order[k]];
    bindPositions.set(position, 3 * k);
    bindRotations.set(orientation, 4 * k);
    quatNormalizeAt(bindRotations, 4 * k);
  }

  const restPose = createLocalPose(n);
  const rel = new Float64Array(7);
  for (let k = 0; k < n; k++) {
    parentRelative(rel, bindPositions, bindRotations, k, parents[k]);
    restPose.translations.set(rel.subarray(0, 3), 3 * k);
    restPose.rotations.set(rel.subarray(3, 7), 4 * k);
  }

  const inverseBindMatrices = new Float32Array(16 * n);
  const m = new Float64Array(9);
  for (let k = 0; k < n; k++) {
    mat3FromQuatAt(m, bindRotations, 4 * k); // column-major 3×3 R
    const px = bindPositions[3 * k], py = bindPositions[3 * k + 1], pz = bindPositions[3 * k + 2];
    const o = 16 * k;
    // Rᵀ: row i of R becomes column i.
    inverseBindMatrices[o] = m[0]; inverseBindMatrices[o + 1] = m[3]; inverseBindMatrices[o + 2] = m[6];
    inverseBindMatrices[o + 4] = m[1]; inverseBindMatrices[o + 5] = m[4]; inverseBindMatrices[o + 6] = m[7];
    inverseBindMatrices[o + 8] = m[2]; inverseBindMatrices[o + 9] = m[5]; inverseBindMatrices[o + 10] = m[8];
    // −Rᵀ·p
    inverseBindMatrices[o + 12] = -(m[0] * px + m[1] * py + m[2] * pz);
    inverseBindMatrices[o + 13] = -(m[3] * px + m[4] * py + m[5] * pz);
    inverseBindMatrices[o + 14] = -(m[6] * px + m[7] * py + m[8] * pz);
    inverseBindMatrices[o + 15] = 1;
  }
  const skin: SkinAsset = {
    name: fileName,
    joints: Int32Array.from({ length: n }, (_, i) => i),
    inverseBindMatrices,
  };

  const imageNames = Object.keys(images);
  const imageAssets: ImageAsset[] = [];
  const imageIndexByName = new Map<string, number>();
  const materials: MaterialAsset[] = [];
  const meshes: MeshAsset[] = [];
  const meshInstances: MeshInstance[] = [];
  mesh.meshes.forEach((part, meshIndex) => {
    const imageName = resolveMd5ShaderImage(part.shader, imageNames);
    let texture = -1;
    if (imageName !== null) {
      let index = imageIndexByName.get(imageName);
      if (index === undefined) {
        index = imageAssets.length;
        imageAssets.push({ name: imageName, mimeType: imageMimeType(imageName), data: images[imageName] });
        imageIndexByName.set(imageName, index);
      }
      texture = index;
    } else if (part.shader.trim().length > 0) {
      warnings.push(`${fileName}: mesh ${meshIndex} shader ${quoteUrl(part.shader)} matches no image; using grey`);
    }
    materials.push({
      name: part.shader.length > 0 ? part.shader : `mesh ${meshIndex}`,
      baseColorFactor: texture >= 0 ? [1, 1, 1, 1] : MD5_UNTEXTURED_COLOR,
      baseColorTexture: texture,
      doubleSided: false,
    });
    const primitive = buildPrimitive(part, meshIndex, newIndexOf, { positions: bindPositions, rotations: bindRotations, jointCount: n }, { fileName, warnings });
    meshes.push({ name: part.shader.length > 0 ? part.shader : `mesh ${meshIndex}`, primitives: [{ ...primitive, material: meshIndex }] });
    meshInstances.push({ node: 0, sourceNode: null, mesh: meshIndex, skin: 0 });
  });

  const clips: AnimationClip[] = anim ? [buildClip(mesh, anim, newIndexOf)] : [];

  return {
    name: fileName,
    skeleton,
    restPose,
    meshes,
    skins: [skin],
    meshInstances,
    materials,
    images: imageAssets,
    clips,
    upAxis: 'z',
    warnings,
  };
}

/**
 * A parents-first permutation of joints: `order[k]` is the source index of new joint k. Source order is kept
 * wherever it already puts parents first (identity for such files). Parents must be acyclic (the parsers
 * check).
 */
function parentsFirstOrder(parents: readonly number[]): Int32Array {
  const n = parents.length;
  const order = new Int32Array(n);
  const placed = new Uint8Array(n);
  let count = 0;
  const chain: number[] = [];
  for (let i = 0; i < n; i++) {
    // Place the unplaced ancestors of i, root-most first, then i.
    for (let j = i; j >= 0 && !placed[j]; j = parents[j]) chain.push(j);
    while (chain.length > 0) {
      const j = chain.pop()!;
      placed[j] = 1;
      order[count++] = j;
    }
  }
  return order;
}

/**
 * Parent-relative transform of joint k from model-space positions/rotations: `out[0…3)` = `q_p⁻¹·(p − p_p)`,
 * `out[3…7)` = `q_p⁻¹·q` (normalised); the model-space values for a root (parent −1).
 */
function parentRelative(out: Float64Array, positions: Float64Array, rotations: Float64Array, k: number, parent: number): void {
  const px = positions[3 * k], py = positions[3 * k + 1], pz = positions[3 * k + 2];
  if (parent < 0) {
    out[0] = px; out[1] = py; out[2] = pz;
    out.set(rotations.subarray(4 * k, 4 * k + 4), 3);
    return;
  }
  // Unit rotations, so the conjugate is the inverse.
  out[0] = px - positions[3 * parent]; out[1] = py - positions[3 * parent + 1]; out[2] = pz - positions[3 * parent + 2];
  quatConjugateRotateAt(out, 0, rotations, 4 * parent, out, 0);
  quatConjugateMultiplyAt(out, 3, rotations, 4 * parent, rotations, 4 * k);
  quatNormalizeAt(out, 3);
}

/** The skeleton's bind pose in model space, f64: positions at 3k, unit rotations (x, y, z, w) at 4k, k in parents-first order. */
interface Md5BindPose {
  readonly positions: Float64Array;
  readonly rotations: Float64Array;
  readonly jointCount: number;
}

function buildPrimitive(
  part: Md5MeshPart,
  meshIndex: number,
  newIndexOf: Int32Array,
  bind: Md5BindPose,
  file: { readonly fileName: string; readonly warnings: string[] },
): Omit<PrimitiveAsset, 'material'> {
  const { positions: bindPositions, rotations: bindRotations, jointCount } = bind;
  const { fileName, warnings } = file;
  const { vertexCount, weightStarts, weightCounts, weightJoints, weightBiases, weightOffsets } = part;
  const positions = new Float32Array(3 * vertexCount);
  const rotated = new Float64Array(3);
  let maxWeights = 0;
  for (let v = 0; v < vertexCount; v++) {
    let x = 0, y = 0, z = 0;
    const end = weightStarts[v] + weightCounts[v];
    for (let w = weightStarts[v]; w < end; w++) {
      const j = newIndexOf[weightJoints[w]];
      const bias = weightBiases[w];
      // The joint's bind position + its rotation · the weight's offset.
      quatRotateAt(rotated, 0, bindRotations, 4 * j, weightOffsets, 3 * w);
      x += bias * (bindPositions[3 * j] + rotated[0]);
      y += bias * (bindPositions[3 * j + 1] + rotated[1]);
      z += bias * (bindPositions[3 * j + 2] + rotated[2]);
    }
    positions[3 * v] = x; positions[3 * v + 1] = y; positions[3 * v + 2] = z;
    if (weightCounts[v] > maxWeights) maxWeights = weightCounts[v];
  }

  const triangles = part.triangles;
  const indices = vertexCount <= 65536 ? new Uint16Array(triangles.length) : new Uint32Array(triangles.length);
  for (let t = 0; t < triangles.length; t += 3) {
    indices[t] = triangles[t];
    indices[t + 1] = triangles[t + 2];
    indices[t + 2] = triangles[t + 1];
  }
  const normals = computeVertexNormals(positions, indices);
  const uvs = Float32Array.from(part.uvs);

  // Every weight is kept: c = the most weights of any vertex, rounded up to a multiple of 4 (at least 4),
  // slots vertex-major in the file's weight order, unused slots weight 0 on joint 0.
  const c = Math.max(4, 4 * Math.ceil(maxWeights / 4));
  const joints = jointCount <= 256 ? new Uint8Array(c * vertexCount) : new Uint16Array(c * vertexCount);
  const weights = new Float32Array(c * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    for (let k = 0; k < weightCounts[v]; k++) {
      const w = weightStarts[v] + k;
      joints[c * v + k] = newIndexOf[weightJoints[w]];
      weights[c * v + k] = weightBiases[w];
    }
  }
  return { vertexCount, positions, normals, uvs, joints, weights, ...(c !== 4 ? { influenceCount: c } : {}), indices };
}

function buildClip(mesh: Md5Mesh, anim: Md5Anim, newIndexOf: Int32Array): AnimationClip {
  const n = mesh.joints.length;
  if (anim.hierarchy.length !== n) {
    throw new LoadError(
      anim.fileName, String(anim.hierarchy[0]?.line ?? 1), 'MD5_ANIM_MISMATCH',
      `has ${anim.hierarchy.length} joints, ${mesh.fileName} has ${n}`,
    );
  }
  for (let i = 0; i < n; i++) {
    const a = anim.hierarchy[i], b = mesh.joints[i];
    if (a.name !== b.name || a.parent !== b.parent) {
      throw new LoadError(
        anim.fileName, String(a.line), 'MD5_ANIM_MISMATCH',
        `joint ${i} is ${quoteValue(a.name)} with parent ${a.parent}, but ${mesh.fileName}:${b.line} has ${quoteValue(b.name)} with parent ${b.parent}`,
      );
    }
  }
  const frames = anim.frameCount;
  const times = new Float32Array(frames);
  for (let f = 0; f < frames; f++) times[f] = f / anim.frameRate;
  const translations: Float32Array[] = [];
  const rotations: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    translations.push(new Float32Array(3 * frames));
    rotations.push(new Float32Array(4 * frames));
  }
  const p = new Float64Array(3 * n);
  const q = new Float64Array(4 * n);
  for (let f = 0; f < frames; f++) {
    computeMd5FramePose(p, q, anim, f);
    for (let i = 0; i < n; i++) {
      quatNormalizeAt(q, 4 * i);
      translations[i].set(p.subarray(3 * i, 3 * i + 3), 3 * f);
      const r = rotations[i];
      // Keep consecutive keys in the same hemisphere (q and −q are the same rotation).
      let sign = 1;
      if (f > 0) {
        const o = 4 * (f - 1);
        const dot = r[o] * q[4 * i] + r[o + 1] * q[4 * i + 1] + r[o + 2] * q[4 * i + 2] + r[o + 3] * q[4 * i + 3];
        if (dot < 0) sign = -1;
      }
      for (let c = 0; c < 4; c++) r[4 * f + c] = sign * q[4 * i + c];
    }
  }
  const channels: AnimationChannel[] = [];
  for (let i = 0; i < n; i++) {
    const joint = newIndexOf[i];
    channels.push({ joint, path: 'translation', interpolation: 'LINEAR', times, values: translations[i] });
    channels.push({ joint, path: 'rotation', interpolation: 'LINEAR', times, values: rotations[i] });
  }
  return { name: clipName(anim.fileName), duration: (frames - 1) / anim.frameRate, channels };
}

/** The anim file's base name without directories and extension: `models/Bob.md5anim` → `Bob`. */
function clipName(fileName: string): string {
  const slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  const base = fileName.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
