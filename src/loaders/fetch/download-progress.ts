/**
 * Called as a model's files download: `loaded` bytes received so far over every file of the model, `total`
 * the sum of their sizes, or null while the size of any file still downloading is unknown.
 */
export type ProgressCallback = (loaded: number, total: number | null) => void;

/** Least time between two reports while bytes arrive, milliseconds. */
const REPORT_INTERVAL_MS = 100;

/**
 * Counts the bytes of one model's downloads (the main file, then companions as they are requested) and
 * reports them. A file's size is its `Content-Length`, unknown when absent, when the body is compressed
 * (`Content-Encoding`: the header counts compressed bytes, the stream gives decoded ones) or once more bytes
 * arrive than it announced; a finished file's size is what it delivered. Reports: when each response starts,
 * at most every 100 ms while bytes arrive, and when each file is complete.
 */
export class DownloadProgress {
  private loaded = 0;
  /** Sum of the known sizes. */
  private total = 0;
  /** Files downloading whose size is unknown. */
  private unknown = 0;
  private lastReportMs = -Infinity;

  constructor(private readonly report: ProgressCallback) {}

  /**
   * Reads `response`'s body to the end, reporting as it goes.
   * @throws whatever reading the body throws (a network error mid-way)
   */
  async read(response: Response): Promise<Uint8Array> {
    let size = announcedSize(response);
    if (size === null) this.unknown++;
    else this.total += size;
    this.emit(true);
    let received = 0;
    let bytes: Uint8Array;
    if (!response.body) {
      bytes = new Uint8Array(await response.arrayBuffer());
      received = bytes.length;
      this.loaded += received;
    } else {
      const chunks: Uint8Array[] = [];
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        this.loaded += value.length;
        if (size !== null && received > size) {
          // More than announced: the header was not the body's size after all.
          this.total -= size;
          this.unknown++;
          size = null;
        }
        this.emit(false);
      }
      bytes = concat(chunks, received);
    }
    // Finished: its size is known now.
    if (size === null) this.unknown--;
    else this.total -= size;
    this.total += received;
    this.emit(true);
    return bytes;
  }

  private emit(force: boolean): void {
    const now = performance.now();
    if (!force && now - this.lastReportMs < REPORT_INTERVAL_MS) return;
    this.lastReportMs = now;
    this.report(this.loaded, this.unknown > 0 ? null : this.total);
  }
}

/** The body's size in bytes from `Content-Length`, or null when absent, malformed or of a compressed body. */
function announcedSize(response: Response): number | null {
  const encoding = response.headers.get('content-encoding');
  if (encoding && encoding.trim().toLowerCase() !== 'identity') return null;
  const length = response.headers.get('content-length');
  return length !== null && /^\s*\d+\s*$/.test(length) ? Number(length) : null;
}

/** The chunks in one new buffer of its own (offset 0, as loaders that view it with typed arrays expect). */
function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
