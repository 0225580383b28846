/**
 * Spring-bone cost for `npm run bench` (bench/run-bench.ts), on the generated VRM 1.0 avatar (`buildAvatarVrm1`:
 * its spring chains and colliders of every shape), at its rest pose, one update of 1/60 s per operation:
 * - `vrm.spring_us_per_avatar`: Sinew's secondary motion (`SecondaryMotion`: the node constraints, then the
 *   springs on the WebAssembly kernel, `SpringKernel`, in a pose kernel's arena as `AnimatedModel` runs it), the
 *   joints' rotations written into the pose: `step(1/60)` + `apply`, µs;
 * - `vrm.spring_us_per_avatar.js`: the same with the portable `SpringBoneJob`;
 * - `vrm.spring_speedup_vs_three_vrm`: three-vrm's `vrm.springBoneManager.update(1/60)` on the same file loaded by
 *   three-vrm in this process, divided by the first; measured in alternating batches (bench/harness.ts `compare`).
 */
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import { loadModel } from '../src/loaders/load-model.ts';
import { PoseKernel } from '../src/pose/pose-kernel.ts';
import { createSpringKernel, springKernelArenaBytes } from '../src/pose/spring-kernel.ts';
import { buildAvatarVrm1 } from '../src/procedural/avatar/avatar-vrm1.ts';
import { SecondaryMotion } from '../src/secondary/secondary-motion.ts';
import { copyLocalPose, createLocalPose } from '../src/skeleton/local-pose.ts';
import { compare } from './harness.ts';

/** The three figures (µs, µs, ratio), the avatar's counts, and table rows for run-bench. */
export async function springCost(rounds = 30): Promise<{ rows: string[][]; figures: Record<string, number> }> {
  const none = async () => null;
  const bytes = await buildAvatarVrm1({ texture: false });
  const asset = await loadModel({ name: 'avatar.vrm', bytes }, none);
  const springBone = asset.secondaryMotion?.springBone;
  if (!springBone) throw new Error('spring-cost: the generated avatar has no spring bones');
  const joints = springBone.springs.reduce((sum, s) => sum + (s.virtualTail ? s.joints.length : s.joints.length - 1), 0);
  const colliders = springBone.colliders.length;
  const skeleton = asset.skeleton, n = skeleton.jointCount;

  // Sinew, kernel: the pose in the pose kernel's memory, the spring kernel in its arena (as AnimatedModel lays out).
  const poseKernel = new PoseKernel(skeleton, [], undefined, { arenaBytes: springKernelArenaBytes(springBone, skeleton, asset.restPose) });
  const pose = poseKernel.pose;
  copyLocalPose(pose, asset.restPose);
  const withKernel = new SecondaryMotion(asset);
  const kernel = createSpringKernel(springBone, skeleton, asset.restPose, { arena: poseKernel.arena });
  if (!kernel) throw new Error('spring-cost: no WebAssembly SIMD here');
  withKernel.springs = kernel;
  const rest = asset.restPose;
  const sinew = (): void => {
    withKernel.step(1 / 60);
    withKernel.apply(pose, skeleton);
  };
  // Sinew, portable job.
  const portable = new SecondaryMotion(asset), jsPose = createLocalPose(n);
  copyLocalPose(jsPose, rest);
  const js = (): void => {
    portable.step(1 / 60);
    portable.apply(jsPose, skeleton);
  };
  // three-vrm on the same bytes.
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes.slice().buffer, '');
  const vrm = gltf.userData.vrm as VRM;
  vrm.scene.updateMatrixWorld(true);
  const manager = vrm.springBoneManager!;
  const threeJoints = manager.joints.size;
  const three = (): void => manager.update(1 / 60);
  for (let k = 0; k < 120; k++) { sinew(); js(); three(); }

  const [k, t, j] = compare([{ name: 'sinew kernel', fn: sinew }, { name: 'three-vrm', fn: three }, { name: 'sinew js', fn: js }], { rounds });
  const us = k.nsPerOp / 1000, threeUs = t.nsPerOp / 1000, jsUs = j.nsPerOp / 1000;
  const figures: Record<string, number> = {
    'vrm.spring_us_per_avatar': round(us),
    'vrm.spring_us_per_avatar.js': round(jsUs),
    'vrm.spring_speedup_vs_three_vrm': round(threeUs / us),
  };
  const label = `VRM springs: generated avatar, ${joints} spring joints (three-vrm ${threeJoints}), ${colliders} colliders, one 1/60 s update`;
  const rows = [
    [label, `${us.toFixed(2)} µs`, `three-vrm ${threeUs.toFixed(1)} µs`, `${(threeUs / us).toFixed(1)}×`, `js ${jsUs.toFixed(1)} µs`],
  ];
  return { rows, figures };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** `node --import tsx bench/spring-cost.ts`: these keys alone, printed with the machine's load average. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadavg } = await import('node:os');
  const { rows, figures } = await springCost();
  for (const row of rows) console.log(row.join(' | '));
  for (const [key, value] of Object.entries(figures)) console.log(`${key} ${value}`);
  console.log(`(load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
}
