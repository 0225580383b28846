import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The slice of Binomial's Basis Universal encoder module (basis_universal `webgl/encoder`) the tests call. */
interface EncoderModule {
  initializeBasis(): void;
  BasisEncoder: new () => {
    setCreateKTX2File(on: boolean): void;
    setKTX2UASTCSupercompression(on: boolean): void;
    setKTX2AndBasisSRGBTransferFunc(on: boolean): void;
    setFormatMode(mode: number): void;
    setMipGen(on: boolean): void;
    setQualityLevel(level: number): void;
    setSliceSourceImage(slice: number, pixels: Uint8Array, width: number, height: number, type: number): boolean;
    encode(out: Uint8Array): number;
    delete(): void;
  };
  basis_tex_format: { cUASTC4x4: { value: number }; cETC1S: { value: number } };
  ldr_image_type: { cRGBA32: { value: number } };
}

let encoder: Promise<EncoderModule> | null = null;

/** The encoder shipped in @loaders.gl/textures, instantiated once (its script is evaluated for its factory). */
function loadEncoder(): Promise<EncoderModule> {
  encoder ??= (async () => {
    // The package's `exports` do not list its libs: find them beside its main entry (dist/).
    const script = join(dirname(require.resolve('@loaders.gl/textures')), 'libs', 'basis_encoder.js');
    // The script finds node through the CommonJS names; the wasm is given, so it reads no file itself.
    const factory = new Function('require', '__filename', '__dirname', `${readFileSync(script, 'utf8')}\nreturn BASIS;`)(require, script, dirname(script)) as (options: object) => Promise<EncoderModule>;
    const module = await factory({ wasmBinary: readFileSync(script.replace(/\.js$/, '.wasm')), print: () => {}, printErr: () => {} });
    module.initializeBasis();
    return module;
  })();
  return encoder;
}

/**
 * A KTX2 file (sRGB, one mip level) of `width × height` RGBA8 pixels (rows top to bottom), Basis Universal
 * encoded — UASTC with Zstandard supercompression, or ETC1S (BasisLZ) — as KHR_texture_basisu asks.
 */
export async function encodeKtx2(width: number, height: number, rgba: Uint8Array, mode: 'uastc' | 'etc1s' = 'uastc'): Promise<Uint8Array> {
  const basis = await loadEncoder();
  const e = new basis.BasisEncoder();
  try {
    e.setCreateKTX2File(true);
    e.setKTX2UASTCSupercompression(true);
    e.setKTX2AndBasisSRGBTransferFunc(true);
    e.setFormatMode(mode === 'uastc' ? basis.basis_tex_format.cUASTC4x4.value : basis.basis_tex_format.cETC1S.value);
    // ETC1S needs an explicit quality (its default, −1, makes the encoder's front end refuse to start).
    if (mode === 'etc1s') e.setQualityLevel(255);
    e.setMipGen(false);
    if (!e.setSliceSourceImage(0, rgba, width, height, basis.ldr_image_type.cRGBA32.value)) throw new Error('encodeKtx2: the encoder refused the image');
    const out = new Uint8Array(64 * 1024 + 16 * width * height);
    const length = e.encode(out);
    if (length === 0) throw new Error('encodeKtx2: encoding failed');
    return out.slice(0, length);
  } finally {
    e.delete();
  }
}
