import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { HumanoidBoneName } from '../../../src/asset/avatar-asset.ts';
import { retargetClip } from '../../../src/animation/retarget-clip.ts';
import { matchHumanoid } from '../../../src/humanoid/match-humanoid.ts';
import { GltfBuilder } from '../helpers/gltf-builder.ts';
import { humanoidNames, syntheticHumanoid, type SyntheticHumanoid } from '../humanoid/synthetic-humanoid.ts';
import { sinew } from './run-sinew.ts';

// `sinew inspect MODEL --anim CLIPS.glb` with a Mixamo-named clips file and a `Hips/Spine`-named model, as GLB
// files: the joints match by humanoid bone (found by name on both sides), with no map.

const MIXAMO_LIMBS: Record<string, string> = { Shoulder: 'Shoulder', UpperArm: 'Arm', LowerArm: 'ForeArm', Hand: 'Hand', UpperLeg: 'UpLeg', LowerLeg: 'Leg', Foot: 'Foot', Toes: 'ToeBase' };
const MIXAMO_TORSO: Record<string, string> = { hips: 'Hips', spine: 'Spine', chest: 'Spine1', upperChest: 'Spine2', neck: 'Neck', head: 'Head' };
/** Mixamo's names for the torso and limbs (no fingers, eyes or jaw: a body-only Mixamo rig). */
const mixamoName = (bone: HumanoidBoneName): string | null => {
  if (MIXAMO_TORSO[bone]) return `mixamorig:${MIXAMO_TORSO[bone]}`;
  const m = /^(left|right)(Shoulder|UpperArm|LowerArm|Hand|UpperLeg|LowerLeg|Foot|Toes)$/.exec(bone);
  return m ? `mixamorig:${m[1] === 'left' ? 'Left' : 'Right'}${MIXAMO_LIMBS[m[2]]}` : null;
};

/** A rig as a GLB of nodes only (TRS, children), with `clip` (rotation channels of every joint) when given. */
function rigGlb(rig: SyntheticHumanoid, clip?: { times: Float32Array; rotations: Float32Array[] }): Uint8Array {
  const b = new GltfBuilder();
  const { names, parents } = rig.skeleton;
  b.json.nodes = names.map((name, j) => {
    const children = [...parents.keys()].filter((c) => parents[c] === j);
    return {
      name, translation: Array.from(rig.restPose.translations.subarray(3 * j, 3 * j + 3)),
      rotation: Array.from(rig.restPose.rotations.subarray(4 * j, 4 * j + 4)), ...(children.length ? { children } : {}),
    };
  });
  b.json.scenes = [{ nodes: [0] }];
  b.json.scene = 0;
  if (clip) {
    const input = b.accessor(clip.times, 'SCALAR', { min: [clip.times[0]], max: [clip.times[clip.times.length - 1]] });
    const samplers = clip.rotations.map((values) => ({ input, output: b.accessor(values, 'VEC4'), interpolation: 'LINEAR' }));
    b.json.animations = [{ name: 'wave', samplers, channels: samplers.map((_, j) => ({ sampler: j, target: { node: j, path: 'rotation' } })) }];
  }
  return b.glb();
}

describe('sinew --anim: a Mixamo clips file onto a Hips/Spine-named model', () => {
  it('matches every humanoid joint by humanoid bone, with no map', async () => {
    const source = syntheticHumanoid(mixamoName, 12);
    const target = syntheticHumanoid(humanoidNames, 13, { scale: 0.9 });
    const times = Float32Array.of(0, 0.5, 1);
    const rotations = source.skeleton.names.map((_, j) => {
      const r = source.restPose.rotations.subarray(4 * j, 4 * j + 4), s = Math.sin(0.2), c = Math.cos(0.2);
      // rest, then rest · (0.4 rad about X), then rest.
      const turned = [r[3] * s + r[0] * c, r[1] * c + r[2] * s, r[2] * c - r[1] * s, r[3] * c - r[0] * s];
      return Float32Array.from([...r, ...turned, ...r]);
    });
    const dir = mkdtempSync(join(tmpdir(), 'sinew-humanoid-'));
    try {
      writeFileSync(join(dir, 'mixamo-wave.glb'), rigGlb(source, { times, rotations }));
      writeFileSync(join(dir, 'avatar.glb'), rigGlb(target));
      const result = await sinew('inspect', join(dir, 'avatar.glb'), '--anim', join(dir, 'mixamo-wave.glb'), '--json');
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.retarget.file).toBe('mixamo-wave.glb');
      // Not matched: the bones a body-only Mixamo rig lacks (fingers, eyes, jaw); every other joint is, the
      // Armature above the hips by its name.
      const lacking = target.skeleton.names.filter((n) => /Thumb|Index|Middle|Ring|Little|Eye|Jaw/.test(n));
      // (In the loaded skeleton's order, which the loader may change: compared as sets.)
      expect([...report.retarget.unmatched].sort()).toEqual([...lacking].sort());
      expect([...report.retarget.matched].sort()).toEqual(target.skeleton.names.filter((n) => !lacking.includes(n)).sort());
      // The same match as the API's, and a clip that moves the model's Chest from the Mixamo Spine1's keys.
      const expected = retargetClip({ name: 'wave', duration: 1, channels: rotations.map((values, joint) => ({ joint, path: 'rotation', interpolation: 'LINEAR', times, values })) },
        { skeleton: source.skeleton, restPose: source.restPose, humanoid: matchHumanoid(source.skeleton).humanoid },
        { skeleton: target.skeleton, restPose: target.restPose, humanoid: matchHumanoid(target.skeleton).humanoid });
      expect(expected.channels.some((c) => c.joint === target.bones.chest)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
