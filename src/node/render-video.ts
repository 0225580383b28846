import type { RenderPage } from './render-browser.ts';

/** What {@link recordVideo} asks the page's `<sinew-viewer>` for: `toVideo`'s options, less the callback. */
export interface VideoRequest {
  /** Clip name as the element shows it; undefined: the clip it plays. */
  readonly clip?: string;
  /** Frames per second; frame k is posed at k / fps seconds. */
  readonly fps: number;
  /** Seconds; undefined: the clip's duration. */
  readonly duration?: number;
  /** `video/webm`, `video/mp4`, `image/apng` or `image/gif`. */
  readonly mimeType: string;
  /** Degrees of camera yaw over the whole video. */
  readonly turntable: number;
}

/** The name of the page function `toVideo`'s `onProgress` calls, bound to node by {@link bindVideoProgress}. */
const PROGRESS_BINDING = 'sinewRenderProgress';

/**
 * Bytes of the encoded video read back per `page.evaluate`: base64 of this many bytes stays a small message
 * (CDP messages are bounded) while a 480 × 480, 5 s WebM comes back in one or two round trips.
 */
const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Makes the page's `toVideo` progress reach `listener` (set before the page is opened; one binding per page).
 * The listener in use is swapped by the caller; calls arrive asynchronously, in order.
 */
export async function bindVideoProgress(page: RenderPage, listener: (framesDone: number, frameCount: number) => void): Promise<void> {
  await page.exposeFunction(PROGRESS_BINDING, listener);
}

/**
 * Node only: has the page's `<sinew-viewer id="viewer">` encode a video with `toVideo(request)` (frames posed by
 * time, encoded in the page: common-37's `ToVideoOptions`), then reads the Blob back in base64 chunks of
 * {@link CHUNK_BYTES} (FileReader's data URL, the browser's own encoder) and frees it.
 * @returns the encoded file's bytes
 * @throws Error with the element's message (an unknown clip, an unsupported type, …), prefixed by `model`
 */
export async function recordVideo(page: RenderPage, model: string, request: VideoRequest): Promise<Uint8Array> {
  const options = JSON.stringify(request);
  const made = await page.evaluate<{ size?: number; error?: string }>(`(async () => {
    const viewer = document.getElementById("viewer");
    if (typeof viewer.toVideo !== "function") return { error: "this <sinew-viewer> has no toVideo" };
    try {
      const blob = await viewer.toVideo({ ...${options}, onProgress: (done, count) => window.${PROGRESS_BINDING}?.(done, count) });
      window.sinewVideo = blob;
      return { size: blob.size };
    } catch (e) {
      return { error: String(e && e.message || e) };
    }
  })()`);
  if (made.error !== undefined || made.size === undefined) throw new Error(`${model}: ${made.error ?? 'toVideo gave no video'}`);
  const bytes = new Uint8Array(made.size);
  for (let start = 0; start < made.size; start += CHUNK_BYTES) {
    const end = Math.min(made.size, start + CHUNK_BYTES);
    const base64 = await page.evaluate<string>(`new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result.slice(reader.result.indexOf(",") + 1));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(window.sinewVideo.slice(${start}, ${end}));
    })`);
    const chunk = Buffer.from(base64, 'base64');
    if (chunk.length !== end - start) throw new Error(`${model}: the video read back ${chunk.length} bytes at ${start}, not ${end - start}`);
    bytes.set(chunk, start);
  }
  await page.evaluate('void (window.sinewVideo = undefined)');
  return bytes;
}
