import { mat4 } from 'gl-matrix';
import type { ClipPlayer } from '../animation/clip-player.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { GpuModel } from '../gpu/skinning/gpu-model.ts';
import type { PalettePath } from '../gpu/skinning/palette-path.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { computeAnimatedBounds, computeModelBounds } from '../scene/model-bounds.ts';
import type { Bounds } from '../scene/orbit-camera.ts';
import type { ClipLayers } from './clip-layers.ts';
import { resolveStartClip, startClip, type StartClipOptions } from './playback.ts';

/** A model a {@link ModelView} shows: CPU state, GPU side (null while the context is lost), display orientation. */
export interface LoadedModel {
  readonly asset: ModelAsset;
  readonly animated: AnimatedModel;
  gpu: GpuModel | null;
  /**
   * `Float32Array(16)`, column-major: model space → display space — the view's placement (`orientation`,
   * `scale`) times the up-axis turn (identity for Y-up, Z-up → Y-up for Z-up data). Rewritten in place by
   * {@link placeModel}.
   */
  readonly displayMatrix: Float32Array;
  /** What the camera frames, in display space (a new object each time it is measured again: {@link placeModel}). */
  bounds: Bounds;
  /** The palette path its draws take. */
  palettePath: PalettePath;
  /** Clips layered over the selected one. */
  readonly layers: ClipLayers;
}

/** A model's CPU side, posed at its start ({@link prepareModel}). */
export interface PreparedModel {
  readonly animated: AnimatedModel;
  /** Its start clip's player (null: rest pose), for `Playback.bind`. */
  readonly player: ClipPlayer | null;
  /** The start clip's index (−1: rest pose). */
  readonly clipIndex: number;
  /** Said when the requested clip was not found (the first one then plays), else null. */
  readonly clipWarning: string | null;
  readonly displayMatrix: Float32Array;
  readonly bounds: Bounds;
}

/**
 * Animates `asset` and starts clip `clip` (see `resolveStartClip`) on the model's own animator — a cut with
 * `start`, so a load that fails later leaves the model shown alone — then evaluates its pose, turns Z-up data
 * upright, places it by `placement` and measures the bounds to frame: of the pose shown, or with
 * `frameAnimation` of the rest pose and every clip (`computeAnimatedBounds`).
 * @param placement `Float32Array(16)`, column-major, applied after the up-axis turn (see {@link displayMatrixOf});
 *   absent: identity
 * @throws RangeError / Error from animating the asset
 */
export function prepareModel(
  asset: ModelAsset, clip: string | null | undefined, start: StartClipOptions, frameAnimation: boolean, placement?: Float32Array,
): PreparedModel {
  const animated = new AnimatedModel(asset);
  const { clipIndex, warning: clipWarning } = resolveStartClip(asset, clip);
  const player = startClip(animated, clipIndex, start);
  animated.evaluate(animated.animator);
  const displayMatrix = displayMatrixOf(asset, placement, new Float32Array(16));
  animated.world.set(displayMatrix);
  const bounds = measureBounds(asset, animated, displayMatrix, frameAnimation);
  return { animated, player, clipIndex, clipWarning, displayMatrix, bounds };
}

/**
 * `out` = `placement` · U, U turning `asset`'s up axis to +Y (identity for Y-up, −90° about X for Z-up): the
 * placement (model-viewer's `orientation` and `scale`) turns the upright model about its own origin.
 * @returns out, `Float32Array(16)` column-major
 */
export function displayMatrixOf(asset: ModelAsset, placement: Float32Array | undefined, out: Float32Array): Float32Array {
  const m = out as unknown as mat4;
  if (placement) mat4.copy(m, placement as unknown as mat4);
  else mat4.identity(m);
  if (asset.upAxis === 'z') mat4.rotateX(m, m, -Math.PI / 2);
  return out;
}

/**
 * Places the shown `model` by `placement` (see {@link displayMatrixOf}): its display matrix and `world` are
 * rewritten in place, and its bounds measured again at the pose shown (with `frameAnimation`, over every clip).
 */
export function placeModel(model: LoadedModel, placement: Float32Array, frameAnimation: boolean): void {
  displayMatrixOf(model.asset, placement, model.displayMatrix);
  model.animated.world.set(model.displayMatrix);
  model.bounds = measureBounds(model.asset, model.animated, model.displayMatrix, frameAnimation);
}

/** The bounds to frame (display space), leaving `animated` at its animator's pose. */
function measureBounds(asset: ModelAsset, animated: AnimatedModel, displayMatrix: Float32Array, frameAnimation: boolean): Bounds {
  if (!frameAnimation) return computeModelBounds(asset, animated, displayMatrix);
  const bounds = computeAnimatedBounds(asset, animated, displayMatrix);
  animated.evaluate(animated.animator);
  return bounds;
}
