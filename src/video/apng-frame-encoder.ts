import UPNG from 'upng-js';
import { readFramePixels, type FrameCanvas, type FrameEncoder, type FrameEncoderOptions } from './frame-encoder.ts';

/**
 * Animated PNG through upng-js: lossless (`cnum` 0: every pixel as read; upng-js picks the colour type and crops
 * each frame to what changed, which decodes to the same pixels), played forever. A PNG's frames are all compressed
 * at the end, so the encoder holds each frame's RGBA bytes until {@link FrameEncoder.finish}: they are the buffers
 * `getImageData` returns (one per frame, the browser's; nothing copied). Frame delays are `1 / fps` exactly (fcTL
 * `delay_num` 1, `delay_den` fps) for a whole fps up to 65 535, else milliseconds rounded so that frame k still
 * starts at round(1000 k / fps) ms (APNG specification, "fcTL: the frame control chunk").
 */
export class ApngFrameEncoder implements FrameEncoder {
  private readonly frames: ArrayBuffer[] = [];
  private readonly options: FrameEncoderOptions;

  constructor(options: FrameEncoderOptions) {
    this.options = options;
  }

  addFrame(canvas: FrameCanvas, index: number): Promise<void> {
    try {
      this.frames[index] = readFramePixels(canvas, this.options).buffer as ArrayBuffer;
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  finish(): Promise<Blob> {
    const { width, height, fps } = this.options;
    const count = this.frames.length;
    const delays: number[] = [];
    for (let k = 0; k < count; k++) delays.push(Math.round((1000 * (k + 1)) / fps) - Math.round((1000 * k) / fps));
    const png = new Uint8Array(UPNG.encode(this.frames, width, height, 0, delays));
    this.frames.length = 0;
    if (count > 1 && Number.isInteger(fps) && fps <= 0xffff) setFrameRate(png, fps);
    return Promise.resolve(new Blob([png], { type: 'image/apng' }));
  }

  cancel(): void {
    this.frames.length = 0;
  }
}

/** upng-js's chunk checksum (CRC-32 of PNG, ISO 3309), which its types do not declare. */
const crc32 = (UPNG as unknown as { crc: { crc(bytes: Uint8Array, offset: number, length: number): number } }).crc.crc;

/**
 * Rewrites every fcTL chunk of `png` to a delay of 1 / `fps` seconds (`delay_num` 1, `delay_den` fps) and its CRC:
 * upng-js writes milliseconds over 1000, which rounds 1 / 30 s. The chunk layout is the APNG specification's: length,
 * type, sequence number, width, height, x, y (4 bytes each), delay_num, delay_den (2 bytes each), dispose, blend.
 */
function setFrameRate(png: Uint8Array, fps: number): void {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(png[offset + 4], png[offset + 5], png[offset + 6], png[offset + 7]);
    if (type === 'fcTL' && length === 26) {
      const data = offset + 8;
      view.setUint16(data + 20, 1);
      view.setUint16(data + 22, fps);
      view.setUint32(data + length, crc32(png, offset + 4, length + 4) >>> 0);
    }
    if (type === 'IEND') return;
    offset += 12 + length;
  }
}
