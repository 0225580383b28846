/**
 * Camera matrices, column-major, in display space (model space after a model's display matrix, see
 * docs/explanation/skinning-formulas.md "Spaces and poses"): the space the camera and the lights are in.
 */
export interface CameraMatrices {
  /** `Float32Array(16)`: display space → view. */
  view: Float32Array;
  /** `Float32Array(16)`: view → clip. */
  projection: Float32Array;
  /** `Float32Array(3)`: camera position in display space (specular highlights). */
  eye: Float32Array;
}

/**
 * The camera as a pass hands it to the shader, with the model origin O folded in: with s = mat3(display)·O
 * (display space), `viewProjection = projection · view · T(s)` (`u_viewProjection`) and `eye = eye − s`
 * (`u_eye`), computed in f64 before rounding to float32 once, so the shader's positions stay the size of the
 * model, not of its distance from the origin (docs/explanation/skinning-formulas.md "Spaces and poses").
 * Rewritten in place by {@link fold}; allocates nothing after construction.
 */
export class FoldedCamera {
  /** `Float32Array(16)`, column-major: `projection · view · T(s)`. */
  readonly viewProjection = new Float32Array(16);
  /** `Float32Array(3)`: the camera position relative to the model's origin in display space (`eye − s`). */
  readonly eye = new Float32Array(3);
  /**
   * `projection[1][1]` (column-major element 5) of the last camera folded: 1 / tan(vertical half field of view)
   * for a perspective camera; the screen-space outline's scale (`u_outlineProjectionY`, shaders/skinned.vert).
   */
  projectionY = 1;
  /** Scratch: `projection · view` in f64, before the model's origin is folded in. */
  private readonly viewProjection64 = new Float64Array(16);

  /**
   * Folds `origin` (placed by `display`) into `camera`.
   * @param display `Float32Array(16)`, column-major: model space → display space
   * @param origin `Float64Array(3)` model origin (`PoseBuffers.origin`), or undefined for (0, 0, 0)
   */
  fold(camera: CameraMatrices, display: Float32Array, origin: Float64Array | undefined): void {
    const P = camera.projection, V = camera.view, vp = this.viewProjection64;
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) {
        vp[4 * c + r] = P[r] * V[4 * c] + P[4 + r] * V[4 * c + 1] + P[8 + r] * V[4 * c + 2] + P[12 + r] * V[4 * c + 3];
      }
    }
    let sx = 0, sy = 0, sz = 0;
    if (origin) {
      const ox = origin[0], oy = origin[1], oz = origin[2];
      sx = display[0] * ox + display[4] * oy + display[8] * oz;
      sy = display[1] * ox + display[5] * oy + display[9] * oz;
      sz = display[2] * ox + display[6] * oy + display[10] * oz;
    }
    for (let r = 0; r < 4; r++) {
      this.viewProjection[r] = vp[r];
      this.viewProjection[4 + r] = vp[4 + r];
      this.viewProjection[8 + r] = vp[8 + r];
      this.viewProjection[12 + r] = vp[r] * sx + vp[4 + r] * sy + vp[8 + r] * sz + vp[12 + r];
    }
    this.projectionY = P[5];
    const eye = camera.eye;
    this.eye[0] = eye[0] - sx;
    this.eye[1] = eye[1] - sy;
    this.eye[2] = eye[2] - sz;
  }
}
