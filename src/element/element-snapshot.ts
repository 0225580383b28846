import type { Bounds } from '../scene/orbit-camera.ts';
import type { ModelView } from '../view/model-view.ts';

/**
 * `<sinew-viewer>`'s snapshots, `<model-viewer>`'s `toDataURL` and `toBlob` (model-viewer-base.ts): a copy of
 * the element's visible canvas. That canvas is a 2D canvas that holds the last frame the shared WebGL context
 * drew for the element (`ViewerHost` copies each frame into it in the task that drew it), so copying it reads
 * exactly the pixels shown, needs no new frame and no read-back of the shared context, and leaves the visible
 * canvas untouched: no flicker, whatever other elements draw meanwhile.
 */

/** Options of `toBlob`, as `<model-viewer>` takes them. */
export interface ToBlobOptions {
  /** The image type, as `HTMLCanvasElement.toBlob` takes it (default `image/png`; an unsupported type gives PNG). */
  readonly mimeType?: string;
  /** JPEG / WebP quality in [0, 1] (the browser's default when absent or out of range). */
  readonly qualityArgument?: number;
  /**
   * True: crop the picture, centred, to the model's ideal aspect ({@link idealAspectOf}), trimming the empty
   * bands on either side (or above and below) of the model; false (default): the whole canvas.
   */
  readonly idealAspect?: boolean;
}

/** A rectangle of the canvas's drawing buffer, pixels from its top-left corner. */
export interface SnapshotRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The width / height ratio of the picture that holds the model as the element frames it, seen from any yaw:
 * the diagonal of its bounds' horizontal (X-Z) extent over their height. `<model-viewer>`'s `idealAspect` is
 * the same ratio for its turntable framing. 1 for bounds without height or width (a point, a flat or empty model).
 */
export function idealAspectOf(bounds: Bounds): number {
  const dx = bounds.max[0] - bounds.min[0];
  const dy = bounds.max[1] - bounds.min[1];
  const dz = bounds.max[2] - bounds.min[2];
  const aspect = Math.hypot(dx, dz) / dy;
  return Number.isFinite(aspect) && aspect > 0 ? aspect : 1;
}

/**
 * The part of a `width` × `height` drawing buffer a snapshot holds: all of it, or with `idealAspect` (a
 * width / height ratio) a centred crop to that ratio, as `<model-viewer>`'s `toBlob({ idealAspect: true })`:
 * a model wider than the canvas keeps the full width and loses bands above and below, a narrower one the full
 * height. Offsets and sizes are whole pixels (so the crop copies pixels unresampled), sizes at least 1.
 */
export function snapshotRect(width: number, height: number, idealAspect: number | null): SnapshotRect {
  if (idealAspect === null || !(idealAspect > 0) || !(width > 0) || !(height > 0)) return { x: 0, y: 0, width, height };
  if (idealAspect > width / height) {
    const h = Math.max(1, Math.min(height, Math.round(width / idealAspect)));
    return { x: 0, y: Math.floor((height - h) / 2), width, height: h };
  }
  const w = Math.max(1, Math.min(width, Math.round(height * idealAspect)));
  return { x: Math.floor((width - w) / 2), y: 0, width: w, height };
}

/** The one scratch canvas crops are drawn into and encoded from (encoding snapshots its pixels at once). */
let scratch: HTMLCanvasElement | null = null;

/**
 * Encodes `rect` of `source` (the element's visible canvas) as a blob of `mimeType` (`HTMLCanvasElement.toBlob`
 * semantics: default and fallback PNG, `quality` for JPEG / WebP). The whole canvas is encoded directly; a crop
 * goes through one shared scratch canvas, drawn and encoded in this task.
 * @throws Error (rejects) when the browser could not encode the image (e.g. a canvas of zero size)
 */
export function encodeSnapshot(source: HTMLCanvasElement, rect: SnapshotRect, mimeType?: string, quality?: number): Promise<Blob> {
  let canvas = source;
  if (rect.x !== 0 || rect.y !== 0 || rect.width !== source.width || rect.height !== source.height) {
    canvas = scratch ??= document.createElement('canvas');
    canvas.width = rect.width;
    canvas.height = rect.height;
    const context = canvas.getContext('2d');
    if (!context) return Promise.reject(new Error('<sinew-viewer>.toBlob: could not make a 2D canvas to crop in'));
    context.globalCompositeOperation = 'copy';
    context.drawImage(source, rect.x, rect.y, rect.width, rect.height, 0, 0, rect.width, rect.height);
  }
  return new Promise<Blob>((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (blob) resolve(blob);
      else reject(new Error(`<sinew-viewer>.toBlob: the browser could not encode a ${rect.width} × ${rect.height} image`));
    }, mimeType, quality);
  });
}

/**
 * `<model-viewer>`'s `toBlob(options)` for the element whose view is `view`: the visible canvas's drawing
 * buffer (CSS size × devicePixelRatio, as last drawn), whole or cropped to the model's ideal aspect.
 * @throws Error (rejects) while the element is disconnected (it has no canvas), or when encoding fails
 */
export function snapshotBlob(view: ModelView | null, options: ToBlobOptions = {}): Promise<Blob> {
  if (!view) return Promise.reject(new Error('<sinew-viewer>.toBlob: the element is not in a document, so it shows no picture'));
  const canvas = view.canvas;
  const bounds = options.idealAspect === true ? view.bounds : null;
  const rect = snapshotRect(canvas.width, canvas.height, bounds ? idealAspectOf(bounds) : null);
  return encodeSnapshot(canvas, rect, options.mimeType, options.qualityArgument);
}
