import type { FrameEncoder, FrameEncoderOptions } from './frame-encoder.ts';
import type { VideoMimeType } from './video-formats.ts';

/**
 * The encoder of `mimeType`, its module (and library: mediabunny, upng-js, gifenc) loaded now, on first use, so
 * they stay out of the element's main chunk.
 * @throws Error (rejects) when the module cannot be loaded, or as `createWebCodecsEncoder` (no WebCodecs, no codec)
 */
export async function createFrameEncoder(mimeType: VideoMimeType, options: FrameEncoderOptions): Promise<FrameEncoder> {
  switch (mimeType) {
    case 'image/apng':
      return new (await import('./apng-frame-encoder.ts')).ApngFrameEncoder(options);
    case 'image/gif':
      return new (await import('./gif-frame-encoder.ts')).GifFrameEncoder(options);
    case 'video/webm':
    case 'video/mp4':
      return (await import('./webcodecs-frame-encoder.ts')).createWebCodecsEncoder(mimeType, options);
  }
}
