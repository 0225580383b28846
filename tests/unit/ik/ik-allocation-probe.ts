/**
 * Run by ik-allocation.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes each
 * IK job's apply allocates per call, on the synthetic rigs of the unit tests, with targets moving every call.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { AimIkJob } from '../../../src/ik/aim-ik-job.ts';
import { FootPlacementJob } from '../../../src/ik/foot-placement-job.ts';
import { TwoBoneIkJob } from '../../../src/ik/two-bone-ik-job.ts';
import { armRig, makeSkeleton, setJoint } from './ik-rigs.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('ik-allocation-probe: run node with --expose-gc');
const calls = 20_000;

const arm = armRig();
const twoBone = new TwoBoneIkJob(arm.skeleton, { start: 1, mid: 2, end: 4, midAxis: [0, 0, -1], soften: 0.9, twistAngle: 0.1, weight: 0.8 });
const armPose = createLocalPose(5);
let k = 0;
const twoBoneCall = (): void => {
  armPose.rotations.set(arm.pose.rotations);
  armPose.translations.set(arm.pose.translations);
  armPose.scales.set(arm.pose.scales);
  k++;
  twoBone.target[0] = 0.3 + 0.2 * Math.sin(k * 0.01);
  twoBone.target[1] = 0.4;
  twoBone.apply(armPose, arm.skeleton);
};

const neck = makeSkeleton(['root', 'spine', 'neck', 'head'], [-1, 0, 1, 2]);
const neckRest = createLocalPose(4);
setJoint(neckRest, 0, [0, 1, 0], [0, 1, 0], 0.6, 1.2);
setJoint(neckRest, 1, [0, 0.3, 0]);
setJoint(neckRest, 2, [0, 0.25, 0]);
setJoint(neckRest, 3, [0, 0.12, 0]);
const neckPose = createLocalPose(4);
const aim = new AimIkJob(neck, { joints: [1, 2, 3], forward: [0, 0, 1], offset: [0, 0.05, 0.1], twistAngle: 0.2, weight: 0.9 });
const aimCall = (): void => {
  neckPose.rotations.set(neckRest.rotations);
  neckPose.translations.set(neckRest.translations);
  k++;
  aim.target[0] = Math.cos(k * 0.01);
  aim.target[1] = 2;
  aim.target[2] = 1;
  aim.apply(neckPose, neck);
};

const legs = makeSkeleton(['root', 'pelvis', 'hip.L', 'knee.L', 'ankle.L', 'hip.R', 'knee.R', 'ankle.R'], [-1, 0, 1, 2, 3, 1, 5, 6]);
const legsRest = createLocalPose(8);
setJoint(legsRest, 1, [0, 0.9, 0]);
setJoint(legsRest, 2, [0.1, 0, 0], [1, 0, 0], -0.2);
setJoint(legsRest, 3, [0, -0.42, 0], [1, 0, 0], 0.35);
setJoint(legsRest, 4, [0, -0.4, 0]);
setJoint(legsRest, 5, [-0.1, 0, 0], [1, 0, 0], -0.2);
setJoint(legsRest, 6, [0, -0.42, 0], [1, 0, 0], 0.35);
setJoint(legsRest, 7, [0, -0.4, 0]);
const legsPose = createLocalPose(8);
const feet = new FootPlacementJob(legs, { pelvis: 1, legs: [{ start: 2, mid: 3, end: 4, midAxis: [-1, 0, 0] }, { start: 5, mid: 6, end: 7, midAxis: [-1, 0, 0] }], ankleHeight: 0.05 });
const feetCall = (): void => {
  legsPose.rotations.set(legsRest.rotations);
  legsPose.translations.set(legsRest.translations);
  k++;
  feet.planeNormal[0] = 0.3 * Math.sin(k * 0.01);
  feet.apply(legsPose, legs);
};

const result: Record<string, { allocated: number; gcDuring: number; reached: boolean }> = {};
for (const [name, call, job] of [['twoBone', twoBoneCall, twoBone], ['aimChain', aimCall, aim], ['footPlacement', feetCall, feet]] as const) {
  // The least of three rounds: code still running unoptimised on a loaded machine boxes numbers for a while; a
  // real allocation in the job shows in every round.
  let best = { allocated: Infinity, gcDuring: 0 };
  for (let round = 0; round < 3 && best.allocated >= 1; round++) {
    const { allocated, gcDuring } = await allocationPerCall(call, calls, gc);
    if (allocated < best.allocated) best = { allocated, gcDuring };
  }
  result[name] = { ...best, reached: job.reached };
}
console.log(JSON.stringify(result));
