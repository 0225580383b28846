/**
 * Run by skinning-kernel-allocation.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes one
 * `SkinningKernel.skin` allocates per call on the built-in octopus's first 512 vertices, WebAssembly SIMD (positions + normals +
 * tangents, then positions only, then DQS) and portable, the pose moving every call.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { SkinningKernel } from '../../../src/skinning/skinning-kernel.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('skinning-kernel-allocation-probe: run node with --expose-gc');

const asset = createOctopusAsset();
const instance = asset.meshInstances.find((m) => m.skin >= 0)!;
// The first 512 vertices: what allocates per call shows the same on fewer, and the probe stays quick.
const primitive = { ...asset.meshes[instance.mesh].primitives[0], vertexCount: 512 };
const tangents = new Float32Array(4 * primitive.vertexCount);
for (let v = 0; v < primitive.vertexCount; v++) tangents.set([1, 0, 0, 1], 4 * v);
const withTangents = { ...primitive, tangents };
const pose = new PoseKernel(asset.skeleton, asset.skins);
copyLocalPose(pose.pose, asset.restPose);
const palette = pose.skinMatrices[instance.skin];
const context = new SkinningContext(asset.skins[instance.skin]);
const simd = new SkinningKernel(withTangents, context), portable = new SkinningKernel(withTangents, context, { backend: 'js' });
if (simd.backend !== 'wasm-simd') throw new Error('skinning-kernel-allocation-probe: no WebAssembly SIMD in this node');
const asStored: SkinningMethod = { skinning: 'lbs', weights: 'as-stored' };
const dqs: SkinningMethod = { skinning: 'dqs', weights: 'normalize' };
let k = 0;
let kept: Float32Array | null = null;
const move = (): void => {
  pose.pose.rotations[4] = 0.1 * Math.sin(++k * 0.01);
  pose.update();
};
const calls = {
  simdAll: () => { move(); simd.skin(palette); },
  simdPositions: () => { move(); simd.skin(palette, asStored, false, false); },
  simdDqs: () => { move(); simd.skin(palette, dqs); },
  portableAll: () => { move(); portable.skin(palette); },
  // The control: the same call plus one small array per call, which the measurement must see.
  control: () => { move(); simd.skin(palette); kept = new Float32Array(4); },
};

const result: Record<string, { allocated: number; gcDuring: number }> = {};
for (const [name, call] of Object.entries(calls)) {
  // The least of three rounds: code still running unoptimised on a loaded machine boxes numbers for a while; a
  // real allocation shows in every round.
  let best = { allocated: Infinity, gcDuring: 0 };
  for (let round = 0; round < (name === 'control' ? 1 : 3) && best.allocated >= 1; round++) {
    const { allocated, gcDuring } = await allocationPerCall(call, 10_000, gc);
    if (allocated < best.allocated) best = { allocated, gcDuring };
  }
  result[name] = best;
}
if (kept === null) throw new Error('unreachable');
console.log(JSON.stringify(result));
