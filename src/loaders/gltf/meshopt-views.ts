/**
 * EXT_meshopt_compression buffer views decoded by meshoptimizer's MeshoptDecoder (its WebAssembly inlined in
 * the package). gltf-compression.ts reaches this file only through a dynamic import, so it and the decoder are
 * a chunk of their own that only a file with meshopt data loads.
 */
import type { GLTF } from '@gltf-transform/core';
import { LoadError, quoteValue } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import type { GltfResources } from './gltf-resources.ts';
import { isMeshoptFallback } from './meshopt-fallback.ts';

const EXTENSION = 'EXT_meshopt_compression';

/** Key of the decoded buffer views' bytes in the resource map handed to gltf-transform. */
const DECODED_KEY = '@sinew/meshopt-decoded';
/** Key of the empty bytes that stand for a fallback buffer without data. */
const FALLBACK_KEY = '@sinew/meshopt-fallback';

/** Filters and the byte strides they allow (EXT_meshopt_compression, "filter"; COLOR from meshoptimizer's decoder). */
const FILTER_STRIDES: Readonly<Record<string, (stride: number) => boolean>> = {
  NONE: () => true,
  OCTAHEDRAL: (stride) => stride === 4 || stride === 8,
  QUATERNION: (stride) => stride === 8,
  EXPONENTIAL: (stride) => stride % 4 === 0,
  COLOR: (stride) => stride === 4 || stride === 8,
};

/**
 * Decodes every EXT_meshopt_compression buffer view with meshoptimizer's decoder and returns the file as if it
 * had been written without compression: each such view points at its decoded bytes (in one new buffer, after
 * the file's), its extension dropped, and fallback buffers stand as empty; so validation, the memory budget
 * and gltf-transform read plain data. Extension objects are checked first (EXT_meshopt_compression: `buffer`
 * an index of a buffer with data, `byteOffset` + `byteLength` inside it, `byteStride` 2 or 4 for TRIANGLES /
 * INDICES and a multiple of 4 up to 256 for ATTRIBUTES, `count` ≥ 1 (a multiple of 3 for TRIANGLES), a known
 * `mode` and `filter` with the stride the filter needs, `count · byteStride` at least the view's `byteLength`),
 * and the decoded sizes `Σ count · byteStride` against the memory budget before anything is decoded.
 *
 * @param resources the file's resolved buffers (fallback buffers without data as empty bytes)
 * @returns the JSON and resources to read instead (new objects; the inputs are not changed)
 * @throws LoadError at `/bufferViews/i/extensions/EXT_meshopt_compression…`: a malformed extension object
 *   (`TYPE_MISMATCH`, `VALUE_NOT_IN_RANGE`, `VALUE_NOT_IN_LIST`, `UNRESOLVED_REFERENCE`, `BUFFER_VIEW_TOO_LONG`),
 *   decoded sizes past the budget (`MEMORY_BUDGET_EXCEEDED`), a stream the decoder refuses
 *   (`COMPRESSED_DATA_INVALID`); `BUFFER_MISSING_GLB_DATA` at `…/buffer` for a stream in a fallback buffer
 *   without data
 */
export async function decodeMeshoptViews(
  fileName: string,
  json: GLTF.IGLTF,
  resources: GltfResources,
  memoryBudgetBytes: number,
): Promise<{ json: GLTF.IGLTF; resources: GltfResources }> {
  const bufferJson = json.buffers ?? [];
  const views = json.bufferViews ?? [];
  const empty = bufferJson.map((buffer, i) => isMeshoptFallback(buffer) && resources.buffers[i].length < (buffer.byteLength ?? 0));

  interface Plan { index: number; source: Uint8Array; count: number; stride: number; mode: string; filter: string; byteLength: number; at: number }
  const plans: Plan[] = [];
  let decodedBytes = 0;
  views.forEach((view, i) => {
    if (typeof view !== 'object' || view === null) return; // validateGltfJson reports it
    const extension = view.extensions?.[EXTENSION] as Record<string, unknown> | undefined;
    const place = `/bufferViews/${i}`;
    if (extension === undefined) return; // a plain view, checked by validateGltfJson (also one into a fallback buffer without data)
    const at = `${place}/extensions/${EXTENSION}`;
    const fail = (where: string, code: LoadErrorCode, problem: string): never => {
      throw new LoadError(fileName, `${at}${where}`, code, problem);
    };
    if (typeof extension !== 'object' || extension === null || Array.isArray(extension)) fail('', 'TYPE_MISMATCH', 'is not an object');
    const integer = (key: string, min: number, fallback?: number): number => {
      const value = extension[key] ?? fallback;
      if (!Number.isInteger(value) || (value as number) < min) fail(`/${key}`, 'VALUE_NOT_IN_RANGE', `is ${quoteValue(value)}, not an integer ≥ ${min}`);
      return value as number;
    };
    const buffer = integer('buffer', 0);
    if (buffer >= bufferJson.length) fail('/buffer', 'UNRESOLVED_REFERENCE', `is not a buffer (${buffer} of ${bufferJson.length})`);
    if (empty[buffer]) fail('/buffer', 'BUFFER_MISSING_GLB_DATA', `is buffer ${buffer}, a fallback buffer without data`);
    const byteOffset = integer('byteOffset', 0, 0);
    const byteLength = integer('byteLength', 1);
    const bytes = resources.buffers[buffer];
    if (byteOffset + byteLength > bytes.length) fail('', 'BUFFER_VIEW_TOO_LONG', `spans bytes ${byteOffset}…${byteOffset + byteLength} of buffer ${buffer}, which has ${bytes.length}`);
    const mode = extension.mode;
    if (mode !== 'ATTRIBUTES' && mode !== 'TRIANGLES' && mode !== 'INDICES') fail('/mode', 'VALUE_NOT_IN_LIST', `is ${quoteValue(mode)}, not ATTRIBUTES, TRIANGLES or INDICES`);
    const filter = extension.filter ?? 'NONE';
    if (typeof filter !== 'string' || !Object.hasOwn(FILTER_STRIDES, filter)) fail('/filter', 'VALUE_NOT_IN_LIST', `is ${quoteValue(filter)}, not ${Object.keys(FILTER_STRIDES).join(', ')}`);
    const stride = integer('byteStride', 1);
    const count = integer('count', 1);
    if (mode === 'ATTRIBUTES' ? stride % 4 !== 0 || stride > 256 : stride !== 2 && stride !== 4) {
      fail('/byteStride', 'VALUE_NOT_IN_RANGE', `is ${stride}; ${mode} needs ${mode === 'ATTRIBUTES' ? 'a multiple of 4 up to 256' : '2 or 4'}`);
    }
    if (filter !== 'NONE' && (mode !== 'ATTRIBUTES' || !FILTER_STRIDES[filter as string](stride))) {
      fail('/filter', 'VALUE_NOT_IN_RANGE', `is ${filter}, which ${mode !== 'ATTRIBUTES' ? `${mode} data cannot use` : `does not allow byteStride ${stride}`}`);
    }
    if (mode === 'TRIANGLES' && count % 3 !== 0) fail('/count', 'VALUE_NOT_IN_RANGE', `is ${count}, not a multiple of 3 (TRIANGLES)`);
    const viewLength = view.byteLength;
    if (Number.isInteger(viewLength) && count * stride < viewLength) {
      fail('/count', 'VALUE_NOT_IN_RANGE', `× byteStride is ${count * stride} bytes, less than the bufferView's byteLength ${viewLength}`);
    }
    // Counted before anything is decoded, like the accessors (validate-gltf-json.ts).
    decodedBytes += count * stride;
    if (decodedBytes > memoryBudgetBytes) {
      fail('/count', 'MEMORY_BUDGET_EXCEEDED', `is ${count}: the compressed buffer views decode to more than the memory budget of ${+(memoryBudgetBytes / 1048576).toFixed(1)} MiB`);
    }
    plans.push({ index: i, source: bytes.subarray(byteOffset, byteOffset + byteLength), count, stride, mode: mode as string, filter: filter as string, byteLength: Number.isInteger(viewLength) ? viewLength as number : count * stride, at: 0 });
  });

  await MeshoptDecoder.ready;
  // Decoded views are packed into one buffer, each at a 4-byte boundary (glTF 2.0 §3.6.2.4 alignment).
  let total = 0;
  for (const plan of plans) {
    plan.at = total;
    total += Math.ceil(plan.count * plan.stride / 4) * 4;
  }
  const decoded = new Uint8Array(total);
  const decodedIndex = bufferJson.length;
  const viewsOut = views.slice();
  for (const plan of plans) {
    const target = decoded.subarray(plan.at, plan.at + plan.count * plan.stride);
    try {
      MeshoptDecoder.decodeGltfBuffer(target, plan.count, plan.stride, plan.source, plan.mode, plan.filter === 'NONE' ? undefined : plan.filter);
    } catch (error) {
      throw new LoadError(fileName, `/bufferViews/${plan.index}/extensions/${EXTENSION}`, 'COMPRESSED_DATA_INVALID',
        `could not be decoded (meshopt: ${(error as Error).message})`);
    }
    const { extensions, ...plain } = views[plan.index];
    const rest = { ...extensions };
    delete rest[EXTENSION];
    viewsOut[plan.index] = { ...plain, buffer: decodedIndex, byteOffset: plan.at, byteLength: plan.byteLength, ...(Object.keys(rest).length ? { extensions: rest } : {}) };
  }

  const byUri: Record<string, Uint8Array> = { ...resources.byUri, [DECODED_KEY]: decoded, [FALLBACK_KEY]: new Uint8Array(0) };
  const buffersOut: GLTF.IBuffer[] = bufferJson.map((buffer, i) => (empty[i] ? { byteLength: buffer.byteLength, uri: FALLBACK_KEY } : buffer));
  buffersOut.push({ byteLength: decoded.length, uri: DECODED_KEY });
  const without = (list: string[] | undefined) => list?.filter((name) => name !== EXTENSION);
  return {
    json: { ...json, buffers: buffersOut, bufferViews: viewsOut, extensionsUsed: without(json.extensionsUsed), extensionsRequired: without(json.extensionsRequired) },
    resources: { buffers: [...resources.buffers.map((bytes, i) => (empty[i] ? new Uint8Array(0) : bytes)), decoded], byUri, missingImages: resources.missingImages },
  };
}
