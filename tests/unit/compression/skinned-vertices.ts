import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { DEFAULT_SKINNING_METHOD } from '../../../src/skinning/skinning-method.ts';

/**
 * The independent check of `sinew optimize`: Sinew's own loader and CPU skinning (LBS, the portable pose path that
 * slerps as glTF says) on the files as written, not the optimizer's metric. Model-space positions of every skinned
 * primitive, the origin added back in f64.
 */
export class SkinnedModel {
  private readonly animated: AnimatedModel;
  private constructor(readonly asset: ModelAsset) {
    this.animated = new AnimatedModel(asset, { backend: 'js' });
  }

  static async load(path: string): Promise<SkinnedModel> {
    return new SkinnedModel(await loadModelFromPath(path));
  }

  /** All skinned vertices' positions (x y z) of clip `clip` at `time` seconds. */
  positions(clip: number, time: number): Float64Array {
    const { animated, asset } = this;
    animated.evaluate(animated.clipSample(clip).at(time));
    const out: number[] = [];
    for (const instance of asset.meshInstances) {
      if (instance.skin < 0) continue;
      for (const primitive of asset.meshes[instance.mesh].primitives) {
        if (!primitive.joints) continue;
        const p = new Float32Array(3 * primitive.vertexCount);
        skinVertices(p, null, primitive, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin], DEFAULT_SKINNING_METHOD);
        for (let i = 0; i < p.length; i++) out.push(p[i] + animated.origin[i % 3]);
      }
    }
    return Float64Array.from(out);
  }
}

/** The largest distance between the two models' skinned vertices at `samples` evenly spaced times of each clip (0 … duration), and where. */
export function worstSkinnedError(source: SkinnedModel, result: SkinnedModel, samples = 50): { error: number; clip: number; time: number } {
  let worst = { error: 0, clip: -1, time: 0 };
  source.asset.clips.forEach((clip, c) => {
    for (let k = 0; k < samples; k++) {
      const time = (clip.duration * k) / (samples - 1);
      const a = source.positions(c, time), b = result.positions(c, time);
      if (a.length !== b.length) throw new Error('vertex counts differ');
      for (let i = 0; i < a.length; i += 3) {
        const e = Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]);
        if (e > worst.error) worst = { error: e, clip: c, time };
      }
    }
  });
  return worst;
}
