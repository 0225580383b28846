import { mat4 } from 'gl-matrix';
import type { CameraMatrices } from '../gpu/passes/renderer.ts';
import type { Ray } from '../scene/pick-model.ts';

/**
 * Rays through the pixels of a view and the way back (a world point to its pixel), for picking (`pickModel`) and
 * anything placed over the picture. World space is the view's display space (a `ModelView` sets
 * `AnimatedModel.world` to its display matrix), so the rays go straight to `pickModel`.
 *
 * Pixel positions are drawing-buffer pixels from the top-left corner, x right, y down, the centre of pixel
 * (i, j) at (i + 0.5, j + 0.5); a CSS position becomes one by the buffer-to-CSS scale ({@link cssToBuffer}),
 * which carries devicePixelRatio. The camera's projection already holds any off-axis shift
 * (`OrbitCamera.viewOffsetX`), so nothing else moves the picture. Caller-owned scratch: allocates nothing after
 * construction.
 */
export class PixelRays {
  /** `Float64Array(16)`: (projection · view)⁻¹ of the last call. */
  private readonly inverse = new Float64Array(16);
  private readonly viewProjection = new Float64Array(16);
  private readonly point = new Float64Array(4);

  /**
   * Writes into `ray` the world-space ray through drawing-buffer position (x, y): from the near plane (NDC z = −1)
   * towards the far plane (z = 1), the direction un-normalised (the near-to-far segment, so t = 1 is the far plane).
   * @param camera the view's matrices (`ViewFrame.camera`: view and projection, Float32Array(16) column-major)
   * @param width drawing buffer width, pixels (`ViewFrame.width`)
   * @param height drawing buffer height, pixels
   * @returns `ray`
   * @throws RangeError when width or height is not positive, or projection · view is singular
   */
  through(ray: Ray, camera: CameraMatrices, width: number, height: number, x: number, y: number): Ray {
    this.invert(camera, width, height);
    const ndcX = (2 * x) / width - 1, ndcY = 1 - (2 * y) / height;
    this.unproject(ndcX, ndcY, -1, ray.origin);
    this.unproject(ndcX, ndcY, 1, ray.direction);
    for (let a = 0; a < 3; a++) ray.direction[a] -= ray.origin[a];
    return ray;
  }

  /**
   * Writes into `out` (`Float64Array(3)` or longer) the drawing-buffer position (x, y; top-left origin, y down) of
   * world point `p`, and its NDC depth in `out[2]` (−1 near … 1 far); `out[0]` is NaN for a point behind the eye.
   * @returns `out`
   */
  project(out: Float64Array, camera: CameraMatrices, width: number, height: number, p: ArrayLike<number>): Float64Array {
    const m = this.multiply(camera);
    const x = p[0], y = p[1], z = p[2];
    const cx = m[0] * x + m[4] * y + m[8] * z + m[12], cy = m[1] * x + m[5] * y + m[9] * z + m[13];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14], cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (!(cw > 0)) { out[0] = out[1] = out[2] = NaN; return out; }
    out[0] = (0.5 * (cx / cw) + 0.5) * width;
    out[1] = (0.5 - 0.5 * (cy / cw)) * height;
    out[2] = cz / cw;
    return out;
  }

  private multiply(camera: CameraMatrices): Float64Array {
    const vp = this.viewProjection, p = camera.projection, v = camera.view;
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) vp[4 * c + r] = p[r] * v[4 * c] + p[4 + r] * v[4 * c + 1] + p[8 + r] * v[4 * c + 2] + p[12 + r] * v[4 * c + 3];
    }
    return vp;
  }

  private invert(camera: CameraMatrices, width: number, height: number): void {
    if (!(width > 0 && height > 0)) throw new RangeError(`PixelRays: a drawing buffer of ${width}×${height} pixels has no pixels`);
    if (!mat4.invert(this.inverse as unknown as mat4, this.multiply(camera) as unknown as mat4)) {
      throw new RangeError('PixelRays: the camera\'s projection · view is singular');
    }
  }

  private unproject(x: number, y: number, z: number, out: Float64Array): void {
    const m = this.inverse, q = this.point;
    for (let r = 0; r < 4; r++) q[r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
    out[0] = q[0] / q[3]; out[1] = q[1] / q[3]; out[2] = q[2] / q[3];
  }
}

/**
 * A CSS-pixel position in an element of `cssWidth × cssHeight` CSS pixels (e.g. a pointer event's `offsetX`,
 * `offsetY` on the canvas) as a drawing-buffer position of a `width × height` buffer, into `out[0]`, `out[1]`:
 * scaled by `width / cssWidth` and `height / cssHeight` (devicePixelRatio and any render scale together).
 * @returns `out`
 * @throws RangeError when a size is not positive
 */
export function cssToBuffer(out: Float64Array, cssX: number, cssY: number, cssWidth: number, cssHeight: number, width: number, height: number): Float64Array {
  if (!(cssWidth > 0 && cssHeight > 0 && width > 0 && height > 0)) {
    throw new RangeError(`cssToBuffer: sizes must be positive (CSS ${cssWidth}×${cssHeight}, buffer ${width}×${height})`);
  }
  out[0] = (cssX * width) / cssWidth;
  out[1] = (cssY * height) / cssHeight;
  return out;
}
