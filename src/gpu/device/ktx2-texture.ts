/// <reference path="./virtual-basis-transcoder.d.ts" />
/**
 * KTX2 / Basis Universal base colour images (KHR_texture_basisu): transcoded in WebAssembly by Binomial's
 * Basis Universal transcoder, bundled into this module's own chunk, which is loaded only when a model has such
 * an image — gpu-model.ts reaches this file through a dynamic import, so the core bundle carries none of it.
 *
 * The transcoder's script comes as an ES module (build/decoder-modules-plugin.ts wraps it at build time and
 * replaces its bindings' code generation by an invoker that creates no code from text), so a page's Content-Security-Policy needs `'wasm-unsafe-eval'` for it but
 * no `'unsafe-eval'`; its WebAssembly is inlined as a data URL (`?url&inline`), so nothing is fetched from
 * beside the chunk.
 *
 * Every mip level is transcoded to RGBA8 (`cTFRGBA32`), which texture.ts uploads as SRGB8_ALPHA8 like a PNG
 * base colour: one path that every WebGL2 context (SwiftShader included) can sample, at the cost of
 * GPU-compressed formats' memory savings.
 */
// By path: the package's `exports` do not list its libs.
import transcoderFactory from 'virtual:basis-transcoder';
import transcoderWasm from '../../../node_modules/@loaders.gl/textures/dist/libs/basis_transcoder.wasm?url&inline';
// Types only: a value imported from the core (texture.ts) would be split into a chunk shared with it.
import type { ImageAsset } from '../../asset/model-asset.ts';
import type { DecodedLevels } from './texture.ts';

/** The slice of the Emscripten transcoder module Sinew calls (basis_universal `webgl/transcoder`). */
interface BasisModule {
  initializeBasis(): void;
  KTX2File: new (bytes: Uint8Array) => Ktx2File;
  transcoder_texture_format: { cTFRGBA32: { value: number } };
}

interface Ktx2File {
  isValid(): boolean;
  getWidth(): number;
  getHeight(): number;
  getLevels(): number;
  startTranscoding(): boolean | number;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(out: Uint8Array, level: number, layer: number, face: number, format: number, flags: number, channel0: number, channel1: number): boolean | number;
  close(): void;
  delete(): void;
}


let transcoder: Promise<BasisModule> | null = null;

/** The transcoder, instantiated on first use and shared after. */
function loadTranscoder(): Promise<BasisModule> {
  transcoder ??= (async () => {
    const wasmBinary = new Uint8Array(await (await fetch(transcoderWasm)).arrayBuffer());
    const module = (await transcoderFactory({ wasmBinary })) as BasisModule;
    module.initializeBasis();
    return module;
  })();
  transcoder.catch(() => { transcoder = null; });
  return transcoder;
}

/**
 * Transcodes a KTX2 image (a Basis Universal ETC1S or UASTC payload, as KHR_texture_basisu requires) to RGBA8,
 * every mip level it holds.
 * @param where the model's name, for messages
 * @throws Error `where: image "NAME" (image/ktx2) could not be transcoded: …` for a file the transcoder
 *   refuses, or when the transcoder cannot be loaded
 */
export async function decodeKtx2(image: ImageAsset, where: string): Promise<DecodedLevels> {
  // quoteValue's form, inlined: a value imported from the core would split off a chunk shared with it.
  const quotedName = JSON.stringify(image.name);
  const shownName = quotedName.length <= 40 ? quotedName : `${quotedName.slice(0, 40)}… (${quotedName.length} characters)`;
  const fail = (problem: string): Error => new Error(`${where}: image ${shownName} (image/ktx2) could not be transcoded: ${problem}`);
  let basis: BasisModule;
  try {
    basis = await loadTranscoder();
  } catch (error) {
    throw fail(`the Basis Universal transcoder did not load (${(error as Error).message})`);
  }
  const file = new basis.KTX2File(image.data);
  try {
    if (!file.isValid()) throw fail('not a valid KTX2 file');
    if (!file.startTranscoding()) throw fail('the transcoder could not start (not a Basis Universal payload?)');
    const format = basis.transcoder_texture_format.cTFRGBA32.value;
    const levels: Uint8Array[] = [];
    for (let level = 0; level < Math.max(1, file.getLevels()); level++) {
      const out = new Uint8Array(file.getImageTranscodedSizeInBytes(level, 0, 0, format));
      if (!file.transcodeImage(out, level, 0, 0, format, 0, -1, -1)) throw fail(`mip level ${level} did not transcode`);
      levels.push(out);
    }
    return { width: file.getWidth(), height: file.getHeight(), levels };
  } finally {
    file.close();
    file.delete();
  }
}
