import type { GLTF } from '@gltf-transform/core';
import { isMeshoptFallback } from '../loaders/gltf/meshopt-fallback.ts';
import { appendAnimationSection, writeAnimationSection } from './animation-section.ts';
import type { BakedClip } from './baked-clip.ts';

/** A glTF file as read: its JSON and the bytes behind its buffers and external images. */
export interface GltfFileParts {
  /** The file's name, as messages name it. */
  readonly name: string;
  /** The JSON as the file has it (not decoded: compressed buffer views stay compressed). */
  readonly json: GLTF.IGLTF;
  /** Bytes of buffer i (a GLB's BIN chunk for buffer 0; a meshopt fallback buffer without data: empty). */
  readonly buffers: readonly Uint8Array[];
  /** Bytes of image i when it names an external file; null for a bufferView or data: image, or a missing file. */
  readonly images: readonly (Uint8Array | null)[];
}

/** A node's rest transform as glTF TRS (translation in the file's units, rotation x, y, z, w, scale). */
export interface NodeTrs {
  readonly translation: readonly number[];
  readonly rotation: readonly number[];
  readonly scale: readonly number[];
}

/** Options of {@link writeBakedGltf}. */
export interface WriteBakedGltfOptions {
  /** `'glb'`: one binary file (glTF 2.0 §4.4); `'gltf'`: JSON text with every buffer and image as a data: URI. */
  readonly container: 'glb' | 'gltf';
  /**
   * The rest TRS of each node a clip animates that the file gives as a `matrix` (an animated node must use TRS,
   * glTF 2.0 §3.11): the matrix is replaced by it. Nodes given as TRS are left as they are.
   */
  readonly matrixNodes?: ReadonlyMap<number, NodeTrs>;
}

/**
 * The file `parts` with `clips` added as glTF animations after its own (glTF 2.0 §3.11), as GLB bytes or `.gltf`
 * UTF-8 JSON bytes. Everything else the file has is kept as it is — nodes, meshes (Draco or meshopt-compressed data
 * untouched), materials, skins, its animations, extensions glTF-Transform does not model (VRM, VRMC_springBone, …)
 * — because the JSON is edited, not rebuilt: indices into it stay valid. The clips' keys are written by
 * glTF-Transform (writeAnimationSection) and appended to buffer 0 (the GLB's BIN chunk), or to a new buffer when
 * buffer 0 is a meshopt fallback without data. So that the output stands alone wherever it is written, external
 * buffers and images become data: URIs (an external image the reader did not find keeps its uri).
 * @throws Error naming the file when a clip's name is already an animation's name in the file (glTF allows it,
 *   but a clip is then chosen by name ambiguously: nameBakedClips names them apart), or when two clips share a name
 */
export async function writeBakedGltf(parts: GltfFileParts, clips: readonly BakedClip[], options: WriteBakedGltfOptions): Promise<Uint8Array> {
  const json = structuredClone(parts.json);
  const taken = new Set((json.animations ?? []).map((animation) => animation.name).filter((name) => name !== undefined));
  const seen = new Set<string>();
  for (const clip of clips) {
    if (taken.has(clip.name)) throw new Error(`${parts.name}: already has an animation named ${JSON.stringify(clip.name)}; leave the clip out (--clip) or rename one`);
    if (seen.has(clip.name)) throw new Error(`${parts.name}: two clips to bake are named ${JSON.stringify(clip.name)}`);
    seen.add(clip.name);
  }
  for (const [node, trs] of options.matrixNodes ?? []) {
    const target = json.nodes?.[node];
    if (!target || target.matrix === undefined) continue;
    delete target.matrix;
    target.translation = [...trs.translation];
    target.rotation = [...trs.rotation];
    target.scale = [...trs.scale];
  }

  const section = await writeAnimationSection(clips);
  const buffers = (json.buffers ??= []);
  const bytes: Uint8Array[] = buffers.map((buffer, i) => parts.buffers[i]?.subarray(0, buffer.byteLength) ?? new Uint8Array(0));
  const first = buffers[0];
  const target = first === undefined || !(first.uri === undefined && isMeshoptFallback(first) && bytes[0].length < first.byteLength) ? 0 : buffers.length;
  if (target === buffers.length) {
    buffers.push({ byteLength: 0 });
    bytes.push(new Uint8Array(0));
  }
  const offset = align4(bytes[target].length);
  const grown = new Uint8Array(offset + section.bin.length);
  grown.set(bytes[target]);
  grown.set(section.bin, offset);
  bytes[target] = grown;
  buffers[target].byteLength = grown.length;
  appendAnimationSection(json, section, target, offset);

  // Every buffer's bytes into the file: buffer 0 as the BIN chunk of a GLB, the rest (and all of a .gltf's) as data URIs.
  buffers.forEach((buffer, i) => {
    const fallbackWithoutData = buffer.uri === undefined && isMeshoptFallback(buffer) && bytes[i].length < buffer.byteLength;
    if (fallbackWithoutData) return;
    if (options.container === 'glb' && i === 0) delete buffer.uri;
    else buffer.uri = dataUri('application/octet-stream', bytes[i]);
  });
  (json.images ?? []).forEach((image, i) => {
    const file = parts.images[i];
    if (image.uri === undefined || /^data:/i.test(image.uri) || !file) return;
    image.uri = dataUri(image.mimeType ?? mimeTypeOf(image.uri), file);
  });
  const text = new TextEncoder().encode(JSON.stringify(json));
  if (options.container === 'gltf') return text;
  return glbOf(text, buffers.length > 0 && buffers[0].uri === undefined && bytes[0].length > 0 ? bytes[0] : null);
}

/** n rounded up to a multiple of 4. */
function align4(n: number): number {
  return (n + 3) & ~3;
}

/** An image's media type from its file name (glTF 2.0 images: PNG, JPEG; KTX2 and WebP by extension). */
function mimeTypeOf(uri: string): string {
  const lower = uri.toLowerCase();
  if (/\.jpe?g$/.test(lower)) return 'image/jpeg';
  if (lower.endsWith('.ktx2')) return 'image/ktx2';
  if (lower.endsWith('.webp')) return 'image/webp';
  return 'image/png';
}

/** A base64 `data:` URI (RFC 2397) of `bytes`. */
function dataUri(mimeType: string, bytes: Uint8Array): string {
  let text = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) text += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return `data:${mimeType};base64,${btoa(text)}`;
}

/** GLB bytes (glTF 2.0 §4.4 "Binary glTF Layout"): the JSON chunk padded with spaces, the BIN chunk with zeros. */
function glbOf(jsonText: Uint8Array, bin: Uint8Array | null): Uint8Array {
  const jsonLength = align4(jsonText.length);
  const binLength = bin ? align4(bin.length) : 0;
  const total = 12 + 8 + jsonLength + (bin ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); view.setUint32(4, 2, true); view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true); view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonText, 20);
  out.fill(0x20, 20 + jsonText.length, 20 + jsonLength);
  if (bin) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true); view.setUint32(at + 4, 0x004e4942, true);
    out.set(bin, at + 8);
  }
  return out;
}
