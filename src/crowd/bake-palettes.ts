import type { AnimatedModel } from '../scene/animated-model.ts';
import { emptyBox } from '../skinning/joint-bounds.ts';
import { paddedTexelFloats, type BakedPalettes, type InstancePoseLayout } from '../skinning/instance-blocks.ts';
import { accumulatePoseBounds, packInstancePose, type PoseBoundsData } from './instance-pose.ts';
import type { InPlaceClipSample } from './instance-motion.ts';

/** Clips baked into palette frames, with what a crowd needs to pick frames and bound them. */
export interface BakedClips {
  readonly palettes: BakedPalettes;
  /** Frames per second the clips were baked at. */
  readonly rate: number;
  /** Per clip c (and at index `clips.length`, the rest pose): its first frame. */
  readonly firstFrame: Int32Array;
  /** Per clip (then the rest pose): its frame count (1 for a clip of duration 0 and for the rest pose). */
  readonly frameCounts: Int32Array;
  /** Per clip: its duration in seconds (0 for the rest pose). */
  readonly durations: Float64Array;
  /** `Float64Array(6·frameCount)`: per frame, the box of the skinned and rigid vertices (relative to the model origin), by `accumulatePoseBounds`. */
  readonly frameBounds: Float64Array;
  /**
   * Clips baked in place (root motion taken out, `InPlaceClipSample`): `Float64Array(3·frameCount)`, per frame
   * the motion M(t) = [c_x, c_z, ψ] taken out of it (zeros for the rest pose's frame); null when baked as they are.
   */
  readonly motion: Float64Array | null;
}

/**
 * Frames of clip `clip` at `rate` frames per second: `max(2, ⌈duration·rate⌉ + 1)` evenly spaced frames from 0
 * to the duration inclusive (so a looped clip's first and last frames are its own ends), 1 when the duration is 0.
 */
export function bakedFrameCount(duration: number, rate: number): number {
  return duration > 0 ? Math.max(2, Math.ceil(duration * rate) + 1) : 1;
}

/**
 * The two baked frames around the time `times[k]` (seconds) of clip `c` of `baked` (`clips.length`: the rest
 * pose) and the blend factor between them, `[f₀, f₁, a]` into `out[at…at+3)`: the frame u = t/duration·(F − 1)
 * falls in. (The time is read here, not passed, so that V8 boxes no double per call.)
 */
export function bakedFrames(out: Float64Array, at: number, baked: BakedClips, c: number, times: Float64Array, k: number): void {
  const time = times[k];
  const frames = baked.frameCounts[c];
  const u = frames > 1 && baked.durations[c] > 0 ? (time / baked.durations[c]) * (frames - 1) : 0;
  const i0 = Math.min(Math.floor(u), frames - 1);
  out[at] = baked.firstFrame[c] + i0;
  out[at + 1] = baked.firstFrame[c] + Math.min(i0 + 1, frames - 1);
  out[at + 2] = u - i0;
}

/**
 * Bakes every clip of `model` (and the rest pose, as one more 1-frame clip) into pose frames: frame k of a
 * clip of F frames is the pose at `duration·k/(F − 1)` (`model.evaluate(model.clipSample(c).at(t))`), written
 * in `layout` by `packInstancePose` (every skin's palette, LBS rows or DQS form, then the rigid nodes' matrices).
 * Leaves `model` at the rest pose. Allocates the result (`16·layout.texels` bytes per frame): load time only.
 * @param rate frames per second, > 0
 * @param bounds what the per-frame boxes are made of (`accumulatePoseBounds`)
 * @param inPlace per clip its in-place source (`InstanceMotion.inPlace`): the frames are then the in-place poses
 *   and {@link BakedClips.motion} their motions; null (default): the clips as they are
 * @throws RangeError for a rate that is not a positive finite number
 */
export function bakeClips(
  model: AnimatedModel, rate: number, layout: InstancePoseLayout, bounds: PoseBoundsData,
  inPlace: readonly InPlaceClipSample[] | null = null,
): BakedClips {
  if (!(rate > 0 && Number.isFinite(rate))) throw new RangeError(`bakeClips: the rate must be a positive number of frames per second, not ${rate}`);
  const frameTexels = layout.texels;
  const clips = model.clips.length;
  const firstFrame = new Int32Array(clips + 1), frameCounts = new Int32Array(clips + 1), durations = new Float64Array(clips + 1);
  let frameCount = 0;
  for (let c = 0; c <= clips; c++) {
    durations[c] = c < clips ? model.clips[c].duration : 0;
    frameCounts[c] = bakedFrameCount(durations[c], rate);
    firstFrame[c] = frameCount;
    frameCount += frameCounts[c];
  }
  const rows = new Float32Array(paddedTexelFloats(frameCount * frameTexels));
  const frameBounds = new Float64Array(6 * frameCount);
  const box = new Float64Array(6);
  const motion = inPlace ? new Float64Array(3 * frameCount) : null;
  for (let c = 0; c <= clips; c++) {
    const source = inPlace && c < clips ? inPlace[c] : model.clipSample(c < clips ? c : -1);
    for (let k = 0; k < frameCounts[c]; k++) {
      const f = firstFrame[c] + k;
      model.evaluate(source.at(frameCounts[c] > 1 ? (durations[c] * k) / (frameCounts[c] - 1) : 0));
      if (motion && c < clips) motion.set((source as InPlaceClipSample).motion, 3 * f);
      emptyBox(box);
      packInstancePose(rows, f * frameTexels, model, model.asset, layout);
      accumulatePoseBounds(box, model, model.asset, bounds, model.origin);
      frameBounds.set(box, 6 * f);
    }
  }
  model.evaluate(model.clipSample(-1));
  return { palettes: { rows, frameTexels, frameCount, skinOffsets: layout.skinOffsets, layout }, rate, firstFrame, frameCounts, durations, frameBounds, motion };
}

/** `out` (a box: min, max) grows to hold the box at `boxes[o]` (a baked frame's, `BakedClips.frameBounds`). */
export function unionBox(out: Float64Array, boxes: Float64Array, o: number): void {
  for (let a = 0; a < 3; a++) {
    if (boxes[o + a] < out[a]) out[a] = boxes[o + a];
    if (boxes[o + 3 + a] > out[3 + a]) out[3 + a] = boxes[o + 3 + a];
  }
}

/** What {@link bakedInstancePicks} reads of a crowd, per instance (`Crowd`'s arrays). */
export interface BakedInstances {
  readonly clipIndices: Int16Array;
  readonly times: Float64Array;
  readonly blendClipIndices: Int16Array;
  readonly blendTimes: Float64Array;
  readonly blendWeights: Float32Array;
}

/**
 * Instance k's baked frame picks into `picks` (`Float64Array(6)`: {@link bakedFrames} of its clip, then of its
 * blended clip when its blend weight w > 0; clip −1 reads as `clipCount`, the rest pose) and `box` grown by the
 * boxes of the frames it draws (its clip's unless w ≥ 1, its blended clip's when w > 0). Allocates nothing.
 */
export function bakedInstancePicks(picks: Float64Array, box: Float64Array, baked: BakedClips, clipCount: number, crowd: BakedInstances, k: number): void {
  const clip = crowd.clipIndices[k], w = crowd.blendWeights[k];
  bakedFrames(picks, 0, baked, clip < 0 ? clipCount : clip, crowd.times, k);
  if (w > 0) {
    const other = crowd.blendClipIndices[k];
    bakedFrames(picks, 3, baked, other < 0 ? clipCount : other, crowd.blendTimes, k);
    unionBox(box, baked.frameBounds, 6 * picks[3]);
    unionBox(box, baked.frameBounds, 6 * picks[4]);
  }
  if (!(w >= 1)) {
    unionBox(box, baked.frameBounds, 6 * picks[0]);
    unionBox(box, baked.frameBounds, 6 * picks[1]);
  }
}

/**
 * A baked block's picks after its world rows, at float `b + 12` of `blocks`: f₀, f₁, a, 0 of its clip, then of
 * its blended clip with its weight min(w, 1), w = `weights[k]` (zeros when w ≤ 0), from
 * {@link bakedInstancePicks}' `picks`. (The weight is read here, not passed, so that V8 boxes no double per call.)
 */
export function writeBakedPicks(blocks: Float32Array, b: number, picks: Float64Array, weights: Float32Array, k: number): void {
  const w = weights[k];
  blocks[b + 12] = picks[0]; blocks[b + 13] = picks[1]; blocks[b + 14] = picks[2]; blocks[b + 15] = 0;
  if (w > 0) {
    blocks[b + 16] = picks[3]; blocks[b + 17] = picks[4]; blocks[b + 18] = picks[5]; blocks[b + 19] = Math.min(w, 1);
  } else {
    blocks[b + 16] = blocks[b + 17] = blocks[b + 18] = blocks[b + 19] = 0;
  }
}
