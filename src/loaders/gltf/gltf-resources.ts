import type { GLTF } from '@gltf-transform/core';
import { LoadError, quoteUrl } from '../load-error.ts';
import { isMeshoptFallback } from './meshopt-fallback.ts';

/** Key gltf-transform uses for the GLB BIN chunk in a JSONDocument's resource map (`GLB_BUFFER`). */
export const GLB_BUFFER_KEY = '@glb.bin';

/** The bytes behind every buffer and uri-based image of a glTF file. */
export interface GltfResources {
  /** Bytes of buffer i (at least its declared byteLength; GLB BIN chunks may carry ≤ 3 bytes of padding). */
  readonly buffers: Uint8Array[];
  /** uri → bytes for every buffer and image uri (data URIs decoded), plus the BIN chunk under {@link GLB_BUFFER_KEY}: gltf-transform's resource map. */
  readonly byUri: Record<string, Uint8Array>;
  /** Indices of the images whose external file was missing, now {@link NEUTRAL_IMAGE_PNG} (in `byUri` under their uri). */
  readonly missingImages: readonly number[];
}

/**
 * A 1×1 opaque white PNG: the neutral texture that stands in for an external image file that is missing, as
 * three.js's glTF loader draws such a texture untextured (its factor times white).
 */
export const NEUTRAL_IMAGE_PNG: Uint8Array = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4////fwAJ+wP9KobjigAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/**
 * Resolves each buffer's and each uri-based image's bytes: the GLB BIN chunk for a buffer without uri,
 * a decoded `data:` URI (base64 or percent-encoded), or an external file from `resources`, looked up by
 * the uri as written and then by its percent-decoded form. An external image file missing from `resources` is,
 * as three.js loads it, a neutral white image ({@link NEUTRAL_IMAGE_PNG}) with one warning in `warnings` naming
 * the images (a missing buffer still fails: the geometry cannot be drawn without it).
 *
 * @param json glTF JSON whose `buffers` / `images` arrays are at least arrays of objects
 * An EXT_meshopt_compression fallback buffer without uri (outside a GLB's first buffer) resolves to no bytes.
 *
 * @throws LoadError (where: the JSON pointer) for a buffer without uri outside a GLB, or a GLB without BIN chunk
 *   (`BUFFER_MISSING_GLB_DATA`), an undecodable data URI (`INVALID_URI`), an external buffer uri missing from
 *   `resources` (`FILE_NOT_FOUND`), fewer bytes than `byteLength` (`BUFFER_EXTERNAL_BYTELENGTH_MISMATCH`,
 *   `BUFFER_EMBEDDED_BYTELENGTH_MISMATCH`), or `buffers` / `images` entries of the wrong JSON type
 *   (`TYPE_MISMATCH`, `VALUE_NOT_IN_RANGE`).
 */
export function resolveGltfResources(
  fileName: string,
  json: GLTF.IGLTF,
  binChunk: Uint8Array | null,
  resources: Record<string, Uint8Array> | undefined,
  warnings: string[] = [],
): GltfResources {
  const byUri: Record<string, Uint8Array> = {};
  const missingImages: number[] = [];
  if (binChunk) byUri[GLB_BUFFER_KEY] = binChunk;

  const lookUp = (uri: string, place: string, neutral = false): Uint8Array => {
    if (uri in byUri) return byUri[uri];
    let bytes: Uint8Array | undefined;
    if (/^data:/i.test(uri)) {
      bytes = decodeDataUri(uri, fileName, `${place}/uri`);
    } else {
      bytes = resources?.[uri];
      if (bytes === undefined) {
        let decoded = uri;
        try {
          decoded = decodeURIComponent(uri);
        } catch {
          /* not percent-encoded */
        }
        bytes = resources?.[decoded];
      }
      if (bytes === undefined && neutral) return NEUTRAL_IMAGE_PNG;
      if (bytes === undefined) {
        throw new LoadError(fileName, place, 'FILE_NOT_FOUND', `names external file ${quoteUrl(uri)}, which was not supplied among the resources`);
      }
    }
    byUri[uri] = bytes;
    return bytes;
  };

  for (const key of ['buffers', 'images'] as const) {
    const list: unknown = json[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new LoadError(fileName, `/${key}`, 'TYPE_MISMATCH', 'is not an array');
    list.forEach((item: unknown, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new LoadError(fileName, `/${key}/${i}`, 'TYPE_MISMATCH', 'is not an object');
    });
  }

  const buffers = (json.buffers ?? []).map((buffer, i) => {
    const place = `/buffers/${i}`;
    let bytes: Uint8Array;
    if (buffer.uri === undefined && isMeshoptFallback(buffer) && (i !== 0 || !binChunk)) {
      // EXT_meshopt_compression: a fallback buffer may have no data; only compressed views may lie in it
      // (gltf-meshopt.ts checks that and decodes them).
      return new Uint8Array(0);
    }
    if (buffer.uri === undefined) {
      if (i !== 0 || !binChunk) throw new LoadError(fileName, place, 'BUFFER_MISSING_GLB_DATA', 'has no uri and there is no GLB BIN chunk for it');
      bytes = binChunk;
    } else {
      if (typeof buffer.uri !== 'string') throw new LoadError(fileName, `${place}/uri`, 'TYPE_MISMATCH', 'is not a string');
      bytes = lookUp(buffer.uri, place);
    }
    const declared = buffer.byteLength;
    if (!Number.isInteger(declared) || declared < 0) throw new LoadError(fileName, `${place}/byteLength`, 'VALUE_NOT_IN_RANGE', `is ${declared}, not a non-negative integer`);
    if (bytes.length < declared) {
      const external = buffer.uri !== undefined && !/^data:/i.test(buffer.uri);
      throw new LoadError(
        fileName, place, external ? 'BUFFER_EXTERNAL_BYTELENGTH_MISMATCH' : 'BUFFER_EMBEDDED_BYTELENGTH_MISMATCH',
        `declares ${declared} bytes but has ${bytes.length} (truncated?)`,
      );
    }
    return bytes;
  });

  (json.images ?? []).forEach((image, i) => {
    if (image.uri === undefined) return;
    if (typeof image.uri !== 'string') throw new LoadError(fileName, `/images/${i}/uri`, 'TYPE_MISMATCH', 'is not a string');
    const bytes = lookUp(image.uri, `/images/${i}`, true);
    if (bytes !== NEUTRAL_IMAGE_PNG) return;
    // Kept under the uri as written, so gltf-transform's reader finds it like any other image.
    byUri[image.uri] = bytes;
    missingImages.push(i);
  });
  if (missingImages.length > 0) {
    const names = missingImages.map((i) => quoteUrl(json.images![i].uri!)).join(', ');
    warnings.push(`${fileName}: /images ${missingImages.join(', ')} name${missingImages.length === 1 ? 's' : ''} external file${missingImages.length === 1 ? '' : 's'} ${names}, not supplied; drawn as a neutral white texture`);
  }

  return { buffers, byUri, missingImages };
}

/**
 * Decodes a `data:[<mediatype>][;base64],<data>` URI (RFC 2397).
 * @param place JSON pointer of the uri, for the error
 * @throws LoadError `INVALID_URI` at `place` when the URI has no comma, invalid base64 or invalid percent-encoding
 */
export function decodeDataUri(uri: string, fileName: string, place: string): Uint8Array {
  const fail = (problem: string) => new LoadError(fileName, place, 'INVALID_URI', problem);
  const comma = uri.indexOf(',');
  if (comma < 0) throw fail("is a data URI without ',' before its data");
  const header = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  if (/;base64$/i.test(header)) {
    let binary: string;
    try {
      binary = atob(payload.replace(/\s+/g, ''));
    } catch {
      throw fail('is a data URI whose base64 is not valid');
    }
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  let text: string;
  try {
    text = decodeURIComponent(payload);
  } catch {
    throw fail('is a data URI with invalid percent-encoding');
  }
  // Percent-encoded data: each character is one byte.
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}
