import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { blendHitWeights } from '../scene/hit-weights.ts';
import { createRay, createSurfaceHit, PickContext, pickModel, type SurfaceHit } from '../scene/pick-model.ts';
import type { ModelView } from '../view/model-view.ts';
import { cssToBuffer, PixelRays } from '../view/pixel-ray.ts';
import { vector2D, vector3D, type Vector2D, type Vector3D } from './model-viewer-vectors.ts';

/**
 * What `<sinew-viewer>.pick(x, y)` returns: a {@link SurfaceHit} of its own (fresh arrays; `point` and `normal`
 * in the element's world space, the display space: Y up), the dominant joint's name, and the influences at the hit.
 */
export interface ElementSurfaceHit extends SurfaceHit {
  /** The skeleton name of {@link SurfaceHit.joint} (`''` when the file gives none). */
  readonly jointName: string;
  /** The joints weighting the hit and their barycentric-blended weights (summing to 1), heaviest first (`blendHitWeights`). */
  readonly weights: readonly { readonly joint: number; readonly name: string; readonly weight: number }[];
}

/**
 * The element's picking methods, after model-viewer's (`positionAndNormalFromPoint`, `surfaceFromPoint`) plus
 * `pick`: each casts the ray through a point of the element (CSS pixels from its top-left corner, as
 * model-viewer takes them) into the frame last drawn (`PixelRays` with the view's camera and drawing-buffer size,
 * so devicePixelRatio is accounted for) and picks the skinned surface at that frame's pose (`pickModel`, the
 * frame's skinning method). All return null on a miss, before the first frame, and while the context is lost.
 * One `PickContext` per model shown, made at the first pick.
 */
export class ElementPicking {
  private context: PickContext | null = null;
  private readonly rays = new PixelRays();
  private readonly ray = createRay();
  private readonly hit = createSurfaceHit();
  private readonly at = new Float64Array(2);

  constructor(private readonly element: HTMLElement, private readonly view: () => ModelView | null) {}

  /**
   * model-viewer's `positionAndNormalFromPoint`: the hit point and the surface normal there in model space (the
   * file's coordinates: the display matrix undone), and the texture coordinate (TEXCOORD_0 interpolated; null
   * without one), each with model-viewer's `toString()`.
   */
  positionAndNormalFromPoint(pixelX: number, pixelY: number): { position: Vector3D; normal: Vector3D; uv: Vector2D | null } | null {
    const found = this.cast(pixelX, pixelY);
    if (!found) return null;
    const { model, hit } = found, w = model.world;
    const inv = this.context!.inverseWorld, p = hit.point, n = hit.normal;
    const position = vector3D(
      inv[0] * p[0] + inv[4] * p[1] + inv[8] * p[2] + inv[12], inv[1] * p[0] + inv[5] * p[1] + inv[9] * p[2] + inv[13],
      inv[2] * p[0] + inv[6] * p[1] + inv[10] * p[2] + inv[14]);
    // A world normal goes back by worldᵀ (the inverse of world⁻ᵀ), then is normalised.
    const nx = w[0] * n[0] + w[1] * n[1] + w[2] * n[2], ny = w[4] * n[0] + w[5] * n[1] + w[6] * n[2], nz = w[8] * n[0] + w[9] * n[1] + w[10] * n[2];
    const length = Math.hypot(nx, ny, nz) || 1;
    const uvs = primitiveOf(model.asset, hit).uvs;
    let uv: Vector2D | null = null;
    if (uvs) {
      let u = 0, v = 0;
      for (let k = 0; k < 3; k++) { u += hit.barycentric[k] * uvs[2 * hit.vertexIndices[k]]; v += hit.barycentric[k] * uvs[2 * hit.vertexIndices[k] + 1]; }
      uv = vector2D(u, v);
    }
    return { position, normal: vector3D(nx / length, ny / length, nz / length), uv };
  }

  /**
   * model-viewer's `surfaceFromPoint`: `"mesh primitive a b c wa wb wc"` — the file's mesh index, the primitive's
   * index in it, the hit triangle's vertex indices in index-buffer order, and their barycentric weights to 3
   * decimals (the string model-viewer writes for a hotspot's `data-surface`).
   */
  surfaceFromPoint(pixelX: number, pixelY: number): string | null {
    const found = this.cast(pixelX, pixelY);
    if (!found) return null;
    const { hit } = found, b = hit.barycentric, v = hit.vertexIndices;
    return `${hit.mesh} ${hit.primitive} ${v[0]} ${v[1]} ${v[2]} ${b[0].toFixed(3)} ${b[1].toFixed(3)} ${b[2].toFixed(3)}`;
  }

  /** Sinew's own: the whole hit ({@link ElementSurfaceHit}), or null. */
  pick(pixelX: number, pixelY: number): ElementSurfaceHit | null {
    const found = this.cast(pixelX, pixelY);
    if (!found) return null;
    const { model, hit } = found, names = model.asset.skeleton.names;
    const joints = new Int32Array(this.context!.hitJoints.length), weights = new Float64Array(joints.length);
    const n = blendHitWeights(model.asset, hit, joints, weights);
    return {
      ...hit, point: hit.point.slice(), normal: hit.normal.slice(), barycentric: hit.barycentric.slice(), vertexIndices: hit.vertexIndices.slice(),
      jointName: names[hit.joint] ?? '',
      weights: Array.from({ length: n }, (_, i) => ({ joint: joints[i], name: names[joints[i]] ?? '', weight: weights[i] })),
    };
  }

  /** The ray through element point (x, y) into the last frame, picked; null on a miss or without a frame. */
  private cast(pixelX: number, pixelY: number): { model: AnimatedModel; hit: SurfaceHit } | null {
    if (!Number.isFinite(pixelX) || !Number.isFinite(pixelY)) throw new TypeError(`pick: (${pixelX}, ${pixelY}) is not a point`);
    const view = this.view();
    if (!view) return null;
    const box = this.element.getBoundingClientRect(), rect = view.canvas.getBoundingClientRect();
    const model = view.inspect((frame) => {
      cssToBuffer(this.at, pixelX + box.left - rect.left, pixelY + box.top - rect.top, Math.max(rect.width, 1), Math.max(rect.height, 1), frame.width, frame.height);
      this.rays.through(this.ray, frame.camera, frame.width, frame.height, this.at[0], this.at[1]);
      if (this.context?.model !== frame.animated) this.context = new PickContext(frame.animated);
      return pickModel(frame.animated, this.ray, this.hit, this.context, frame.method) ? frame.animated : null;
    });
    return model ? { model, hit: this.hit } : null;
  }
}

function primitiveOf(asset: ModelAsset, hit: SurfaceHit) {
  const primitives = asset.meshes[hit.mesh].primitives;
  return primitives.find((p, k) => (p.sourceIndex ?? k) === hit.primitive) ?? primitives[0];
}
