import { requirePositiveBytes } from '../require-positive-bytes.ts';
import type { GLTF } from '@gltf-transform/core';
import { LoadError, quoteValue } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';
import { DEFAULT_MEMORY_BUDGET_BYTES, formatMebibytes } from '../../asset/memory-budget.ts';

/** Relative tolerance of {@link nonTrsProblem}: exporters write matrices rounded to float32 and fewer digits. */
const TRS_TOLERANCE = 1e-3;

/**
 * Why a node `matrix` (16 numbers, column-major) is not a translation · rotation · scale, as glTF 2.0 §3.5.3
 * requires ("must be decomposable to TRS"), or null when it is: its bottom row must be 0 0 0 1 (no
 * projection), and its 3×3 columns non-zero and mutually orthogonal (a scale without shear). A shear would be
 * lost by the decomposition, so the picture would silently differ from the file.
 */
function nonTrsProblem(m: readonly number[]): string | null {
  if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) return 'has a bottom row that is not 0 0 0 1 (a projective matrix is not a TRS)';
  const column = (c: number) => [m[4 * c], m[4 * c + 1], m[4 * c + 2]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const columns = [column(0), column(1), column(2)];
  const lengths = columns.map((c) => Math.sqrt(dot(c, c)));
  if (lengths.some((length) => !(length > 0) || !Number.isFinite(length))) return 'has a zero (or non-finite) scale column, which has no rotation';
  for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
    if (Math.abs(dot(columns[a], columns[b])) > TRS_TOLERANCE * lengths[a] * lengths[b]) return `shears (columns ${a} and ${b} are not orthogonal), which TRS cannot hold`;
  }
  return null;
}


/** Bytes per component of each accessor componentType (glTF 2.0 §3.6.2.2 "Accessor Data Types"). */
export const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
/** Components per element of each accessor type. */
export const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

type Json = Record<string, unknown>;

/**
 * Checks the structure and every cross-reference of a glTF 2.0 JSON document before anything reads through
 * it, so later stages (gltf-transform's reader, Sinew's mapping) never index out of range or read past a
 * buffer. Checks: `asset.version` is 2.0; top-level arrays hold objects; buffer views lie inside their
 * buffers; accessors (and their sparse parts) have a valid componentType / type / count and lie inside
 * their buffer views; every index (buffer, bufferView, accessor, image, texture, material, mesh, skin, node,
 * camera, sampler, scene) names an existing element; node TRS / matrix arrays have the right length; a node
 * is the child of at most one node and never its own child; animation interpolations are known.
 *
 * Not checked here: node cycles (the skeleton builder reports them), accessor contents (the mesh, skin and
 * animation builders check what they read).
 *
 * @param bufferBytes resolved bytes of each buffer (resolveGltfResources), for sparse index checks
 * @param memoryBudgetBytes most bytes all accessors may decode to (count × components × component size,
 *   summed), checked before any is read; default {@link DEFAULT_MEMORY_BUDGET_BYTES}
 * @throws LoadError whose `where` is the JSON pointer, e.g. `model.glb: /skins/0/joints/41 is not a node (41 of 3)`
 *   (`UNRESOLVED_REFERENCE`); codes are the Khronos glTF-Validator's: `TYPE_MISMATCH`, `INVALID_INDEX`,
 *   `VALUE_NOT_IN_RANGE`, `VALUE_NOT_IN_LIST`, `UNDEFINED_PROPERTY`, `UNKNOWN_ASSET_MAJOR_VERSION`,
 *   `BUFFER_VIEW_TOO_LONG`, `BUFFER_MISSING_GLB_DATA` (a view into an EXT_meshopt_compression fallback buffer
 *   without data), `ACCESSOR_TOO_LONG`, `ACCESSOR_SMALL_BYTESTRIDE`, `ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE`,
 *   `ACCESSOR_SPARSE_INDEX_OOB`, `ONE_OF_MISMATCH`, `NODE_LOOP`, `NODE_PARENT_OVERRIDE`, `NODE_MATRIX_NON_TRS`; and Sinew's
 *   `MEMORY_BUDGET_EXCEEDED` at the accessor whose count crosses the budget
 * @throws RangeError when `memoryBudgetBytes` is not a positive number
 */
export function validateGltfJson(fileName: string, json: GLTF.IGLTF, bufferBytes: readonly Uint8Array[], memoryBudgetBytes = DEFAULT_MEMORY_BUDGET_BYTES): void {
  requirePositiveBytes('memoryBudgetBytes', memoryBudgetBytes);
  const fail = (code: LoadErrorCode, place: string, problem: string): never => {
    throw new LoadError(fileName, place, code, problem);
  };
  const root = json as unknown as Json;
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    const value = root[key];
    if (value !== undefined && (!Array.isArray(value) || !value.every((name) => typeof name === 'string'))) {
      fail('TYPE_MISMATCH', `/${key}`, 'is not an array of extension names');
    }
  }

  const list = (key: string): Json[] => {
    const value = root[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) fail('TYPE_MISMATCH', `/${key}`, 'is not an array');
    (value as unknown[]).forEach((item, i) => {
      if (!isObject(item)) fail('TYPE_MISMATCH', `/${key}/${i}`, 'is not an object');
    });
    return value as Json[];
  };
  const asset = root.asset;
  if (!isObject(asset)) fail('UNDEFINED_PROPERTY', '/asset', 'is missing: not a glTF 2.0 document');
  if ((asset as Json).version !== '2.0') fail('UNKNOWN_ASSET_MAJOR_VERSION', '/asset/version', `is ${quoteValue((asset as Json).version)}; only glTF 2.0 is supported`);

  const buffers = list('buffers');
  const bufferViews = list('bufferViews');
  const accessors = list('accessors');
  const images = list('images');
  const samplers = list('samplers');
  const textures = list('textures');
  const materials = list('materials');
  const meshes = list('meshes');
  const cameras = list('cameras');
  const nodes = list('nodes');
  const skins = list('skins');
  const animations = list('animations');
  const scenes = list('scenes');

  /** Checks that `value` (at `place`) is an index into an array of `count` elements called `what`. */
  const index = (value: unknown, count: number, place: string, what: string): number => {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= count) {
      if (!Number.isInteger(value)) fail('INVALID_INDEX', place, `is ${quoteValue(value)}, not an index`);
      fail((value as number) < 0 ? 'INVALID_INDEX' : 'UNRESOLVED_REFERENCE', place, `is not ${what} (${value} of ${count})`);
    }
    return value as number;
  };
  const optionalIndex = (object: Json, key: string, count: number, place: string, what: string): void => {
    if (object[key] !== undefined) index(object[key], count, `${place}/${key}`, what);
  };
  const integer = (value: unknown, place: string, min: number): number => {
    if (!Number.isInteger(value) || (value as number) < min) fail('VALUE_NOT_IN_RANGE', place, `is ${quoteValue(value)}, not an integer ≥ ${min}`);
    return value as number;
  };
  const numbers = (object: Json, key: string, length: number, place: string): void => {
    const value = object[key];
    if (value === undefined) return;
    if (!Array.isArray(value) || value.length !== length || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      fail('TYPE_MISMATCH', `${place}/${key}`, `is not an array of ${length} finite numbers`);
    }
  };

  // Buffers and buffer views.
  const bufferLengths = buffers.map((buffer) => buffer.byteLength as number);
  bufferViews.forEach((view, i) => {
    const place = `/bufferViews/${i}`;
    const buffer = index(view.buffer, buffers.length, `${place}/buffer`, 'a buffer');
    const byteOffset = view.byteOffset === undefined ? 0 : integer(view.byteOffset, `${place}/byteOffset`, 0);
    const byteLength = integer(view.byteLength, `${place}/byteLength`, 1);
    if (bufferBytes[buffer]?.length === 0 && bufferLengths[buffer] > 0) {
      // Only an EXT_meshopt_compression fallback buffer resolves to no bytes (gltf-resources.ts); its
      // compressed views were decoded before (meshopt-views.ts), so this view is a plain one without data.
      fail('BUFFER_MISSING_GLB_DATA', place, `lies in buffer ${buffer}, an EXT_meshopt_compression fallback buffer without data, and is not compressed`);
    }
    if (byteOffset + byteLength > bufferLengths[buffer]) {
      fail('BUFFER_VIEW_TOO_LONG', place, `spans bytes ${byteOffset}…${byteOffset + byteLength} of buffer ${buffer}, which has ${bufferLengths[buffer]}`);
    }
    if (view.byteStride !== undefined) {
      const stride = integer(view.byteStride, `${place}/byteStride`, 4);
      if (stride > 252 || stride % 4 !== 0) fail('VALUE_NOT_IN_RANGE', `${place}/byteStride`, `is ${stride}, not a multiple of 4 in 4…252`);
    }
  });

  /** Checks that `count` elements of `elementBytes` at `byteOffset` (with the view's stride) fit the view. */
  const fitsView = (viewIndex: number, byteOffset: number, count: number, elementBytes: number, place: string): void => {
    const view = bufferViews[viewIndex];
    const stride = (view.byteStride as number | undefined) ?? elementBytes;
    if (stride < elementBytes) fail('ACCESSOR_SMALL_BYTESTRIDE', place, `has ${elementBytes}-byte elements but bufferView ${viewIndex} has byteStride ${stride}`);
    const end = byteOffset + stride * (count - 1) + elementBytes;
    if (end > (view.byteLength as number)) {
      fail('ACCESSOR_TOO_LONG', place, `needs ${end} bytes of bufferView ${viewIndex}, which has ${view.byteLength}`);
    }
  };

  // Accessors.
  let decodedBytes = 0;
  accessors.forEach((accessor, i) => {
    const place = `/accessors/${i}`;
    const componentBytes = COMPONENT_BYTES[accessor.componentType as number];
    if (componentBytes === undefined) fail('VALUE_NOT_IN_LIST', `${place}/componentType`, `is ${quoteValue(accessor.componentType)}, not a glTF component type`);
    const components = TYPE_COMPONENTS[accessor.type as string];
    if (components === undefined) fail('VALUE_NOT_IN_LIST', `${place}/type`, `is ${quoteValue(accessor.type)}, not a glTF accessor type`);
    const count = integer(accessor.count, `${place}/count`, 1);
    // Checked before anything is allocated: an accessor without a bufferView is zero-filled to its count, so a
    // few bytes of JSON could otherwise ask for gigabytes.
    decodedBytes += count * components * componentBytes;
    if (decodedBytes > memoryBudgetBytes) {
      fail('MEMORY_BUDGET_EXCEEDED', `${place}/count`, `is ${count}: the accessors decode to more than the memory budget of ${formatMebibytes(memoryBudgetBytes)}`);
    }
    const byteOffset = accessor.byteOffset === undefined ? 0 : integer(accessor.byteOffset, `${place}/byteOffset`, 0);
    if (accessor.bufferView !== undefined) {
      const view = index(accessor.bufferView, bufferViews.length, `${place}/bufferView`, 'a bufferView');
      fitsView(view, byteOffset, count, componentBytes * components, place);
    }
    if (accessor.sparse !== undefined) {
      const sparse = accessor.sparse as Json;
      if (!isObject(sparse)) fail('TYPE_MISMATCH', `${place}/sparse`, 'is not an object');
      const sparseCount = integer(sparse.count, `${place}/sparse/count`, 1);
      if (sparseCount > count) fail('ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE', `${place}/sparse/count`, `is ${sparseCount}, more than the accessor's ${count} elements`);
      const indices = sparse.indices as Json, values = sparse.values as Json;
      if (!isObject(indices)) fail('TYPE_MISMATCH', `${place}/sparse/indices`, 'is not an object');
      if (!isObject(values)) fail('TYPE_MISMATCH', `${place}/sparse/values`, 'is not an object');
      const indexBytes = { 5121: 1, 5123: 2, 5125: 4 }[indices.componentType as number];
      if (indexBytes === undefined) fail('VALUE_NOT_IN_LIST', `${place}/sparse/indices/componentType`, 'is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT');
      const indicesView = index(indices.bufferView, bufferViews.length, `${place}/sparse/indices/bufferView`, 'a bufferView');
      const indicesOffset = indices.byteOffset === undefined ? 0 : integer(indices.byteOffset, `${place}/sparse/indices/byteOffset`, 0);
      fitsView(indicesView, indicesOffset, sparseCount, indexBytes!, `${place}/sparse/indices`);
      const valuesView = index(values.bufferView, bufferViews.length, `${place}/sparse/values/bufferView`, 'a bufferView');
      const valuesOffset = values.byteOffset === undefined ? 0 : integer(values.byteOffset, `${place}/sparse/values/byteOffset`, 0);
      fitsView(valuesView, valuesOffset, sparseCount, componentBytes * components, `${place}/sparse/values`);
      // Sparse indices must name elements of the accessor (gltf-transform would drop the write silently).
      const view = bufferViews[indicesView];
      const bytes = bufferBytes[view.buffer as number];
      const data = new DataView(bytes.buffer, bytes.byteOffset + ((view.byteOffset as number | undefined) ?? 0) + indicesOffset);
      for (let k = 0; k < sparseCount; k++) {
        const at = k * indexBytes!;
        const value = indexBytes === 1 ? data.getUint8(at) : indexBytes === 2 ? data.getUint16(at, true) : data.getUint32(at, true);
        if (value >= count) fail('ACCESSOR_SPARSE_INDEX_OOB', `${place}/sparse/indices`, `element ${k} is ${value}, past the accessor's ${count} elements`);
      }
    }
  });

  images.forEach((image, i) => {
    const place = `/images/${i}`;
    if (image.bufferView !== undefined) index(image.bufferView, bufferViews.length, `${place}/bufferView`, 'a bufferView');
    else if (image.uri === undefined) fail('ONE_OF_MISMATCH', place, 'has neither a uri nor a bufferView');
  });
  textures.forEach((texture, i) => {
    optionalIndex(texture, 'source', images.length, `/textures/${i}`, 'an image');
    optionalIndex(texture, 'sampler', samplers.length, `/textures/${i}`, 'a sampler');
  });
  materials.forEach((material, i) => {
    const place = `/materials/${i}`;
    const textureInfo = (object: unknown, key: string, at: string): void => {
      if (!isObject(object)) return;
      const info = (object as Json)[key];
      if (info === undefined) return;
      if (!isObject(info)) fail('TYPE_MISMATCH', `${at}/${key}`, 'is not an object');
      index((info as Json).index, textures.length, `${at}/${key}/index`, 'a texture');
    };
    if (material.pbrMetallicRoughness !== undefined) {
      const pbr = material.pbrMetallicRoughness as Json;
      if (!isObject(pbr)) fail('TYPE_MISMATCH', `${place}/pbrMetallicRoughness`, 'is not an object');
      numbers(pbr, 'baseColorFactor', 4, `${place}/pbrMetallicRoughness`);
      textureInfo(pbr, 'baseColorTexture', `${place}/pbrMetallicRoughness`);
      textureInfo(pbr, 'metallicRoughnessTexture', `${place}/pbrMetallicRoughness`);
    }
    for (const key of ['normalTexture', 'occlusionTexture', 'emissiveTexture']) textureInfo(material, key, place);
  });

  meshes.forEach((mesh, m) => {
    const place = `/meshes/${m}`;
    const primitives = mesh.primitives;
    if (!Array.isArray(primitives) || primitives.length === 0) fail('TYPE_MISMATCH', `${place}/primitives`, 'is not a non-empty array');
    (primitives as unknown[]).forEach((primitive, p) => {
      const at = `${place}/primitives/${p}`;
      if (!isObject(primitive)) fail('TYPE_MISMATCH', at, 'is not an object');
      const prim = primitive as Json;
      if (!isObject(prim.attributes)) fail('TYPE_MISMATCH', `${at}/attributes`, 'is not an object');
      for (const [semantic, accessor] of Object.entries(prim.attributes as Json)) {
        index(accessor, accessors.length, `${at}/attributes/${semantic}`, 'an accessor');
      }
      optionalIndex(prim, 'indices', accessors.length, at, 'an accessor');
      optionalIndex(prim, 'material', materials.length, at, 'a material');
      if (prim.mode !== undefined && (!Number.isInteger(prim.mode) || (prim.mode as number) < 0 || (prim.mode as number) > 6)) {
        fail('VALUE_NOT_IN_LIST', `${at}/mode`, `is ${quoteValue(prim.mode)}, not a primitive mode 0…6`);
      }
      if (prim.targets !== undefined) {
        if (!Array.isArray(prim.targets)) fail('TYPE_MISMATCH', `${at}/targets`, 'is not an array');
        (prim.targets as unknown[]).forEach((target, t) => {
          if (!isObject(target)) fail('TYPE_MISMATCH', `${at}/targets/${t}`, 'is not an object');
          for (const [semantic, accessor] of Object.entries(target as Json)) {
            index(accessor, accessors.length, `${at}/targets/${t}/${semantic}`, 'an accessor');
          }
        });
      }
    });
  });

  cameras.forEach((camera, i) => {
    const kind = camera.type;
    if (kind !== 'perspective' && kind !== 'orthographic') fail('VALUE_NOT_IN_LIST', `/cameras/${i}/type`, `is ${quoteValue(kind)}`);
    if (!isObject(camera[kind as string])) fail('UNDEFINED_PROPERTY', `/cameras/${i}/${kind}`, 'is missing');
  });

  const parentOf = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    const place = `/nodes/${i}`;
    if (node.children !== undefined) {
      if (!Array.isArray(node.children)) fail('TYPE_MISMATCH', `${place}/children`, 'is not an array');
      (node.children as unknown[]).forEach((child, c) => {
        const k = index(child, nodes.length, `${place}/children/${c}`, 'a node');
        if (k === i) fail('NODE_LOOP', `${place}/children/${c}`, 'is the node itself');
        if (parentOf[k] !== -1) fail('NODE_PARENT_OVERRIDE', `${place}/children/${c}`, `names node ${k}, already a child of node ${parentOf[k]}`);
        parentOf[k] = i;
      });
    }
    optionalIndex(node, 'mesh', meshes.length, place, 'a mesh');
    optionalIndex(node, 'skin', skins.length, place, 'a skin');
    optionalIndex(node, 'camera', cameras.length, place, 'a camera');
    numbers(node, 'translation', 3, place);
    numbers(node, 'rotation', 4, place);
    numbers(node, 'scale', 3, place);
    numbers(node, 'matrix', 16, place);
    if (node.matrix !== undefined) {
      const problem = nonTrsProblem(node.matrix as number[]);
      if (problem) fail('NODE_MATRIX_NON_TRS', `${place}/matrix`, problem);
    }
  });

  skins.forEach((skin, s) => {
    const place = `/skins/${s}`;
    if (!Array.isArray(skin.joints) || skin.joints.length === 0) fail('TYPE_MISMATCH', `${place}/joints`, 'is not a non-empty array');
    (skin.joints as unknown[]).forEach((joint, j) => index(joint, nodes.length, `${place}/joints/${j}`, 'a node'));
    optionalIndex(skin, 'inverseBindMatrices', accessors.length, place, 'an accessor');
    optionalIndex(skin, 'skeleton', nodes.length, place, 'a node');
  });

  animations.forEach((animation, a) => {
    const place = `/animations/${a}`;
    const samplerList = animation.samplers, channelList = animation.channels;
    if (!Array.isArray(samplerList)) fail('TYPE_MISMATCH', `${place}/samplers`, 'is not an array');
    if (!Array.isArray(channelList)) fail('TYPE_MISMATCH', `${place}/channels`, 'is not an array');
    (samplerList as unknown[]).forEach((sampler, s) => {
      const at = `${place}/samplers/${s}`;
      if (!isObject(sampler)) fail('TYPE_MISMATCH', at, 'is not an object');
      const object = sampler as Json;
      index(object.input, accessors.length, `${at}/input`, 'an accessor');
      index(object.output, accessors.length, `${at}/output`, 'an accessor');
      const interpolation = object.interpolation;
      if (interpolation !== undefined && interpolation !== 'LINEAR' && interpolation !== 'STEP' && interpolation !== 'CUBICSPLINE') {
        fail('VALUE_NOT_IN_LIST', `${at}/interpolation`, `is ${quoteValue(interpolation)}, not LINEAR, STEP or CUBICSPLINE`);
      }
    });
    (channelList as unknown[]).forEach((channel, c) => {
      const at = `${place}/channels/${c}`;
      if (!isObject(channel)) fail('TYPE_MISMATCH', at, 'is not an object');
      const object = channel as Json;
      index(object.sampler, (samplerList as unknown[]).length, `${at}/sampler`, 'a sampler of the animation');
      if (!isObject(object.target)) fail('TYPE_MISMATCH', `${at}/target`, 'is not an object');
      const target = object.target as Json;
      optionalIndex(target, 'node', nodes.length, `${at}/target`, 'a node');
      if (typeof target.path !== 'string') fail('TYPE_MISMATCH', `${at}/target/path`, 'is not a string');
    });
  });

  scenes.forEach((scene, i) => {
    if (scene.nodes === undefined) return;
    if (!Array.isArray(scene.nodes)) fail('TYPE_MISMATCH', `/scenes/${i}/nodes`, 'is not an array');
    (scene.nodes as unknown[]).forEach((node, k) => index(node, nodes.length, `/scenes/${i}/nodes/${k}`, 'a node'));
  });
  if (root.scene !== undefined) index(root.scene, scenes.length, '/scene', 'a scene');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
