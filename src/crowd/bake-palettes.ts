import { packPaletteRows } from '../gl/palette-rows.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import { accumulateSkinBounds, emptyBox, type JointBounds } from '../skinning/joint-bounds.ts';
import { paddedTexelFloats, type BakedPalettes } from '../skinning/instance-blocks.ts';

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
  /** `Float64Array(6·frameCount)`: per frame, the box of the skinned vertices (relative to the model origin), by {@link accumulateSkinBounds}. */
  readonly frameBounds: Float64Array;
}

/**
 * Frames of clip `clip` at `rate` frames per second: `max(2, ⌈duration·rate⌉ + 1)` evenly spaced frames from 0
 * to the duration inclusive (so a looped clip's first and last frames are its own ends), 1 when the duration is 0.
 */
export function bakedFrameCount(duration: number, rate: number): number {
  return duration > 0 ? Math.max(2, Math.ceil(duration * rate) + 1) : 1;
}

/**
 * Bakes every clip of `model` (and the rest pose, as one more 1-frame clip) into palette frames: frame k of a
 * clip of F frames is the pose at `duration·k/(F − 1)` (`model.evaluate(model.clipSample(c).at(t))`), every
 * skin's palette packed as rows (`packPaletteRows`), skins one after the other. Leaves `model` at the rest
 * pose. Allocates the result (`16·Σ 3·joints` bytes per frame): load time only.
 * @param rate frames per second, > 0
 * @param jointBounds per skin, its {@link JointBounds} (for the per-frame boxes)
 * @throws RangeError for a rate that is not a positive finite number
 */
export function bakeClips(model: AnimatedModel, rate: number, jointBounds: readonly JointBounds[]): BakedClips {
  if (!(rate > 0 && Number.isFinite(rate))) throw new RangeError(`bakeClips: the rate must be a positive number of frames per second, not ${rate}`);
  const skins = model.asset.skins;
  const skinOffsets = new Int32Array(skins.length);
  let frameTexels = 0;
  skins.forEach((skin, s) => {
    skinOffsets[s] = frameTexels;
    frameTexels += 3 * skin.joints.length;
  });
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
  for (let c = 0; c <= clips; c++) {
    const sample = model.clipSample(c < clips ? c : -1);
    for (let k = 0; k < frameCounts[c]; k++) {
      const f = firstFrame[c] + k;
      model.evaluate(sample.at(frameCounts[c] > 1 ? (durations[c] * k) / (frameCounts[c] - 1) : 0));
      emptyBox(box);
      for (let s = 0; s < skins.length; s++) {
        packPaletteRows(rows, model.skinMatrices[s], skins[s].joints.length, 4 * (f * frameTexels + skinOffsets[s]));
        accumulateSkinBounds(box, jointBounds[s], model.skinMatrices[s], model.origin);
      }
      frameBounds.set(box, 6 * f);
    }
  }
  model.evaluate(model.clipSample(-1));
  return { palettes: { rows, frameTexels, frameCount, skinOffsets }, rate, firstFrame, frameCounts, durations, frameBounds };
}
