import { LoadError } from '../load-error.ts';
import type { MorphTargetsAsset } from '../../asset/model-asset.ts';
import { BYTE, SHORT } from './gltf-accessors.ts';
import type { GltfReading } from './gltf-reading.ts';

/** The attributes a morph target may displace (glTF 2.0 §3.7.2.2), in {@link MorphTargetsAsset}'s order. */
const MORPHED = ['POSITION', 'NORMAL', 'TANGENT'] as const;

/**
 * Reads a primitive's `targets` into one target-major array per attribute (glTF 2.0 §3.7.2.2 "Morph Targets"):
 * POSITION, NORMAL and TANGENT deltas, each VEC3 float (or, under KHR_mesh_quantization, normalized BYTE / SHORT,
 * and for POSITION also BYTE / SHORT unnormalized), sparse accessors already expanded by the accessor reader.
 * Other target attributes (TEXCOORD_n, COLOR_n) are ignored with one warning for the file. An attribute no
 * target names gives a null array; a target without it contributes zeros.
 *
 * @param place the primitive's JSON pointer (`/meshes/m/primitives/p`)
 * @returns the targets, or null when `targets` is absent or empty
 * @throws LoadError `place/targets/t/SEMANTIC` for an accessor of another type or count than the primitive's
 *   vertices (`MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT`), or a non-finite delta
 */
export function readGltfMorphTargets(
  file: GltfReading,
  place: string,
  targets: readonly Record<string, number>[] | undefined,
  vertexCount: number,
  quantized: boolean,
): MorphTargetsAsset | null {
  const { fileName, accessors, warnings } = file;
  if (!targets || targets.length === 0) return null;
  const n = targets.length;
  const arrays: (Float32Array | null)[] = [null, null, null];
  targets.forEach((target, t) => {
    for (const semantic of Object.keys(target)) {
      if (!(MORPHED as readonly string[]).includes(semantic)) {
        warnings.push(`${fileName}: ${place}/targets/${t} displaces ${semantic}, which Sinew does not morph; ignored`);
      }
    }
    MORPHED.forEach((semantic, a) => {
      const index = target[semantic];
      if (index === undefined) return;
      const at = `${place}/targets/${t}/${semantic}`;
      if (accessors.count(index) !== vertexCount) {
        throw new LoadError(fileName, at, 'MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT', `has ${accessors.count(index)} elements, POSITION has ${vertexCount}`);
      }
      const deltas = semantic === 'POSITION' && quantized
        ? accessors.readQuantized(index, at, ['VEC3'], [BYTE, SHORT], [BYTE, SHORT])
        : accessors.readFloats(index, at, ['VEC3'], quantized ? [BYTE, SHORT] : []);
      const out = arrays[a] ??= new Float32Array(3 * n * vertexCount);
      out.set(deltas.subarray(0, 3 * vertexCount), 3 * t * vertexCount);
    });
  });
  return { count: n, positions: arrays[0], normals: arrays[1], tangents: arrays[2] };
}
