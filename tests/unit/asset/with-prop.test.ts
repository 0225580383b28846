import { readFileSync } from 'node:fs';
import { mat4, quat } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { withProp } from '../../../src/asset/with-prop.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createSwordAsset } from '../../../src/procedural/sword.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { propMatrix } from '../../../src/scene/prop-placement.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { positionsDiagonal } from '../helpers/positions-diagonal.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// withProp composes a prop into the character's asset as a node under the joint (its rest pose the offset's TRS)
// with the prop's nodes, meshes, skins, materials and images after the character's. The reference is the
// single-model attachment, computed apart: the prop evaluated alone in its rest pose (evaluateModel), placed by
// propMatrix(character, joint, offset) in f64. The composed asset evaluated by the same CPU path must put the
// prop's vertices there, and leave the character's own vertices bit for bit as they were.

/** A prop with a hierarchy and textures: a rotated, scaled, moved root above the sword's node; two images. */
function nestedProp(): ModelAsset {
  const sword = createSwordAsset(0.6);
  const restPose = { translations: Float32Array.of(0.1, 0.2, -0.05, 0, 0.03, 0), rotations: new Float32Array(8), scales: Float32Array.of(1.5, 1.5, 1.5, 1, 1, 1), morphWeights: new Float32Array(0) };
  const q = quat.setAxisAngle(quat.create(), [0, 0, 1], Math.PI / 6);
  restPose.rotations.set(q, 0);
  restPose.rotations.set(quat.setAxisAngle(quat.create(), [1, 0, 0], 0.4), 4);
  return {
    ...sword,
    name: 'nested-sword',
    skeleton: { jointCount: 2, names: ['grip-root', 'sword'], parents: Int32Array.of(-1, 0), sourceIndices: Int32Array.of(0, 1) },
    restPose,
    meshInstances: [{ node: 1, sourceNode: 1, mesh: 0, skin: -1 }],
    materials: [
      { ...sword.materials[0], baseColorTexture: 1, normalTexture: { image: 0, texCoord: 0 } },
      ...sword.materials.slice(1),
    ],
    images: [
      { name: 'a', mimeType: 'image/png', data: Uint8Array.of(1) },
      { name: 'b', mimeType: 'image/png', data: Uint8Array.of(2) },
    ],
  };
}

async function morphTube(skinned: boolean): Promise<ModelAsset> {
  return parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 3, skinned }).glb());
}

/** T(t)·R(axis, angle)·S(s) scaled by `size`, column-major f64; a mirror in x when `mirror`. */
function offsetOf(size: number, mirror = false): Float64Array {
  const axis = [1, 2, 3].map((x) => x / Math.hypot(1, 2, 3)) as [number, number, number];
  const m = mat4.fromRotationTranslationScale(new Float64Array(16) as unknown as mat4,
    quat.setAxisAngle(quat.create(), axis, 0.7), [0.05 * size, -0.02 * size, 0.1 * size], [(mirror ? -0.8 : 0.8) * size, 1.2 * size, 0.5 * size]);
  return m as unknown as Float64Array;
}

interface Character { name: string; asset: () => Promise<ModelAsset>; joint: string }

function characters(): Character[] {
  const list: Character[] = [
    { name: 'octopus', asset: async () => createOctopusAsset(), joint: '' },
    { name: 'skinned morph tube', asset: () => morphTube(true), joint: '' },
  ];
  const root = sharedAssets();
  if (root) {
    const file = (name: string) => () => parseGltf(name, new Uint8Array(readFileSync(`${root}gltf/${name}`)));
    list.push({ name: 'Fox.glb', asset: file('Fox.glb'), joint: 'b_RightHand_08' });
    list.push({ name: 'CesiumMan.glb', asset: file('CesiumMan.glb'), joint: 'Skeleton_arm_joint_R__3_' });
  }
  return list;
}

const PROPS: { name: string; asset: () => Promise<ModelAsset>; mirror?: boolean }[] = [
  { name: 'sword', asset: async () => createSwordAsset() },
  { name: 'nested textured sword (mirrored offset)', asset: async () => nestedProp(), mirror: true },
  { name: 'rigid morph tube', asset: () => morphTube(false) },
  { name: 'skinned morph tube', asset: () => morphTube(true) },
];

/** The deepest joint (a tentacle's tip) when the character names none. */
function jointOf(asset: ModelAsset, name: string): number {
  if (name) return asset.skeleton.names.indexOf(name);
  const depth = new Int32Array(asset.skeleton.jointCount);
  let deepest = 0;
  for (let j = 0; j < depth.length; j++) {
    depth[j] = asset.skeleton.parents[j] >= 0 ? depth[asset.skeleton.parents[j]] + 1 : 0;
    if (depth[j] > depth[deepest]) deepest = j;
  }
  return deepest;
}

describe('withProp: the prop as part of the character', () => {
  for (const character of characters()) {
    for (const prop of PROPS) {
      it(`${prop.name} on ${character.name}: where propMatrix puts it, at several clip times; the character unchanged`, async () => {
        const asset = await character.asset(), propAsset = await prop.asset();
        const joint = jointOf(asset, character.joint);
        expect(joint).toBeGreaterThanOrEqual(0);
        const rest = evaluateModel(asset, -1, 0);
        const diagonal = positionsDiagonal(rest.primitives.flatMap((p) => p.positions));
        const offset = offsetOf(0.3 * diagonal, prop.mirror);
        const composed = withProp(asset, propAsset, character.joint || joint, offset);
        expect(composed.clips).toBe(asset.clips);
        expect(composed.skeleton.jointCount).toBe(asset.skeleton.jointCount + 1 + propAsset.skeleton.jointCount);
        const propAlone = evaluateModel(propAsset, -1, 0).primitives;
        const animated = new AnimatedModel(asset);
        const P = new Float64Array(16);
        const clipTimes: [number, number][] = [[-1, 0]];
        for (let c = 0; c < asset.clips.length; c++) for (const f of [0.1, 0.45, 0.8]) clipTimes.push([c, f * asset.clips[c].duration]);
        let worst = 0, compared = 0;
        for (const [clip, time] of clipTimes) {
          const own = evaluateModel(asset, clip, time), both = evaluateModel(composed, clip, time);
          expect(both.primitives.length).toBe(own.primitives.length + propAlone.length);
          // The character's own vertices: the same numbers.
          for (let i = 0; i < own.primitives.length; i++) expect(both.primitives[i].positions).toEqual(own.primitives[i].positions);
          animated.evaluate(animated.clipSample(clip).at(both.time));
          propMatrix(animated, joint, offset, P);
          for (let i = 0; i < propAlone.length; i++) {
            const reference = propAlone[i].positions, got = both.primitives[own.primitives.length + i].positions;
            expect(got.length).toBe(reference.length);
            for (let v = 0; v < reference.length; v += 3) {
              const x = reference[v], y = reference[v + 1], z = reference[v + 2];
              for (let r = 0; r < 3; r++) {
                worst = Math.max(worst, Math.abs(got[v + r] - (P[r] * x + P[4 + r] * y + P[8 + r] * z + P[12 + r])) / diagonal);
              }
              compared++;
            }
          }
        }
        expect(compared).toBeGreaterThan(0);
        expect(worst).toBeLessThanOrEqual(1e-5);
      });
    }
  }

  it('appends materials and images with their indices shifted, morph weight ranges and skins moved past the character', async () => {
    const character = await morphTube(true), prop = nestedProp();
    const composed = withProp(character, prop, 1);
    const nm = character.materials.length, ni = character.images.length;
    expect(composed.images.slice(ni)).toEqual(prop.images);
    expect(composed.materials[nm].baseColorTexture).toBe(ni + 1);
    expect(composed.materials[nm].normalTexture?.image).toBe(ni + 0);
    expect(composed.materials[nm + 1]).toEqual(prop.materials[1]);
    expect(composed.meshes[character.meshes.length].primitives.map((p) => p.material)).toEqual(prop.meshes[0].primitives.map((p) => p.material + nm));
    const propNode = character.skeleton.jointCount;
    expect(composed.skeleton.parents[propNode]).toBe(1);
    expect(composed.skeleton.parents[propNode + 1]).toBe(propNode);
    expect(composed.skeleton.parents[propNode + 2]).toBe(propNode + 1);
    expect(composed.skeleton.names[propNode]).toBe(`nested-sword on ${character.skeleton.names[1]}`);
    expect(composed.meshInstances.at(-1)).toEqual({ node: propNode + 2, sourceNode: null, mesh: character.meshes.length, skin: -1 });

    const skinned = await morphTube(true);
    const twice = withProp(character, skinned, 2);
    const weights = character.restPose.morphWeights!.length;
    expect(twice.restPose.morphWeights!.length).toBe(2 * weights);
    expect(twice.meshInstances.at(-1)!.morphWeightOffset).toBe(weights + skinned.meshInstances[0].morphWeightOffset!);
    expect(twice.skins.length).toBe(2);
    expect(Array.from(twice.skins[1].joints)).toEqual(Array.from(skinned.skins[0].joints, (j) => j + propNode + 1));
    expect(twice.skins[1].inverseBindMatrices).toBe(skinned.skins[0].inverseBindMatrices);
  });

  it('refuses an unknown joint and an offset a rest pose cannot hold, naming the problem', () => {
    const octopus = createOctopusAsset(), sword = createSwordAsset();
    expect(() => withProp(octopus, sword, 'hand_R')).toThrow(/octopus.*no joint "hand_R" to hold a prop \(\d+ joints: /);
    expect(() => withProp(octopus, sword, octopus.skeleton.jointCount)).toThrow(RangeError);
    expect(() => withProp(octopus, sword, -1)).toThrow(/no joint -1/);
    // A name off only in letter case is suggested (the octopus's joints are head, tentacle0_0, …).
    expect(() => withProp(octopus, sword, 'Head')).toThrow(/octopus.*no joint "Head" to hold a prop \(did you mean "head"\? \d+ joints: /);
    const shear = [1, 0, 0, 0, 0.3, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect(() => withProp(octopus, sword, 3, shear)).toThrow(/prop sword on joint .*offset shears \(columns 0 and 1/);
    expect(() => withProp(octopus, sword, 3, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1])).toThrow(/last row must be \(0, 0, 0, 1\)/);
    expect(() => withProp(octopus, sword, 3, [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toThrow(/scales an axis to 0/);
    expect(() => withProp(octopus, sword, 3, [1, 0, 0])).toThrow(/16 finite numbers.*got 3/);
    expect(() => withProp(octopus, sword, 3, [NaN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toThrow(/non-finite/);
    expect(() => new Crowd(octopus, { capacity: 2, props: [{ asset: sword, joint: 'hand_R' }] })).toThrow(/no joint "hand_R"/);
  });

  it('a crowd with props draws the composed asset; chained props keep each one', () => {
    const octopus = createOctopusAsset(), sword = createSwordAsset();
    const crowd = new Crowd(octopus, { capacity: 2, props: [{ asset: sword, joint: 5 }, { asset: sword, joint: 9, offset: offsetOf(0.5) }] });
    expect(crowd.asset.meshInstances.length).toBe(octopus.meshInstances.length + 2);
    expect(crowd.asset.skeleton.parents[octopus.skeleton.jointCount]).toBe(5);
    expect(crowd.asset.skeleton.parents[octopus.skeleton.jointCount + 2]).toBe(9);
    expect(crowd.rigidOffsets.length).toBe(crowd.asset.meshInstances.length);
  });
});
