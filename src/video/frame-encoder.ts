/**
 * What `<sinew-viewer>`'s `toVideo` hands its frames to: one encoder per recording, fed the element's visible canvas
 * once per frame (frame k shown at k / fps seconds), then finished into a Blob. Each format's encoder reads the
 * canvas as it needs it: the still-image formats read its pixels (`getImageData`, the bytes `toBlob` encodes), the
 * WebCodecs formats make a `VideoFrame` of it.
 */

/** The picture sizes and timing every encoder is made with. */
export interface FrameEncoderOptions {
  /** Pixels: the canvas's drawing-buffer size, the same for every frame. */
  readonly width: number;
  readonly height: number;
  /** Frames per second (> 0): frame k is shown from k / fps for 1 / fps seconds. */
  readonly fps: number;
  /** How many frames will be added (≥ 1). */
  readonly frameCount: number;
  /**
   * A CSS colour the formats without alpha (WebM, MP4) paint under every frame: the element's background, which the
   * page shows behind its transparent canvas. Absent or fully transparent: none, and transparent pixels encode as
   * black. The formats with alpha (APNG, GIF) keep the canvas's pixels as they are, as `toBlob` does.
   */
  readonly background?: string;
}

/** A 2D canvas holding one frame (the element's visible canvas). */
export type FrameCanvas = HTMLCanvasElement;

/** An encoder of one recording, fed frames in order. */
export interface FrameEncoder {
  /**
   * Adds frame `index` (0, 1, … in order) from `canvas`, read at once (the caller may draw the next frame after the
   * returned promise settles).
   * @throws Error (rejects) when the encoder failed, or the canvas's size is not the one the encoder was made with
   */
  addFrame(canvas: FrameCanvas, index: number): Promise<void>;
  /** Finishes the file. @throws Error (rejects) when encoding failed */
  finish(): Promise<Blob>;
  /** Drops the recording (after an error); idempotent. */
  cancel(): void;
}

/** The message of a canvas whose size changed during a recording. */
export function checkFrameSize(canvas: FrameCanvas, options: FrameEncoderOptions): void {
  if (canvas.width !== options.width || canvas.height !== options.height) {
    throw new Error(
      `toVideo: the element's canvas changed size during the recording (${options.width} × ${options.height} to ${canvas.width} × ${canvas.height} pixels); keep its CSS size fixed while recording`,
    );
  }
}

/**
 * The canvas's pixels as `toBlob` encodes them: RGBA, 8 bits a channel, rows from the top (`getImageData`), after
 * {@link checkFrameSize}. The still-image encoders read each frame this way.
 * @throws Error when the canvas changed size, or has no 2D context
 */
export function readFramePixels(canvas: FrameCanvas, options: FrameEncoderOptions): Uint8ClampedArray {
  checkFrameSize(canvas, options);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('toVideo: the element\'s canvas has no 2D context to read');
  return context.getImageData(0, 0, options.width, options.height).data;
}
