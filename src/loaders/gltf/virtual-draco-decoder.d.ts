/** draco3dgltf's decoder factory as an ES module (build/decoder-modules-plugin.ts). */
declare module 'virtual:draco-decoder' {
  const factory: (options: { wasmBinary: Uint8Array; print?: (text: string) => void; printErr?: (text: string) => void }) => Promise<import('draco3d').DecoderModule>;
  export default factory;
}
