import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { JointMatch, RetargetOptions } from '../animation/retarget-clip.ts';
import type { ClipLibrary } from '../loaders/load-clips.ts';
import { retargetClipLibrary } from '../loaders/clip-library.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { ClipLayers } from './clip-layers.ts';
import type { LoadedModel } from './loaded-model.ts';
import { startClip, type Playback } from './playback.ts';

/** What {@link ModelView.addClips} added to the shown model. */
export interface AddedClips {
  /** The clips file's name (`ClipLibrary.name`). */
  readonly file: string;
  /** The added clips' names, as the model's clip list now has them (made unique: `Walk (walk.glb)`). */
  readonly names: readonly string[];
  /** Index in the model's clip list of the first added clip (the others follow it). */
  readonly firstIndex: number;
  /** How the file's joints matched the model's (`retargetClipLibrary`). */
  readonly match: JointMatch;
  /** The clips file's warnings, then retargeting's. */
  readonly warnings: readonly string[];
}

/**
 * `names` made unique against `taken` and each other: a name already there becomes `Name (file)`, then
 * `Name (file) 2`, … (an empty name counts as `clip`).
 */
export function uniqueClipNames(names: readonly string[], taken: readonly string[], file: string): string[] {
  const used = new Set(taken);
  return names.map((name) => {
    let unique = name || 'clip';
    if (used.has(unique)) unique = `${name || 'clip'} (${file})`;
    for (let n = 2; used.has(unique); n++) unique = `${name || 'clip'} (${file}) ${n}`;
    used.add(unique);
    return unique;
  });
}

/**
 * The shown model with `library`'s clips added after its own: retargeted onto its skeleton
 * (`retargetClipLibrary`), renamed where they collide ({@link uniqueClipNames}), and compiled with every clip of
 * the grown asset by a new `AnimatedModel` — its GPU side, bounds and display matrix are `model`'s, since the
 * asset differs only in its clips (the GPU side restores itself after a context loss). The clip
 * `playback` plays goes on at its time on the new animator (a cut), and the layered clips keep their weights and
 * mask; `playback` is bound to the new model only when everything else has succeeded.
 * @throws LoadError `RETARGET_NO_MATCH` (no joint in common), or Error from compiling a clip; `model` and
 *   `playback` are untouched then
 */
export function addClipsToModel(model: LoadedModel, library: ClipLibrary, playback: Playback, options?: RetargetOptions): { model: LoadedModel; added: AddedClips } {
  const asset = model.asset;
  const retargeted = retargetClipLibrary(library, asset, options);
  const names = uniqueClipNames(retargeted.clips.map((clip) => clip.name), asset.clips.map((clip) => clip.name), library.name);
  const clips: AnimationClip[] = [...asset.clips, ...retargeted.clips.map((clip, i) => ({ ...clip, name: names[i] }))];
  const grown: ModelAsset = { ...asset, clips };
  const animated = new AnimatedModel(grown);
  // What the page set on the model it sees stays: where it stands, its IK and other pose jobs, its avatar's expressions and look-at.
  animated.world.set(model.animated.world);
  animated.poseJobs.push(...model.animated.poseJobs);
  if (animated.avatar && model.animated.avatar) animated.avatar.copyFrom(model.animated.avatar);
  const layers = new ClipLayers(animated);
  for (const [clip, weight] of Object.entries(model.layers.weights())) layers.setWeight(Number(clip), weight, playback.speed);
  layers.setMask(model.layers.maskJoint);
  const player = startClip(animated, playback.clipIndex, playback.startOptions(0, playback.time));
  animated.evaluate(animated.animator);
  playback.bind(animated, player);
  const added: AddedClips = {
    file: library.name, names, firstIndex: asset.clips.length, match: retargeted.match,
    warnings: [...library.warnings, ...retargeted.warnings],
  };
  return { model: { ...model, asset: grown, animated, layers }, added };
}
