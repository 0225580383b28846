import { mat4 } from 'gl-matrix';
import type { ClipPlayer } from '../animation/clip-player.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { GpuModel } from '../gl/gpu-model.ts';
import type { PalettePath } from '../gl/palette-path.ts';
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
  /** `Float32Array(16)`, column-major: model space → display space (identity for Y-up, Z-up → Y-up for Z-up data). */
  readonly displayMatrix: Float32Array;
  /** What the camera frames, in display space. */
  readonly bounds: Bounds;
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
 * upright and measures the bounds to frame: of the pose shown, or with `frameAnimation` of the rest pose and
 * every clip (`computeAnimatedBounds`).
 * @throws RangeError / Error from animating the asset
 */
export function prepareModel(asset: ModelAsset, clip: string | null | undefined, start: StartClipOptions, frameAnimation: boolean): PreparedModel {
  const animated = new AnimatedModel(asset);
  const { clipIndex, warning: clipWarning } = resolveStartClip(asset, clip);
  const player = startClip(animated, clipIndex, start);
  animated.evaluate(animated.animator);
  const displayMatrix = mat4.create() as Float32Array;
  if (asset.upAxis === 'z') mat4.fromXRotation(displayMatrix, -Math.PI / 2);
  animated.world.set(displayMatrix);
  const bounds = frameAnimation ? computeAnimatedBounds(asset, animated, displayMatrix) : computeModelBounds(asset, animated, displayMatrix);
  animated.evaluate(animated.animator);
  return { animated, player, clipIndex, clipWarning, displayMatrix, bounds };
}
