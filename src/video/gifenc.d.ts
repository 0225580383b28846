/**
 * The part of gifenc (a GIF encoder with a PnnQuant palette quantiser; it ships no types) that Sinew uses:
 * `quantize` and `applyPalette` over RGBA bytes (4 per pixel, rows top to bottom), and the frame-by-frame
 * `GIFEncoder` stream. Colours are `[r, g, b]` or, in the `rgba4444` format, `[r, g, b, a]`, bytes.
 */
declare module 'gifenc' {
  export type GifColor = number[];
  export type GifColorFormat = 'rgb565' | 'rgb444' | 'rgba4444';
  export interface QuantizeOptions {
    format?: GifColorFormat;
    oneBitAlpha?: boolean | number;
    clearAlpha?: boolean;
    clearAlphaThreshold?: number;
    clearAlphaColor?: number;
  }
  export function quantize(rgba: Uint8Array | Uint8ClampedArray, maxColors: number, options?: QuantizeOptions): GifColor[];
  export function applyPalette(rgba: Uint8Array | Uint8ClampedArray, palette: GifColor[], format?: GifColorFormat): Uint8Array;
  export interface GifFrameOptions {
    palette?: GifColor[];
    first?: boolean;
    transparent?: boolean;
    transparentIndex?: number;
    /** Milliseconds (written in centiseconds, rounded). */
    delay?: number;
    repeat?: number;
    colorDepth?: number;
    dispose?: number;
  }
  export interface GifStream {
    writeFrame(index: Uint8Array, width: number, height: number, options?: GifFrameOptions): void;
    finish(): void;
    bytes(): Uint8Array;
    bytesView(): Uint8Array;
    reset(): void;
  }
  export function GIFEncoder(options?: { auto?: boolean; initialCapacity?: number }): GifStream;
}
