/**
 * `sinew eval`'s evaluation held in memory: the implementation `sinew eval` had before it streamed
 * (src/cli/evaluate-model.ts `writeEvaluation` now), kept as the reference the streamed text is compared with,
 * and as the plain way for tests to read a model's evaluated vertices as numbers.
 */
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { clampToClipKeys, writeEvaluation, type EvaluatedJoint, type EvaluatedPrimitive, type EvaluateOptions, type Evaluation } from '../../../src/cli/evaluate-model.ts';

/**
 * The {@link Evaluation} of `asset` at `timeSeconds` of clip `clipIndex` (−1: rest), every position in one
 * `number[]` per primitive: the whole primitive skinned at once (`skinVertices`) or moved by its node's
 * matrix, the origin O added back in f64.
 * @throws Error `reference: non-finite …` where `sinew eval` fails with `NON_FINITE_RESULT`
 */
export function evaluateModel(asset: ModelAsset, clipIndex: number, timeSeconds: number, method: SkinningMethod = DEFAULT_SKINNING_METHOD, options: EvaluateOptions = {}): Evaluation {
  const animated = new AnimatedModel(asset);
  const clip = clipIndex >= 0 ? asset.clips[clipIndex] : null;
  const time = clip ? clampToClipKeys(clip, timeSeconds) : 0;
  animated.evaluate(animated.clipSample(clipIndex).at(time));
  const origin = animated.origin;
  const joints: EvaluatedJoint[] = [];
  const { skeleton, skins } = asset;
  const inSkin = new Set(skins.flatMap((skin) => [...skin.joints]));
  for (let j = 0; j < skeleton.jointCount; j++) {
    if (!inSkin.has(j)) continue;
    const matrix = new Float64Array(16);
    animated.jointMatrix(j, matrix);
    if (!matrix.every((x) => Number.isFinite(Math.fround(x)))) throw new Error(`reference: non-finite joint ${j}`);
    joints.push({ node: skeleton.sourceIndices[j], name: skeleton.names[j] ?? '', matrix: Array.from(matrix) });
  }
  const primitives: EvaluatedPrimitive[] = [];
  for (const instance of asset.meshInstances) {
    asset.meshes[instance.mesh].primitives.forEach((sourcePrimitive, primitiveIndex) => {
      const morphOffset = instance.morphWeightOffset ?? -1;
      const primitive = sourcePrimitive.morphTargets && morphOffset >= 0
        ? new MorphedPrimitive(sourcePrimitive).apply(animated.morphWeights, morphOffset)
        : sourcePrimitive;
      const out = new Float32Array(3 * primitive.vertexCount);
      const skinned = instance.skin >= 0 && primitive.joints !== null;
      if (skinned) {
        skinVertices(out, null, primitive, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin], method);
      } else {
        const m = animated.modelMatrices.subarray(16 * instance.node, 16 * instance.node + 16);
        const p = primitive.positions;
        for (let i = 0; i < out.length; i += 3) {
          out[i] = m[0] * p[i] + m[4] * p[i + 1] + m[8] * p[i + 2] + m[12];
          out[i + 1] = m[1] * p[i] + m[5] * p[i + 1] + m[9] * p[i + 2] + m[13];
          out[i + 2] = m[2] * p[i] + m[6] * p[i + 1] + m[10] * p[i + 2] + m[14];
        }
      }
      const atOrigin = origin[0] === 0 && origin[1] === 0 && origin[2] === 0;
      const positions = atOrigin ? Array.from(out) : Array.from(out, (x, i) => x + origin[i % 3]);
      if (!positions.every((x) => Number.isFinite(Math.fround(x)))) throw new Error(`reference: non-finite positions in mesh ${instance.mesh}`);
      primitives.push({ node: instance.sourceNode, mesh: instance.mesh, primitive: primitive.sourceIndex ?? primitiveIndex, skinned, vertexCount: primitive.vertexCount, positions });
    });
  }
  const head = { clip: clip ? clip.name : null, time, duration: clip ? clip.duration : null };
  return options.joints ? { ...head, joints, primitives } : { ...head, primitives };
}

/** The text `sinew eval` writes for the same arguments (`writeEvaluation` into a string). */
export async function streamedEvaluation(asset: ModelAsset, clipIndex: number, timeSeconds: number, method: SkinningMethod = DEFAULT_SKINNING_METHOD, options: EvaluateOptions = {}): Promise<string> {
  let text = '';
  await writeEvaluation(asset, clipIndex, timeSeconds, method, options, async (piece) => {
    text += piece;
    return true;
  });
  return text;
}
