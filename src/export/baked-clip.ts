import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { compileClip } from '../animation/runtime-clip.ts';
import { sampleClip } from '../animation/sample-clip.ts';
import { SamplingContext } from '../animation/sampling-context.ts';
import { cloneLocalPose } from '../skeleton/local-pose.ts';
import { bakeKeyTimes } from './bake-key-times.ts';

/**
 * One animated property of one glTF node, ready to write (glTF 2.0 §3.11 "Animations"): a sampler's keys and the
 * node they drive, in the file's own frame (a VRM 0.x model's roots not turned to face +Z).
 */
export interface BakedChannel {
  /** glTF node index (`Skeleton.sourceIndices` of the clip's joint). */
  readonly node: number;
  readonly path: 'translation' | 'rotation' | 'scale';
  /** LINEAR (what retargeting writes) or STEP / CUBICSPLINE when a clip keeps them. */
  readonly interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** `Float32Array(k)`: key times in seconds, strictly increasing. */
  readonly times: Float32Array;
  /**
   * `Float32Array(k·c)` (CUBICSPLINE: `3·k·c`, in-tangent, value, out-tangent per key), c = 3 (translation in the
   * file's units, scale) or 4 (rotation x, y, z, w, each key on the previous key's hemisphere).
   */
  readonly values: Float32Array;
}

/** A clip ready to write: its name and its channels on the model's nodes. */
export interface BakedClip {
  readonly name: string;
  readonly channels: readonly BakedChannel[];
}

/** Options of {@link bakeClip}. */
export interface BakeClipOptions {
  /**
   * Keys per second: when given, every channel is resampled at bakeKeyTimes' grid (`k / fps` seconds, and the
   * duration), as LINEAR keys of the clip as Sinew samples it.
   * Absent: the clip's own keys (a retargeted clip's keys are the source's key times, retargetClip).
   */
  readonly fps?: number;
}

/**
 * A clip of `asset` (its own, or one retargeted onto it: `retargetClipLibrary`) as channels on the model file's
 * nodes: each channel's joint becomes its glTF node (`Skeleton.sourceIndices`). A VRM 0.x model is turned half a
 * turn at load to face +Z (turnVrm0ToFaceZ); its root channels are turned back by the same half turn
 * (t ↦ (−x, y, −z), q ↦ (0, 1, 0, 0) ⊗ q, a map that is its own inverse up to the quaternion's sign), so the
 * keys fit the file's untouched nodes. Morph-weight channels are not baked: retargeting drops them (retargetClip).
 * Joints the clip does not drive get no channel.
 * @throws RangeError when `options.fps` is not a positive finite number (bakeKeyTimes), or a channel's
 *   interpolation has no glTF form (HERMITE, BEZIER, CATMULLROM) and no `fps` resamples it
 */
export function bakeClip(asset: ModelAsset, clip: AnimationClip, options: BakeClipOptions = {}): BakedClip {
  const fps = options.fps;
  const { skeleton } = asset;
  const turned = asset.avatar?.specVersion === '0.x';
  const source = fps === undefined ? clip : resampleClip(asset, clip, fps);
  const channels: BakedChannel[] = [];
  for (const channel of source.channels) {
    if (channel.path === 'weights') continue;
    const interpolation = channel.interpolation;
    if (interpolation !== 'LINEAR' && interpolation !== 'STEP' && interpolation !== 'CUBICSPLINE') {
      throw new RangeError(`clip "${clip.name}": a ${interpolation} channel has no glTF form; resample it (fps)`);
    }
    let values = channel.values;
    if (turned && skeleton.parents[channel.joint] < 0 && channel.path !== 'scale') {
      values = values.slice();
      halfTurnAboutY(values, channel.path);
    }
    channels.push({ node: skeleton.sourceIndices[channel.joint], path: channel.path, interpolation, times: channel.times, values });
  }
  return { name: clip.name, channels };
}

/**
 * `clip` sampled (sampleClip) at bakeKeyTimes(clip, fps): LINEAR translation and rotation channels
 * for each joint it animates (scale too where it has a scale channel), rotations kept on one hemisphere.
 */
function resampleClip(asset: ModelAsset, clip: AnimationClip, fps: number): AnimationClip {
  const n = asset.skeleton.jointCount;
  const runtime = compileClip(clip, n);
  const times = bakeKeyTimes(clip, fps);
  const animated = new Map<string, { joint: number; path: 'translation' | 'rotation' | 'scale' }>();
  for (const c of clip.channels) if (c.path !== 'weights') animated.set(`${c.joint}/${c.path}`, { joint: c.joint, path: c.path });
  const values = new Map<string, Float32Array>();
  for (const [key, { path }] of animated) values.set(key, new Float32Array((path === 'rotation' ? 4 : 3) * times.length));
  const pose = cloneLocalPose(asset.restPose);
  const context = new SamplingContext();
  times.forEach((time, k) => {
    sampleClip(pose, runtime, time, context);
    for (const [key, { joint, path }] of animated) {
      const out = values.get(key)!;
      if (path === 'rotation') {
        const r = pose.rotations, o = 4 * k, j = 4 * joint;
        const flip = k > 0 && out[o - 4] * r[j] + out[o - 3] * r[j + 1] + out[o - 2] * r[j + 2] + out[o - 1] * r[j + 3] < 0 ? -1 : 1;
        for (let c = 0; c < 4; c++) out[o + c] = flip * r[j + c];
      } else {
        const from = path === 'translation' ? pose.translations : pose.scales;
        for (let c = 0; c < 3; c++) out[3 * k + c] = from[3 * joint + c];
      }
    }
  });
  const channels = [...animated].map(([key, { joint, path }]) => ({ joint, path, interpolation: 'LINEAR' as const, times, values: values.get(key)! }));
  return { name: clip.name, duration: times[times.length - 1], channels };
}

/**
 * A half turn about +Y applied to each key (turnVrm0ToFaceZ's map; CUBICSPLINE tangents turn alike, the map being
 * linear): translations (x, y, z) ↦ (−x, y, −z), rotations (x, y, z, w) ↦ (z, w, −x, −y).
 */
function halfTurnAboutY(values: Float32Array, path: 'translation' | 'rotation'): void {
  if (path === 'translation') {
    for (let i = 0; i + 2 < values.length; i += 3) { values[i] = -values[i]; values[i + 2] = -values[i + 2]; }
    return;
  }
  for (let i = 0; i + 3 < values.length; i += 4) {
    const x = values[i], y = values[i + 1], z = values[i + 2], w = values[i + 3];
    values[i] = z; values[i + 1] = w; values[i + 2] = -x; values[i + 3] = -y;
  }
}
