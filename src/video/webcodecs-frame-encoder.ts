import {
  BufferTarget, CanvasSource, getFirstEncodableVideoCodec, Mp4OutputFormat, Output, QUALITY_HIGH, WebMOutputFormat, type VideoCodec,
} from 'mediabunny';
import { checkFrameSize, type FrameCanvas, type FrameEncoder, type FrameEncoderOptions } from './frame-encoder.ts';

/**
 * The codecs tried for each container, in order: the first the browser's `VideoEncoder` accepts at the picture's
 * size (`VideoEncoder.isConfigSupported`, through mediabunny's `getFirstEncodableVideoCodec`) is used. WebM takes
 * VP9, then VP8, then AV1; MP4 takes H.264 (what every player decodes; Chromium builds without a licensed H.264
 * encoder, and odd picture sizes, do not offer it), then VP9, AV1 and VP8 in MP4.
 */
export const CODECS_BY_CONTAINER: Readonly<Record<'video/webm' | 'video/mp4', readonly VideoCodec[]>> = {
  'video/webm': ['vp9', 'vp8', 'av1'],
  'video/mp4': ['avc', 'vp9', 'av1', 'vp8'],
};

/**
 * WebM or MP4 through WebCodecs, muxed by mediabunny: one video track at a constant frame rate, frame k stamped
 * k / fps seconds and lasting 1 / fps, a key frame every 2 seconds (mediabunny's default), high quality (mediabunny's
 * `QUALITY_HIGH`, a bitrate for the size and codec). No alpha: each frame is painted over the options' `background`
 * first (as the page shows it), else transparent pixels encode as black. Made by {@link createWebCodecsEncoder}.
 */
class WebCodecsFrameEncoder implements FrameEncoder {
  private readonly output: Output<WebMOutputFormat | Mp4OutputFormat, BufferTarget>;
  private source: CanvasSource | null = null;
  private readonly options: FrameEncoderOptions;
  private readonly mimeType: string;
  private readonly codec: VideoCodec;
  /** Where a frame is painted over the background before encoding; null without a background. */
  private readonly composite: OffscreenCanvasRenderingContext2D | null;

  constructor(output: Output<WebMOutputFormat | Mp4OutputFormat, BufferTarget>, codec: VideoCodec, mimeType: string, options: FrameEncoderOptions) {
    this.output = output;
    this.codec = codec;
    this.mimeType = mimeType;
    this.options = options;
    this.composite = hasColour(options.background) ? new OffscreenCanvas(options.width, options.height).getContext('2d') : null;
  }

  async addFrame(canvas: FrameCanvas, index: number): Promise<void> {
    checkFrameSize(canvas, this.options);
    const composite = this.composite;
    if (composite) {
      composite.globalCompositeOperation = 'copy';
      composite.fillStyle = this.options.background!;
      composite.fillRect(0, 0, this.options.width, this.options.height);
      composite.globalCompositeOperation = 'source-over';
      composite.drawImage(canvas, 0, 0);
    }
    if (!this.source) {
      // The source is tied to one canvas, known only with the first frame.
      this.source = new CanvasSource(composite ? composite.canvas : canvas, { codec: this.codec, bitrate: QUALITY_HIGH });
      this.output.addVideoTrack(this.source, { frameRate: this.options.fps });
      await this.output.start();
    }
    await this.source.add(index / this.options.fps, 1 / this.options.fps);
  }

  async finish(): Promise<Blob> {
    await this.output.finalize();
    const buffer = this.output.target.buffer;
    if (!buffer) throw new Error(`toVideo: mediabunny produced no ${this.mimeType} file`);
    return new Blob([buffer], { type: this.mimeType });
  }

  cancel(): void {
    if (this.output.state === 'started' || this.output.state === 'pending') void this.output.cancel().catch(() => {});
  }
}

/** Whether `colour` paints anything: absent, `transparent` and alpha 0 (`rgba(0, 0, 0, 0)`, as computed styles say it) do not. */
function hasColour(colour: string | undefined): boolean {
  if (!colour) return false;
  const c = colour.replace(/\s+/g, '').toLowerCase();
  return c !== 'transparent' && !/^rgba\(.*,0(\.0*)?\)$/.test(c) && !/\/0(\.0*)?%?\)$/.test(c);
}

/**
 * An encoder of `mimeType` (`video/webm` or `video/mp4`) for `options`' picture, in the first codec of
 * {@link CODECS_BY_CONTAINER} the browser encodes.
 * @throws Error (rejects) when the browser has no WebCodecs `VideoEncoder`, or encodes none of the container's codecs at
 *   this size (the message names them)
 */
export async function createWebCodecsEncoder(mimeType: 'video/webm' | 'video/mp4', options: FrameEncoderOptions): Promise<FrameEncoder> {
  if (typeof VideoEncoder === 'undefined') {
    throw new Error(`toVideo: ${mimeType} needs WebCodecs (VideoEncoder), which this browser does not have; image/apng and image/gif do not`);
  }
  const codecs = CODECS_BY_CONTAINER[mimeType];
  const codec = await getFirstEncodableVideoCodec([...codecs], { width: options.width, height: options.height, frameRate: options.fps, quality: QUALITY_HIGH });
  if (!codec) {
    throw new Error(`toVideo: this browser encodes none of ${codecs.join(', ')} at ${options.width} × ${options.height} pixels for ${mimeType}; try image/apng or image/gif`);
  }
  const format = mimeType === 'video/webm' ? new WebMOutputFormat() : new Mp4OutputFormat({ fastStart: 'in-memory' });
  const output = new Output({ format, target: new BufferTarget() });
  return new WebCodecsFrameEncoder(output, codec, mimeType, options);
}
