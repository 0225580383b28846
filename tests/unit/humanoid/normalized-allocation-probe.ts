/**
 * Run by normalized-allocation.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes one
 * frame of the normalised view allocates — every humanoid bone's rotation set and read back, the hips placed and
 * read — on the synthetic humanoid of the unit tests.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { HUMANOID_BONE_NAMES } from '../../../src/humanoid/humanoid-bones.ts';
import {
  createNormalizedHumanoid, getNormalizedHipsPosition, getNormalizedRotation, setNormalizedHipsPosition, setNormalizedRotation,
} from '../../../src/humanoid/normalized-humanoid.ts';
import { humanoidNames, syntheticHumanoid } from './synthetic-humanoid.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('normalized-allocation-probe: run node with --expose-gc');

const rig = syntheticHumanoid(humanoidNames, 5, { twist: true });
const view = createNormalizedHumanoid(rig.skeleton, rig.restPose, { bones: rig.bones });
const pose = cloneLocalPose(rig.restPose);
const rotations = new Float32Array(4 * HUMANOID_BONE_NAMES.length), read = new Float64Array(4), hips = new Float64Array(3);
let k = 0;
const frame = (): void => {
  k++;
  const s = Math.sin(k * 0.01), c = Math.cos(k * 0.01);
  for (let b = 0; b < HUMANOID_BONE_NAMES.length; b++) {
    rotations[4 * b] = 0.1 * s; rotations[4 * b + 1] = 0; rotations[4 * b + 2] = 0.1 * c; rotations[4 * b + 3] = 0.99;
    setNormalizedRotation(pose, view, b, rotations, 4 * b);
    getNormalizedRotation(read, view, pose, HUMANOID_BONE_NAMES[b]);
  }
  hips[0] = 0.1 * s; hips[1] = 1; hips[2] = 0.1 * c;
  setNormalizedHipsPosition(pose, view, hips);
  getNormalizedHipsPosition(hips, view, pose);
};
console.log(JSON.stringify({ frame: await allocationPerCall(frame, 5_000, gc) }));
