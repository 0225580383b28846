/** The Basis Universal transcoder's Emscripten factory as an ES module (build/decoder-modules-plugin.ts). */
declare module 'virtual:basis-transcoder' {
  /** Instantiates the transcoder with its WebAssembly; resolves to the Emscripten module (ktx2-texture.ts types the part it calls). */
  const factory: (options: { wasmBinary: Uint8Array }) => Promise<unknown>;
  export default factory;
}
