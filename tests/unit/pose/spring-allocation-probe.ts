/**
 * Run by spring-allocation.test.ts in a node started with `--expose-gc --no-concurrent-recompilation
 * --min-semi-space-size=64 --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs them): prints, as
 * JSON, the least bytes per frame over several rounds of the spring kernel on the hand-built rig
 * (spring-kernel-fixture.ts), its pose in a pose kernel's arena (`inArena`) and outside it (`outside`, copied in
 * and out), each frame a new pose of a walking rig, one 1/60 s step with wind and a world matrix, every 50th frame
 * a frame without a step and every 97th a reset.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { createSpringKernel, springKernelArenaBytes } from '../../../src/pose/spring-kernel.ts';
import { cloneLocalPose, copyLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { posRig, springRig } from './spring-kernel-fixture.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('spring-allocation-probe: run node with --expose-gc');

const rig = springRig();
const poses: LocalPose[] = Array.from({ length: 60 }, (_, k) => {
  const pose = cloneLocalPose(rig.rest);
  posRig(pose, rig.rest, k / 60);
  return pose;
});

const frame = (inArena: boolean): (() => void) => {
  const poseKernel = new PoseKernel(rig.skeleton, [], undefined, { arenaBytes: springKernelArenaBytes(rig.asset, rig.skeleton, rig.rest) });
  const kernel = createSpringKernel(rig.asset, rig.skeleton, rig.rest, { arena: inArena ? poseKernel.arena : null })!;
  const pose = inArena ? poseKernel.pose : cloneLocalPose(rig.rest);
  kernel.external.set([0.5, 0, 0.25]);
  kernel.world[12] = 2;
  let n = 0;
  return () => {
    n++;
    copyLocalPose(pose, poses[n % 60]);
    if (n % 97 === 0) kernel.reset();
    if (n % 50 !== 0) kernel.step(1 / 60);
    kernel.apply(pose, rig.skeleton);
  };
};

const result: Record<string, { allocated: number; gcDuring: number }> = {};
for (const [name, inArena] of [['inArena', true], ['outside', false]] as const) {
  const fn = frame(inArena);
  let best = { allocated: Infinity, gcDuring: 0 };
  for (let round = 0; round < 4; round++) {
    const { allocated, gcDuring } = await allocationPerCall(fn, 20_000, gc);
    if (allocated < best.allocated) best = { allocated, gcDuring };
  }
  result[name] = best;
}
console.log(JSON.stringify(result));
