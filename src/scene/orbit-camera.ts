import { mat4, vec3 } from 'gl-matrix';

/** An axis-aligned box in metres (display space): `min` and `max` corners. */
export interface Bounds {
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
}

const MAX_PITCH = Math.PI / 2 - 0.01;

/**
 * A perspective camera that orbits a target point, Y up. Yaw and pitch are radians: yaw 0, pitch 0 puts
 * the eye on the target's +Z side looking down −Z (where a glTF model faces); positive yaw swings the eye
 * towards +X, positive pitch raises it. Distance is metres from the target.
 *
 * `update(aspect)` writes `view`, `projection` and `eye` in place (allocates nothing), so its arrays can be
 * handed to the renderer as its camera every frame.
 */
export class OrbitCamera {
  /** Radians about +Y. */
  yaw = 0;
  /** Radians above the horizontal plane, clamped to just under ±π/2. */
  pitch = 0;
  /** Metres from eye to target. */
  distance = 1;
  /** The point orbited, metres. */
  readonly target = new Float32Array(3);
  /** Vertical field of view, radians. */
  fovY = (45 * Math.PI) / 180;
  /**
   * Radius (metres) of the sphere that holds the framed model; near and far planes are set from it and
   * the distance so the whole model stays inside the depth range at any zoom.
   */
  sceneRadius = 1;
  /** The distance `frame()` chose, metres; URL and UI distances are multiples of it. */
  framedDistance = 1;
  /**
   * Horizontal shift of the picture in normalised device coordinates (−1…1 spans the viewport; −0.2 moves the
   * target a tenth of the width left): an off-axis projection that centres the model in the part of the
   * viewport a panel leaves free, without turning the camera. Default 0.
   */
  viewOffsetX = 0;
  /**
   * Radians the model has turned about the vertical axis through the target (a turntable, `auto-rotate`):
   * drawn as the eye turning the other way, while {@link yaw} stays the orbit asked for. Default 0.
   */
  turntable = 0;
  /** Radians: the yaw {@link orbit} keeps within (default unbounded). */
  minYaw = -Infinity;
  maxYaw = Infinity;
  /** Radians: the pitch {@link orbit} keeps within, inside (−π/2, π/2). */
  minPitch = -MAX_PITCH;
  maxPitch = MAX_PITCH;
  /** Metres: the distance {@link zoom} keeps within; {@link frame} sets [0.01, 100] × the framed distance. */
  minDistance = 0.01;
  maxDistance = 100;

  /** Display-space-to-view matrix (column-major mat4). */
  readonly view = new Float32Array(16);
  /** View-to-clip matrix (column-major mat4, OpenGL depth range). */
  readonly projection = new Float32Array(16);
  /** Eye position, metres. */
  readonly eye = new Float32Array(3);

  private readonly up = new Float32Array([0, 1, 0]);
  private readonly right = new Float32Array(3);
  private readonly camUp = new Float32Array(3);

  /**
   * Aims at the centre of `bounds` from a distance at which its bounding sphere fills the view
   * (with a small margin), keeping yaw and pitch.
   * @param bounds box in display space, metres
   * @param aspect width / height of the viewport, used so narrow viewports still fit the model
   */
  frame(bounds: Bounds, aspect = 1): void {
    const { min, max } = bounds;
    let radius = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    if (!(radius > 0) || !Number.isFinite(radius)) radius = 1;
    this.target[0] = 0.5 * (min[0] + max[0]);
    this.target[1] = 0.5 * (min[1] + max[1]);
    this.target[2] = 0.5 * (min[2] + max[2]);
    if (!Number.isFinite(this.target[0] + this.target[1] + this.target[2])) this.target.fill(0);
    const halfFov = Math.min(this.fovY, 2 * Math.atan(Math.tan(this.fovY / 2) * Math.max(aspect, 1e-3))) / 2;
    this.sceneRadius = radius;
    this.framedDistance = (radius / Math.sin(halfFov)) * 1.05;
    this.distance = this.framedDistance;
    this.minDistance = this.framedDistance * 0.01;
    this.maxDistance = this.framedDistance * 100;
  }

  /**
   * Turns the camera by the given angles (radians), keeping yaw in [{@link minYaw}, {@link maxYaw}] and pitch in
   * [{@link minPitch}, {@link maxPitch}] (short of the poles).
   */
  orbit(deltaYaw: number, deltaPitch: number): void {
    this.yaw = Math.max(this.minYaw, Math.min(this.maxYaw, this.yaw + deltaYaw));
    this.pitch = Math.max(Math.max(-MAX_PITCH, this.minPitch), Math.min(Math.min(MAX_PITCH, this.maxPitch), this.pitch + deltaPitch));
  }

  /** Multiplies the distance by `factor` (> 1 moves away), kept within [{@link minDistance}, {@link maxDistance}]. */
  zoom(factor: number): void {
    const d = this.distance * factor;
    this.distance = Math.max(this.minDistance, Math.min(this.maxDistance, d));
  }

  /**
   * Moves the target in the view plane by fractions of the visible height at the target: (1, 0) pans by
   * one view height to the right. Uses the vectors of the last `update()`.
   */
  pan(dx: number, dy: number): void {
    const h = 2 * this.distance * Math.tan(this.fovY / 2);
    vec3.scaleAndAdd(this.target, this.target, this.right, -dx * h);
    vec3.scaleAndAdd(this.target, this.target, this.camUp, dy * h);
  }

  /** Recomputes `eye`, `view` and `projection` for a viewport of the given width / height. */
  update(aspect: number): void {
    this.pitch = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, this.pitch));
    const cp = Math.cos(this.pitch);
    const yaw = this.yaw - this.turntable;
    this.eye[0] = this.target[0] + this.distance * cp * Math.sin(yaw);
    this.eye[1] = this.target[1] + this.distance * Math.sin(this.pitch);
    this.eye[2] = this.target[2] + this.distance * cp * Math.cos(yaw);
    mat4.lookAt(this.view, this.eye, this.target, this.up);
    // Camera basis for panning: rows of the view rotation.
    this.right[0] = this.view[0]; this.right[1] = this.view[4]; this.right[2] = this.view[8];
    this.camUp[0] = this.view[1]; this.camUp[1] = this.view[5]; this.camUp[2] = this.view[9];
    // Depth range: the model's sphere around the target (which panning may move off-centre).
    const r = this.sceneRadius;
    const far = this.distance + 4 * r;
    const near = Math.max(this.distance - 2 * r, far / 1000, 1e-4);
    mat4.perspective(this.projection, this.fovY, aspect > 0 ? aspect : 1, near, far);
    // x_ndc += offset: clip x gains offset · w, and w = −z_view.
    this.projection[8] = -this.viewOffsetX;
  }
}
