/**
 * AnimatedModel with its WebAssembly kernels (sampling, blending and matrices in the pose kernel's memory)
 * against the same model on the portable backend, its reference: Fox crossfading Walk → Run under a half-weight
 * Survey layer, frame by frame. The poses differ by nlerp against slerp (src/pose/sampling-kernel.ts: at most
 * θ³/54 for keys θ apart) and float32 rounding.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

const assets = sharedAssets();

/** The largest angle between consecutive rotation keys over the model's clips (radians, as 4-vectors). */
function largestKeyAngle(model: AnimatedModel): number {
  let largest = 0;
  for (const clip of model.asset.clips) {
    for (const ch of clip.channels) {
      if (ch.path !== 'rotation') continue;
      for (let k = 0; 4 * k + 8 <= ch.values.length; k++) {
        let d = 0;
        for (let i = 0; i < 4; i++) d += ch.values[4 * k + i] * ch.values[4 * k + 4 + i];
        largest = Math.max(largest, Math.acos(Math.min(1, Math.abs(d))));
      }
    }
  }
  return largest;
}

describe.skipIf(!assets)('AnimatedModel: WebAssembly kernels against the portable backend', () => {
  it('Fox: a crossfade under a layer, 90 frames, poses within the nlerp bound', async () => {
    const asset = await loadModelFromPath(join(assets!, 'gltf', 'Fox.glb'));
    const simd = new AnimatedModel(asset), portable = new AnimatedModel(asset, { backend: 'js' });
    expect(simd.kernel.arena).not.toBeNull();
    expect(portable.kernel.arena).toBeNull();
    const clip = (name: string) => simd.clips.findIndex((c) => c.name === name);
    for (const model of [simd, portable]) {
      model.animator.play(model.clips[clip('Walk')]);
      model.animator.play(model.clips[clip('Survey')], { layer: model.animator.addLayer({ weight: 0.5 }) });
    }
    const bound = largestKeyAngle(simd) ** 3 / 54 + 1e-5;
    let worst = 0, translation = 0;
    for (let frame = 0; frame < 90; frame++) {
      if (frame === 30) for (const model of [simd, portable]) model.animator.play(model.clips[clip('Run')], { fade: 0.5 });
      for (const model of [simd, portable]) {
        model.animator.update(1 / 60);
        model.evaluate(model.animator);
      }
      const a = simd.pose, b = portable.pose;
      for (let j = 0; 4 * j < a.rotations.length; j++) {
        let d = 0;
        for (let i = 0; i < 4; i++) d += a.rotations[4 * j + i] * b.rotations[4 * j + i];
        worst = Math.max(worst, Math.acos(Math.min(1, Math.abs(d))));
      }
      for (let i = 0; i < a.translations.length; i++) translation = Math.max(translation, Math.abs(a.translations[i] - b.translations[i]) / (1 + Math.abs(b.translations[i])));
    }
    expect(worst).toBeLessThanOrEqual(bound);
    expect(worst).toBeGreaterThan(0); // nlerp is not slerp: the kernels ran
    expect(translation).toBeLessThan(1e-5);
  });
});
