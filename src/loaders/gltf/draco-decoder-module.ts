/// <reference path="./virtual-draco-decoder.d.ts" />
/**
 * Google's Draco decoder (the glTF build shipped in draco3dgltf: its Emscripten script and WebAssembly), for
 * KHR_draco_mesh_compression: part of draco-primitives.ts's chunk, which a page or process loads only when a
 * file holds Draco-compressed primitives.
 *
 * One way for the browser and node: the package's script comes as an ES module (build/decoder-modules-plugin.ts
 * wraps it at build time, so nothing is evaluated from text) that takes neither its node path, which reads the
 * WebAssembly beside it with `fs`, nor a CommonJS export; and the WebAssembly is handed over as bytes (inlined
 * as a data URL by `?url&inline`), so no file is fetched from beside the chunk and no bundler has to resolve the
 * package's `fs` import.
 */
// By path: the package has no `exports` for its files. `?url&inline` makes Vite bundle the WebAssembly as a
// data URL into this module's chunk.
import decoderFactory from 'virtual:draco-decoder';
import decoderWasm from '../../../node_modules/draco3dgltf/draco_decoder_gltf.wasm?url&inline';

// gltf-transform's reader of the extension, in this chunk too: only a file with Draco needs it.
export { KHRDracoMeshCompression } from '@gltf-transform/extensions';

/** The instantiated Emscripten module (draco3dgltf's `DecoderModule`; its API is what gltf-transform calls). */
export type DracoDecoderModule = import('draco3dgltf').DecoderModule;

/**
 * A new decoder module: one per call, since an Emscripten module that aborted (a corrupt stream can make it
 * run out of memory) cannot be used again; callers keep one while it works.
 * Its `print` / `printErr` are silenced: a failure reaches the caller as an exception, never as console text.
 * @throws Error when the WebAssembly cannot be instantiated
 */
export async function createDracoDecoderModule(): Promise<DracoDecoderModule> {
  const wasmBinary = new Uint8Array(await (await fetch(decoderWasm)).arrayBuffer());
  const silent = (): void => {};
  return await decoderFactory({ wasmBinary, print: silent, printErr: silent });
}
