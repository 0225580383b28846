/**
 * Run by avatar-allocation.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes an
 * avatar model's evaluate (clip expression tracks, bone look-at at a moving target, auto-blink, overrides, morph and
 * material binds) and the driven material's uniforms allocate per call, on the morph tube made an avatar.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { createDrivenMaterialUniforms, writeDrivenMaterial } from '../../../src/gpu/shading/driven-material.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { avatarAsset, expression, lookAtAsset } from './avatar-fixtures.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('avatar-allocation-probe: run node with --expose-gc');
const calls = 20_000;

const tube = await parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 3 }).glb());
const o = tube.meshInstances[0].morphWeightOffset!;
const joint = (node: number): number => Array.from(tube.skeleton.sourceIndices).indexOf(node);
const avatar = avatarAsset([
  expression('happy', { overrideBlink: 'blend', morphTargetBinds: [{ morphWeight: o + 1, weight: 0.5 }], materialColorBinds: [{ material: 0, type: 'color', targetValue: [1, 0, 0, 1] }] }),
  expression('blink', { morphTargetBinds: [{ morphWeight: o, weight: 1 }], textureTransformBinds: [{ material: 0, scale: [2, 2], offset: [0.1, 0] }] }),
  expression('aa', { isBinary: true, morphTargetBinds: [{ morphWeight: o + 2, weight: 1 }] }),
], { head: joint(1), leftEye: joint(2) }, lookAtAsset('bone'));
const clips = tube.clips.map((clip, i) => i === 0 ? { ...clip, expressionTracks: [{ expression: 'happy', interpolation: 'LINEAR' as const, times: Float32Array.of(0, 1, 2), values: Float32Array.of(0, 1, 0.2) }] } : clip);
const asset = { ...tube, clips, avatar };
const model = new AnimatedModel(asset);
const controller = model.avatar!;
controller.autoBlink = true;
controller.setExpression('aa', 0.7);
const sample = model.clipSample(0);
let k = 0;
const evaluateCall = (): void => {
  k++;
  controller.clock[0] = k * 0.016;
  controller.lookAt!.setTarget(Math.sin(k * 0.01), 1 + 0.5 * Math.cos(k * 0.013), 2);
  model.evaluate(sample.at((k * 0.016) % 2));
};
const uniforms = createDrivenMaterialUniforms();
const material = asset.materials[0];
const materialCall = (): void => {
  writeDrivenMaterial(uniforms, material, controller.materialValues, 0);
};

const result: Record<string, unknown> = {};
result.evaluate = await allocationPerCall(evaluateCall, calls, gc);
result.drivenMaterial = await allocationPerCall(materialCall, calls, gc);
console.log(JSON.stringify(result));
