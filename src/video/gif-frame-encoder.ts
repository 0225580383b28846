/// <reference path="./gifenc.d.ts" />
import { applyPalette, GIFEncoder, quantize, type GifStream } from 'gifenc';
import { readFramePixels, type FrameCanvas, type FrameEncoder, type FrameEncoderOptions } from './frame-encoder.ts';

/** GIF's limit: a colour table holds at most 256 colours (GIF89a specification, "Global Color Table"). */
const MAX_COLORS = 256;

/**
 * GIF through gifenc, written frame by frame: each frame gets its own palette of up to 256 colours (gifenc's
 * PnnQuant quantiser over RGBA 4-4-4-4, alpha cut to one bit at 50 %: GIF has one transparent index, no partial
 * alpha), pixels mapped to their nearest colour, no dithering; frames with transparent pixels clear to transparent
 * before the next (disposal 2), and the file loops forever. Delays are whole centiseconds (GIF89a, "Graphic Control
 * Extension"), rounded so that frame k still starts at round(100 k / fps) cs: at 30 fps 3, 3, 4, 3, 3, 4, …
 */
export class GifFrameEncoder implements FrameEncoder {
  private readonly gif: GifStream = GIFEncoder();
  private readonly options: FrameEncoderOptions;

  constructor(options: FrameEncoderOptions) {
    this.options = options;
  }

  addFrame(canvas: FrameCanvas, index: number): Promise<void> {
    let rgba: Uint8ClampedArray;
    try {
      rgba = readFramePixels(canvas, this.options);
    } catch (error) {
      return Promise.reject(error);
    }
    const { width, height, fps } = this.options;
    const palette = quantize(rgba, MAX_COLORS, { format: 'rgba4444', oneBitAlpha: true });
    const pixels = applyPalette(rgba, palette, 'rgba4444');
    const transparentIndex = palette.findIndex((color) => color[3] === 0);
    const centiseconds = Math.round((100 * (index + 1)) / fps) - Math.round((100 * index) / fps);
    this.gif.writeFrame(pixels, width, height, {
      palette,
      delay: centiseconds * 10,
      transparent: transparentIndex >= 0,
      transparentIndex: Math.max(0, transparentIndex),
      repeat: 0,
    });
    return Promise.resolve();
  }

  finish(): Promise<Blob> {
    this.gif.finish();
    const bytes = this.gif.bytes();
    this.gif.reset();
    return Promise.resolve(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/gif' }));
  }

  cancel(): void {
    this.gif.reset();
  }
}
