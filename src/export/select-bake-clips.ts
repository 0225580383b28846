import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { BakedClip, BakedChannel } from './baked-clip.ts';
import type { NodeTrs } from './write-baked-gltf.ts';

/**
 * The clips to bake: all of `clips` when `names` is absent or empty, else those named, in `clips`' order.
 * @param source what the clips came from, for the message (e.g. `Fox.glb, Walk.vrma`)
 * @throws Error naming `source` and listing the clip names there are, for a name no clip has
 */
export function selectBakeClips(clips: readonly AnimationClip[], names: readonly string[] | undefined, source: string): AnimationClip[] {
  if (!names || names.length === 0) return [...clips];
  const have = clips.map((clip) => clip.name);
  for (const name of names) {
    if (!have.includes(name)) throw new Error(`${source}: no clip ${JSON.stringify(name)} (clips: ${have.map((n) => JSON.stringify(n)).join(', ') || 'none'})`);
  }
  return clips.filter((clip) => names.includes(clip.name));
}

/** A clip to bake and the file it came from (its base name, e.g. `Walk.vrma`). */
export interface SourcedClip {
  readonly clip: AnimationClip;
  readonly file: string;
}

/**
 * Names the baked clips so every clip of the output has its own name (a clip is chosen by name: `sinew eval
 * --clip`, three.js's `AnimationClip.findByName`): a clip keeps its name unless the model has a clip of that name
 * (`taken`: the model's clips as Sinew names them, an unnamed glTF animation being `animation N`) or an earlier
 * baked clip took it; then it is `NAME (FILE)`, then `NAME (FILE) 2`, `3`, … until free.
 * @returns the clips, renamed where needed, in order
 */
export function nameBakedClips(taken: readonly string[], clips: readonly SourcedClip[]): AnimationClip[] {
  const used = new Set(taken);
  return clips.map(({ clip, file }) => {
    let name = clip.name;
    if (used.has(name)) {
      const base = `${clip.name} (${file})`;
      name = base;
      for (let n = 2; used.has(name); n++) name = `${base} ${n}`;
    }
    used.add(name);
    return name === clip.name ? clip : { ...clip, name };
  });
}

/**
 * The rest TRS, in the file's frame, of every node a baked channel animates (for writeBakedGltf's `matrixNodes`:
 * a node the file gives as a `matrix` needs TRS once animated, glTF 2.0 §3.11): the model's rest pose (Sinew
 * decomposes a `matrix` at load), a VRM 0.x root turned back by the half turn the loader gave it
 * (turnVrm0ToFaceZ).
 */
export function animatedNodeRests(asset: ModelAsset, clips: readonly BakedClip[]): Map<number, NodeTrs> {
  const jointOfNode = new Map<number, number>();
  asset.skeleton.sourceIndices.forEach((node, joint) => jointOfNode.set(node, joint));
  const turned = asset.avatar?.specVersion === '0.x';
  const rests = new Map<number, NodeTrs>();
  const channels: BakedChannel[] = clips.flatMap((clip) => [...clip.channels]);
  for (const { node } of channels) {
    const joint = jointOfNode.get(node);
    if (joint === undefined || rests.has(node)) continue;
    const { translations: t, rotations: r, scales: s } = asset.restPose;
    let translation = [t[3 * joint], t[3 * joint + 1], t[3 * joint + 2]];
    let rotation = [r[4 * joint], r[4 * joint + 1], r[4 * joint + 2], r[4 * joint + 3]];
    if (turned && asset.skeleton.parents[joint] < 0) {
      translation = [-translation[0], translation[1], -translation[2]];
      rotation = [rotation[2], rotation[3], -rotation[0], -rotation[1]];
    }
    rests.set(node, { translation, rotation, scale: [s[3 * joint], s[3 * joint + 1], s[3 * joint + 2]] });
  }
  return rests;
}
