/**
 * `<model-viewer>`'s `Vector3D`: a point or direction, x, y, z in metres (model space), printing as
 * `"Xm Ym Zm"` — the syntax of a hotspot's `data-position` — so an answer can be written back as an attribute.
 */
export interface Vector3D {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  toString(): string;
}

/** `<model-viewer>`'s `Vector2D`: a texture coordinate, printing as `"u v"`. */
export interface Vector2D {
  readonly u: number;
  readonly v: number;
  toString(): string;
}

/** A {@link Vector3D} of x, y, z (metres). */
export function vector3D(x: number, y: number, z: number): Vector3D {
  return { x, y, z, toString: () => `${x}m ${y}m ${z}m` };
}

/** A {@link Vector2D} of u, v. */
export function vector2D(u: number, v: number): Vector2D {
  return { u, v, toString: () => `${u} ${v}` };
}
