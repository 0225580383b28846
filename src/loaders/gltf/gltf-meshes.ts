import type { GLTF } from '@gltf-transform/core';
import { LoadError } from '../load-error.ts';
import type { MeshAsset, PrimitiveAsset } from '../../asset/model-asset.ts';
import { computeVertexNormals } from '../../asset/vertex-normals.ts';
import { readGltfMorphTargets } from './gltf-morph-targets.ts';
import { BYTE, SHORT, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT } from './gltf-accessors.ts';
import type { GltfReading } from './gltf-reading.ts';

/** Primitive modes (glTF 2.0 §3.7.2.1 "Overview", `mode`). */
const TRIANGLES = 4, TRIANGLE_STRIP = 5, TRIANGLE_FAN = 6;
const MODE_NAMES = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP', 'TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN'];

/**
 * A primitive's influences as the file stores them, all JOINTS_n / WEIGHTS_n sets merged (vertex-major,
 * `influenceCount` per vertex), kept so each skin that uses the mesh can check the joint indices.
 */
export interface GltfRawInfluences {
  /** The primitive's index in the file's `/meshes/m/primitives` (skipped primitives shift MeshAsset indices). */
  readonly primitive: number;
  readonly influenceCount: number;
  /** `influenceCount · vertexCount` joint indices into the skin's joint list. */
  readonly joints: Uint16Array;
  /** `influenceCount · vertexCount` de-normalised weights. */
  readonly weights: Float32Array;
  /** Largest joint index among influences with a weight > 0; −1 when there is none. */
  readonly maxJoint: number;
}

/** The file's meshes and, per mesh and primitive, the raw influences (null for a primitive without skin attributes). */
export interface GltfMeshes {
  readonly meshes: MeshAsset[];
  /** `influences[mesh][primitive]`, aligned with `meshes[mesh].primitives`. */
  readonly influences: (GltfRawInfluences | null)[][];
}

/** How to read a file's primitives beyond the core rules. */
export interface GltfMeshOptions {
  /**
   * KHR_mesh_quantization is in `extensionsUsed`: POSITION and TEXCOORD_n may also be BYTE / UNSIGNED_BYTE /
   * SHORT / UNSIGNED_SHORT, normalized or not, read as floats (the node or inverse bind matrices that
   * dequantize them apply as any other transform). NORMAL and TANGENT take normalized BYTE / SHORT with or
   * without it.
   */
  readonly quantized?: boolean;
}

/**
 * Converts `/meshes` into MeshAssets (glTF 2.0 §3.7.2 "Meshes").
 *
 * - TRIANGLES primitives are kept; TRIANGLE_STRIP and TRIANGLE_FAN are triangulated with the spec's vertex
 *   order (strip triangle i: v_i, v_{i+1+i%2}, v_{i+2−i%2}; fan: v_{i+1}, v_{i+2}, v_0); POINTS and LINES
 *   primitives are skipped with a warning (so a mesh may end up with fewer primitives than the file's).
 * - POSITION (VEC3 float) is required; NORMAL (VEC3 float, normalized byte / short) is computed with
 *   computeVertexNormals when absent; TANGENT (VEC4 float, normalized byte / short) is kept when present;
 *   TEXCOORD_0 and TEXCOORD_1 (VEC2 float, unorm8, unorm16) are de-normalised into `uvs` and `uvs1`;
 *   COLOR_0 (VEC3 or VEC4; float, unorm8, unorm16) becomes linear RGBA `colors` (alpha 1 for VEC3).
 *   With `options.quantized` (KHR_mesh_quantization) integer positions and texture coordinates, normalized
 *   or not, are accepted (de-normalised by glTF 2.0 §3.11's rules, or converted as they are).
 * - Indices (u8/u16/u32, each < vertexCount) become a Uint16Array when vertexCount ≤ 65 536, else a
 *   Uint32Array; 0…vertexCount−1 is generated for non-indexed primitives.
 * - Morph targets (glTF 2.0 §3.7.2.2): POSITION, NORMAL and TANGENT deltas per target (gltf-morph-targets.ts),
 *   the same target count for every primitive of a mesh, `weights` (the mesh's defaults) one per target.
 * - JOINTS_n (VEC4 u8/u16) and WEIGHTS_n (VEC4 float, unorm8, unorm16; de-normalised, not renormalised) for
 *   n = 0, 1, …: every set is kept, merged vertex-major into `influenceCount` = 4·sets slots per vertex
 *   (as Uint8Array when every weighted joint index is < 256), the joint of each zero-weight influence set to
 *   0. No influence is dropped.
 *
 * @param materialOf maps a primitive's `material` (or undefined) to an index into ModelAsset.materials
 * @throws LoadError `fileName: /meshes/m/primitives/p… problem` for a missing POSITION, attribute counts that
 *   differ, disallowed accessor types, an index ≥ vertexCount, a TRIANGLES index count that is not a
 *   multiple of 3, or unequal numbers of JOINTS_n and WEIGHTS_n sets; for morph targets as
 *   readGltfMorphTargets and `morphTargetsOfMesh` say
 */
export function buildGltfMeshes(
  file: GltfReading,
  meshesJson: readonly GLTF.IMesh[],
  materialOf: (material: number | undefined) => number,
  options: GltfMeshOptions = {},
): GltfMeshes {
  const { fileName, warnings } = file;
  const meshes: MeshAsset[] = [];
  const influences: (GltfRawInfluences | null)[][] = [];
  meshesJson.forEach((meshJson, m) => {
    const primitives: PrimitiveAsset[] = [];
    const meshInfluences: (GltfRawInfluences | null)[] = [];
    meshJson.primitives.forEach((primitiveJson, p) => {
      const place = `/meshes/${m}/primitives/${p}`;
      const mode = primitiveJson.mode ?? TRIANGLES;
      if (mode < TRIANGLES) {
        warnings.push(`${fileName}: mesh ${m} primitive ${p} is ${MODE_NAMES[mode]}, not triangles; skipped`);
        return;
      }
      const built = buildPrimitive(file, { place, index: p, label: `mesh ${m} primitive ${p}`, mode }, primitiveJson, materialOf, options);
      primitives.push(built.primitive);
      meshInfluences.push(built.influences);
    });
    meshes.push({ name: meshJson.name ?? '', primitives, ...morphTargetsOfMesh(fileName, m, meshJson, primitives) });
    influences.push(meshInfluences);
  });
  return { meshes, influences };
}

/** Where a primitive is in the file: its JSON pointer, index in its mesh, label in messages, and draw mode. */
interface PrimitiveSite {
  /** `/meshes/m/primitives/p`. */
  readonly place: string;
  readonly index: number;
  /** `mesh m primitive p`. */
  readonly label: string;
  readonly mode: number;
}

function buildPrimitive(
  file: GltfReading,
  site: PrimitiveSite,
  json: GLTF.IMeshPrimitive,
  materialOf: (material: number | undefined) => number,
  options: GltfMeshOptions,
): { primitive: PrimitiveAsset; influences: GltfRawInfluences | null } {
  const { fileName, accessors, warnings } = file;
  const { place, index: primitiveIndex, label, mode } = site;
  const attributes = json.attributes;
  if (attributes.POSITION === undefined) throw new LoadError(fileName, `${place}/attributes/POSITION`, 'MESH_PRIMITIVE_NO_POSITION', 'is missing');
  const vertexCount = accessors.count(attributes.POSITION);
  const attribute = (semantic: string): number | undefined => {
    const index = attributes[semantic];
    if (index !== undefined && accessors.count(index) !== vertexCount) {
      throw new LoadError(fileName, `${place}/attributes/${semantic}`, 'MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT', `has ${accessors.count(index)} elements, POSITION has ${vertexCount}`);
    }
    return index;
  };
  const at = (semantic: string) => `${place}/attributes/${semantic}`;

  const quantized = options.quantized === true;
  const positions = quantized
    ? accessors.readQuantized(attributes.POSITION, at('POSITION'), ['VEC3'], [BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT], [BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT])
    : accessors.readFloats(attributes.POSITION, at('POSITION'), ['VEC3'], []);

  // Indices: read, range-check, triangulate strips and fans.
  let source: ArrayLike<number> | null = null;
  if (json.indices !== undefined) {
    source = accessors.readUnsigned(json.indices, `${place}/indices`, ['SCALAR'], [UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT]);
    for (let i = 0; i < source.length; i++) {
      if (source[i] >= vertexCount) throw new LoadError(fileName, `${place}/indices`, 'ACCESSOR_INDEX_OOB', `element ${i} is ${source[i]}, past the ${vertexCount} vertices`);
    }
  }
  const indices = triangulate(fileName, place, source, mode, vertexCount);

  const normalIndex = attribute('NORMAL');
  const normals = normalIndex !== undefined
    ? accessors.readFloats(normalIndex, at('NORMAL'), ['VEC3'], [BYTE, SHORT])
    : computeVertexNormals(positions, indices);
  const tangentIndex = attribute('TANGENT');
  const tangents = tangentIndex !== undefined ? accessors.readFloats(tangentIndex, at('TANGENT'), ['VEC4'], [BYTE, SHORT]) : null;
  const readUvs = (semantic: string): Float32Array | null => {
    const index = attribute(semantic);
    if (index === undefined) return null;
    return quantized
      ? accessors.readQuantized(index, at(semantic), ['VEC2'], [BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT], [BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT])
      : accessors.readFloats(index, at(semantic), ['VEC2'], [UNSIGNED_BYTE, UNSIGNED_SHORT]);
  };
  const uvs = readUvs('TEXCOORD_0');
  const uvs1 = readUvs('TEXCOORD_1');
  const colorIndex = attribute('COLOR_0');
  const colors = colorIndex === undefined ? null : rgba(accessors.readFloats(colorIndex, at('COLOR_0'), ['VEC3', 'VEC4'], [UNSIGNED_BYTE, UNSIGNED_SHORT]), vertexCount);

  // Influences: JOINTS_0..n-1 / WEIGHTS_0..n-1.
  let sets = 0;
  while (attributes[`JOINTS_${sets}`] !== undefined) sets++;
  let weightSets = 0;
  while (attributes[`WEIGHTS_${weightSets}`] !== undefined) weightSets++;
  if (sets !== weightSets) throw new LoadError(fileName, `${place}/attributes`, 'MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH', `has ${sets} JOINTS_n sets but ${weightSets} WEIGHTS_n sets`);

  let joints: Uint8Array | Uint16Array | null = null;
  let weights: Float32Array | null = null;
  let influences: GltfRawInfluences | null = null;
  let influenceCountOut: number | undefined;
  if (sets > 0) {
    const influenceCount = 4 * sets;
    const rawJoints = new Uint16Array(influenceCount * vertexCount);
    const rawWeights = new Float32Array(influenceCount * vertexCount);
    for (let s = 0; s < sets; s++) {
      const js = accessors.readUnsigned(attribute(`JOINTS_${s}`)!, at(`JOINTS_${s}`), ['VEC4'], [UNSIGNED_BYTE, UNSIGNED_SHORT]);
      const ws = accessors.readFloats(attribute(`WEIGHTS_${s}`)!, at(`WEIGHTS_${s}`), ['VEC4'], [UNSIGNED_BYTE, UNSIGNED_SHORT]);
      for (let v = 0; v < vertexCount; v++) {
        for (let c = 0; c < 4; c++) {
          const weight = ws[4 * v + c];
          // glTF 2.0 §3.7.3.2: weights must not be negative. A negative or NaN weight would move the vertex
          // somewhere plausible-looking but wrong (or make it vanish): refuse the file.
          if (!(weight >= 0) || weight === Infinity) {
            throw new LoadError(
              fileName, at(`WEIGHTS_${s}`), Number.isFinite(weight) ? 'ACCESSOR_WEIGHTS_NEGATIVE' : 'ACCESSOR_INVALID_FLOAT',
              `vertex ${v} component ${c} is ${weight}; weights must be finite and not negative`,
            );
          }
          rawJoints[v * influenceCount + 4 * s + c] = js[4 * v + c];
          rawWeights[v * influenceCount + 4 * s + c] = weight;
        }
      }
    }
    let maxJoint = -1;
    for (let i = 0; i < rawJoints.length; i++) if (rawWeights[i] > 0 && rawJoints[i] > maxJoint) maxJoint = rawJoints[i];
    influences = { primitive: primitiveIndex, influenceCount, joints: rawJoints, weights: rawWeights, maxJoint };

    // Every influence is kept (4·sets slots per vertex; the shader reads 8 from attributes, the rest from an
    // overflow texture). A zero-weight slot's joint becomes 0, so no slot names a joint the skin lacks.
    joints = maxJoint < 256 ? new Uint8Array(influenceCount * vertexCount) : new Uint16Array(influenceCount * vertexCount);
    for (let i = 0; i < rawJoints.length; i++) joints[i] = rawWeights[i] > 0 ? rawJoints[i] : 0;
    weights = rawWeights;
    influenceCountOut = influenceCount;
  }

  const morphTargets = readGltfMorphTargets(file, place, json.targets, vertexCount, quantized);
  return {
    primitive: {
      vertexCount, positions, normals, tangents, uvs, ...(uvs1 ? { uvs1 } : {}), ...(colors ? { colors } : {}), joints, weights, ...(influenceCountOut !== undefined && influenceCountOut !== 4 ? { influenceCount: influenceCountOut } : {}), indices, material: materialOf(json.material), flatShading: normalIndex === undefined, sourceIndex: primitiveIndex,
      ...(morphTargets ? { morphTargets } : {}) },
    influences,
  };
}

/**
 * A mesh's morph target count and default weights (glTF 2.0 §3.7.2.2): every primitive of the file's mesh must
 * have the same number of targets (skipped primitives included), and `weights`, when given, one per target.
 * @returns `{}` for a mesh without targets
 * @throws LoadError `/meshes/m/primitives/p/targets` (`MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT`) or
 *   `/meshes/m/weights` (`MESH_INVALID_WEIGHTS_COUNT`)
 */
function morphTargetsOfMesh(
  fileName: string, m: number, meshJson: GLTF.IMesh, primitives: readonly PrimitiveAsset[],
): { morphTargetCount?: number; defaultMorphWeights?: Float32Array } {
  const count = meshJson.primitives[0]?.targets?.length ?? 0;
  meshJson.primitives.forEach((primitive, p) => {
    const n = primitive.targets?.length ?? 0;
    if (n !== count) {
      throw new LoadError(fileName, `/meshes/${m}/primitives/${p}/targets`, 'MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT', `has ${n} morph targets, primitive 0 has ${count}; every primitive of a mesh must have the same number`);
    }
  });
  const weights = meshJson.weights;
  if (weights !== undefined && weights.length !== count) {
    throw new LoadError(fileName, `/meshes/${m}/weights`, 'MESH_INVALID_WEIGHTS_COUNT', `has ${weights.length} weights for ${count} morph targets`);
  }
  if (count === 0 || primitives.length === 0) return {};
  const defaults = new Float32Array(count);
  if (weights) {
    defaults.set(weights);
    const bad = defaults.findIndex((w) => !Number.isFinite(w));
    if (bad >= 0) throw new LoadError(fileName, `/meshes/${m}/weights/${bad}`, 'VALUE_NOT_IN_RANGE', 'is beyond the float32 range (±3.4e38)');
  }
  return { morphTargetCount: count, defaultMorphWeights: defaults };
}

/** `Float32Array(4·vertexCount)` RGBA from COLOR_0 values of 3 (alpha 1 added) or 4 components per vertex. */
function rgba(values: Float32Array, vertexCount: number): Float32Array {
  if (values.length === 4 * vertexCount) return values;
  const out = new Float32Array(4 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    out[4 * v] = values[3 * v];
    out[4 * v + 1] = values[3 * v + 1];
    out[4 * v + 2] = values[3 * v + 2];
    out[4 * v + 3] = 1;
  }
  return out;
}

/**
 * Triangle-list indices from TRIANGLES / TRIANGLE_STRIP / TRIANGLE_FAN indices (glTF 2.0 §3.7.2.1).
 * @param source the primitive's indices, or null for a non-indexed primitive (element i is vertex i: read as
 *   such rather than built as an array, so a large non-indexed primitive's index list is allocated once)
 */
function triangulate(
  fileName: string,
  place: string,
  source: ArrayLike<number> | null,
  mode: number,
  vertexCount: number,
): Uint16Array | Uint32Array {
  const n = source ? source.length : vertexCount;
  const triangleCount = mode === TRIANGLES ? n / 3 : Math.max(0, n - 2);
  if (mode === TRIANGLES && n % 3 !== 0) {
    throw new LoadError(fileName, place, 'MESH_PRIMITIVE_INCOMPATIBLE_MODE', `is TRIANGLES with ${n} ${source ? 'indices' : 'vertices'}, not a multiple of 3`);
  }
  const out = vertexCount <= 65536 ? new Uint16Array(3 * triangleCount) : new Uint32Array(3 * triangleCount);
  const at = (i: number): number => (source ? source[i] : i);
  if (mode === TRIANGLES) {
    if (source) out.set(source);
    else for (let i = 0; i < n; i++) out[i] = i;
  } else if (mode === TRIANGLE_STRIP) {
    for (let i = 0; i < triangleCount; i++) {
      out[3 * i] = at(i);
      out[3 * i + 1] = at(i + 1 + (i % 2));
      out[3 * i + 2] = at(i + 2 - (i % 2));
    }
  } else {
    for (let i = 0; i < triangleCount; i++) {
      out[3 * i] = at(i + 1);
      out[3 * i + 1] = at(i + 2);
      out[3 * i + 2] = at(0);
    }
  }
  return out;
}

