import type { ModelAsset } from '../../../src/asset/model-asset.ts';

/** Where the precision tests place models: 10 km along x and z (metres). */
export const FAR_OFFSET: readonly [number, number, number] = [10_000, 0, 10_000];

/**
 * `asset` moved by `offset` (model space, the file's units) as if under a parent node translated there
 * (the glTF case of a root node at (10 000, 0, 10 000)): every root joint's rest translation, and the keys of
 * clips translating a root, shifted; inverse binds and vertices unchanged. The stored values are float32,
 * as in a file. Copies what it changes; `asset` is untouched.
 */
export function atOffset(asset: ModelAsset, offset: readonly [number, number, number] = FAR_OFFSET): ModelAsset {
  const parents = asset.skeleton.parents;
  const translations = asset.restPose.translations.slice();
  for (let j = 0; j < asset.skeleton.jointCount; j++) {
    if (parents[j] >= 0) continue;
    for (let k = 0; k < 3; k++) translations[3 * j + k] += offset[k];
  }
  const clips = asset.clips.map((clip) => ({
    ...clip,
    channels: clip.channels.map((channel) => {
      if (channel.path !== 'translation' || parents[channel.joint] >= 0) return channel;
      const values = channel.values.slice();
      // CUBICSPLINE keys are (in-tangent, value, out-tangent): only the values move.
      const cubic = channel.interpolation === 'CUBICSPLINE';
      for (let i = 0; i < values.length; i += 3) {
        if (cubic && Math.floor(i / 3) % 3 !== 1) continue;
        for (let k = 0; k < 3; k++) values[i + k] += offset[k];
      }
      return { ...channel, values };
    }),
  }));
  return { ...asset, name: `${asset.name} at (${offset.join(', ')})`, restPose: { ...asset.restPose, translations }, clips };
}
