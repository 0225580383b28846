import { describe, expect, it } from 'vitest';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { ClipLayers } from '../../../src/view/clip-layers.ts';
import { addClipsToModel, uniqueClipNames } from '../../../src/view/added-clips.ts';
import type { LoadedModel } from '../../../src/view/loaded-model.ts';
import { Playback, startClip } from '../../../src/view/playback.ts';
import type { ClipLibrary } from '../../../src/loaders/load-clips.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';

describe('uniqueClipNames', () => {
  it('keeps free names, suffixes taken ones with the file, then a number', () => {
    expect(uniqueClipNames(['Run', 'Walk', 'Walk', ''], ['Walk', 'clip'], 'walk.glb'))
      .toEqual(['Run', 'Walk (walk.glb)', 'Walk (walk.glb) 2', 'clip (walk.glb)']);
  });
});

/** The octopus shown as a ModelView holds it, playing clip 1 at 0.4 s with clip 2 layered at 0.5. */
function shownOctopus(): { model: LoadedModel; playback: Playback } {
  const asset = createOctopusAsset();
  const animated = new AnimatedModel(asset);
  const playback = new Playback();
  playback.bind(animated, startClip(animated, 1, playback.startOptions(0, 0.4)));
  const layers = new ClipLayers(animated);
  layers.setWeight(2, 0.5, 1);
  const gpu = null;
  return { model: { asset, animated, gpu, displayMatrix: new Float32Array(16), bounds: { min: [0, 0, 0], max: [1, 1, 1] } as never, palettePath: 'uniform', layers }, playback };
}

describe('addClipsToModel', () => {
  it('appends the retargeted clips under unique names, compiled, and carries playback and layers over', () => {
    const { model, playback } = shownOctopus();
    const own = model.asset.clips.map((c) => c.name);
    const library: ClipLibrary = { ...model.asset, name: 'more.glb' };
    const { model: grown, added } = addClipsToModel(model, library, playback);
    expect(added.names).toEqual(own.map((name) => `${name} (more.glb)`));
    expect(added.firstIndex).toBe(own.length);
    expect(added.match.unmatched).toEqual([]);
    expect(grown.asset.clips.map((c) => c.name)).toEqual([...own, ...added.names]);
    expect(grown.animated.clips).toHaveLength(2 * own.length);
    // The GPU side and the rest of the asset are the model's; a context restore uploads the grown asset.
    expect(grown.asset.meshes).toBe(model.asset.meshes);
    expect(grown.gpu).toBe(model.gpu);
    expect(playback.clipIndex).toBe(1);
    expect(playback.time).toBeCloseTo(0.4, 6);
    expect(grown.layers.weights()).toEqual({ 2: 0.5 });
    // The added clips play on the new animator.
    playback.select(added.firstIndex, 0, 0.2);
    expect(playback.clipIndex).toBe(own.length);
    expect(playback.duration).toBe(grown.animated.clips[own.length].duration);
  });

  it('a file matching no joint throws RETARGET_NO_MATCH and leaves the model and playback alone', () => {
    const { model, playback } = shownOctopus();
    const skeleton = { ...model.asset.skeleton, names: model.asset.skeleton.names.map((_, i) => `other_${i}`) };
    const library: ClipLibrary = { ...model.asset, skeleton, name: 'other.glb' };
    let error: unknown = null;
    try {
      addClipsToModel(model, library, playback);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LoadError);
    expect((error as LoadError).code).toBe('RETARGET_NO_MATCH');
    expect(playback.clipIndex).toBe(1);
    expect(playback.time).toBeCloseTo(0.4, 6);
    expect(model.animated.clips).toHaveLength(model.asset.clips.length);
  });
});
