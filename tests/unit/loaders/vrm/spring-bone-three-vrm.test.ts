import { describe, expect, it } from 'vitest';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin } from '@pixiv/three-vrm';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';
import { nodeOfBone, smallVrm0, smallVrm1 } from './small-avatar.ts';

/** A joint as three-vrm's spring bone manager holds it: node, tail (child node, or a local point), settings, colliders, center. */
interface JointView {
  node: number;
  child: number | null;
  virtualTail: number[] | null;
  settings: { hitRadius: number; stiffness: number; gravityPower: number; gravityDir: number[]; dragForce: number };
  colliders: string[];
  center: number | null;
}

/** A collider as text, for comparing lists of them: node, shape, its parts by name, numbers rounded to 1e-9. */
function colliderText(node: number, kind: string, parts: Record<string, unknown>): string {
  const round = (v: unknown): unknown => (typeof v === 'number' ? Math.round(v * 1e9) / 1e9 + 0 : Array.isArray(v) ? v.map(round) : v);
  return `${node} ${kind} ${JSON.stringify(Object.fromEntries(Object.entries(parts).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, round(v)])))}`;
}

/** three-vrm's reading (VRMLoaderPlugin, which runs its spring bone loader) of `glb`, as {@link JointView}s by node. */
async function threeVrmJoints(glb: Uint8Array): Promise<JointView[]> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await new Promise<any>((resolve, reject) => loader.parse(buffer, '', resolve, reject));
  const nodeOf = (object: any): number => gltf.parser.associations.get(object)!.nodes;
  const joints: JointView[] = [];
  for (const joint of gltf.userData.vrm.springBoneManager.joints) {
    // three-vrm's 0.x import walks every three.js child, its own collider objects too (added to the nodes
    // before the walk): those are not glTF nodes, and Sinew makes no joints of them.
    if (gltf.parser.associations.get(joint.bone) === undefined) continue;
    const s = joint.settings;
    const colliders: string[] = [];
    for (const group of joint.colliderGroups) {
      for (const collider of group.colliders) {
        const shape = collider.shape;
        const parts: Record<string, unknown> = { offset: shape.offset.toArray() };
        if (shape.type !== 'plane') Object.assign(parts, { radius: shape.radius, inside: shape.inside });
        if (shape.type === 'capsule') parts.tail = shape.tail.toArray();
        // three-vrm normalises a plane's normal each frame; Sinew at load.
        if (shape.type === 'plane') parts.normal = shape.normal.clone().normalize().toArray();
        colliders.push(colliderText(nodeOf(collider.parent), shape.type, parts));
      }
    }
    joints.push({
      node: nodeOf(joint.bone),
      child: joint.child ? nodeOf(joint.child) : null,
      virtualTail: joint.child ? null : joint.initialLocalChildPosition.toArray(),
      settings: { hitRadius: s.hitRadius, stiffness: s.stiffness, gravityPower: s.gravityPower, gravityDir: s.gravityDir.toArray(), dragForce: s.dragForce },
      colliders,
      center: joint.center ? nodeOf(joint.center) : null,
    });
  }
  return joints;
}

/** Sinew's springs as the same {@link JointView}s: every simulated joint with its tail. */
function sinewJoints(asset: ModelAsset): JointView[] {
  const node = (joint: number) => asset.skeleton.sourceIndices[joint];
  const bone = asset.secondaryMotion!.springBone!;
  return bone.springs.flatMap((spring) => {
    const colliders = spring.colliderGroups.flatMap((g) => bone.colliderGroups[g].colliders.map((c) => {
      const { node: on, shape } = bone.colliders[c];
      const { kind, ...parts } = shape;
      return colliderText(node(on), kind, parts);
    }));
    const simulated = spring.virtualTail === null ? spring.joints.length - 1 : spring.joints.length;
    return spring.joints.slice(0, simulated).map((j, k): JointView => ({
      node: node(j.node),
      child: k + 1 < spring.joints.length ? node(spring.joints[k + 1].node) : null,
      virtualTail: k + 1 < spring.joints.length ? null : [...spring.virtualTail!],
      settings: { hitRadius: j.hitRadius, stiffness: j.stiffness, gravityPower: j.gravityPower, gravityDir: [...j.gravityDir], dragForce: j.dragForce },
      colliders,
      center: spring.center < 0 ? null : node(spring.center),
    }));
  });
}

/** Compares joint lists in node order (three-vrm sorts its own joints for updating; the set is what counts). */
function expectSameJoints(sinew: JointView[], three: JointView[]): void {
  const byNode = (a: JointView, b: JointView) => a.node - b.node || (a.child ?? -1) - (b.child ?? -1);
  const ours = [...sinew].sort(byNode), theirs = [...three].sort(byNode);
  expect(ours.map((j) => [j.node, j.child, j.center])).toEqual(theirs.map((j) => [j.node, j.child, j.center]));
  ours.forEach((j, i) => {
    const t = theirs[i];
    expect(j.colliders, `joint on node ${j.node}`).toEqual(t.colliders);
    for (const key of ['hitRadius', 'stiffness', 'gravityPower', 'dragForce'] as const) expect(j.settings[key], `${key} of node ${j.node}`).toBeCloseTo(t.settings[key], 12);
    j.settings.gravityDir.forEach((x, k) => expect(x).toBeCloseTo(t.settings.gravityDir[k], 12));
    if (t.virtualTail === null) expect(j.virtualTail).toBeNull();
    else j.virtualTail!.forEach((x, k) => expect(x, `virtual tail of node ${j.node}`).toBeCloseTo(t.virtualTail![k], 7));
  });
}

describe('spring bones as three-vrm\'s loader reads them (the reference)', () => {
  it('VRM 1.0: the same joints, settings, colliders of every shape (extended preferred), centers', async () => {
    const EXT = 'VRMC_springBone_extended_collider';
    const b = smallVrm1();
    b.json.extensionsUsed.push('VRMC_springBone', EXT);
    const settings = (stiffness: number) => ({ hitRadius: 0.02, stiffness, gravityPower: 0.4, gravityDir: [0.6, -0.8, 0], dragForce: 0.3 });
    b.json.extensions.VRMC_springBone = {
      specVersion: '1.0',
      colliders: [
        { node: nodeOfBone('head'), shape: { sphere: { offset: [0, 0.05, 0.01], radius: 0.09 } } },
        { node: nodeOfBone('chest'), shape: { capsule: { offset: [0.1, 0, 0], tail: [-0.1, 0, 0], radius: 0.07 } } },
        { node: nodeOfBone('hips'), shape: { sphere: { radius: 1 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { plane: { offset: [0, -0.1, 0], normal: [0, 0, 2] } } } } },
        { node: nodeOfBone('head'), shape: { sphere: { radius: 1 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { sphere: { offset: [0, 0.1, 0], radius: 0.4, inside: true } } } } },
        { node: nodeOfBone('spine'), shape: { capsule: { radius: 1 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { capsule: { offset: [0, 0, 0], tail: [0, 0.3, 0], radius: 0.5, inside: true } } } } },
      ],
      colliderGroups: [{ name: 'head', colliders: [0, 3] }, { name: 'body', colliders: [1, 2, 4] }],
      springs: [
        { name: 'arm', colliderGroups: [0, 1], joints: [{ node: nodeOfBone('leftUpperArm'), ...settings(0.9) }, { node: nodeOfBone('leftLowerArm'), ...settings(0.7) }, { node: nodeOfBone('leftHand'), ...settings(0.5) }] },
        { name: 'thumb', center: nodeOfBone('hips'), colliderGroups: [1], joints: [{ node: nodeOfBone('leftThumb1'), ...settings(1.5) }, { node: nodeOfBone('leftThumb2'), ...settings(1) }] },
        { name: 'leg', joints: [{ node: nodeOfBone('rightUpperLeg'), ...settings(2) }, { node: nodeOfBone('rightFoot'), ...settings(2) }] },
      ],
    };
    const glb = b.glb();
    const asset = await parseGltf('s.vrm', glb);
    expect(asset.warnings).toEqual([]);
    const three = await threeVrmJoints(glb);
    expect(three).toHaveLength(4);
    expectSameJoints(sinewJoints(asset), three);
  });

  it('VRM 0.x: the same joints from a branching bone group, virtual tails, z-negated collider offsets, settings', async () => {
    const glb = smallVrm0({
      secondaryAnimation: {
        colliderGroups: [
          { node: nodeOfBone('head'), colliders: [{ offset: { x: 0.01, y: 0.05, z: 0.03 }, radius: 0.09 }, { offset: { x: 0, y: 0.1, z: 0 }, radius: 0.02 }] },
          { node: nodeOfBone('chest'), colliders: [{ offset: { x: 0, y: 0, z: -0.04 }, radius: 0.12 }] },
        ],
        boneGroups: [
          // chest branches into neck (first child) and both upper arms.
          { comment: 'upper', stiffiness: 0.8, gravityPower: 0.2, gravityDir: { x: 0, y: -1, z: 0 }, dragForce: 0.35, hitRadius: 0.015, center: -1, colliderGroups: [0, 1], bones: [nodeOfBone('chest')] },
          { comment: 'leg', stiffiness: 1.2, gravityPower: 0, gravityDir: { x: 0, y: 0, z: 1 }, dragForce: 0.5, hitRadius: 0.01, center: nodeOfBone('hips'), colliderGroups: [1], bones: [nodeOfBone('leftUpperLeg')] },
        ],
      },
    }).glb();
    const asset = await parseGltf('old.vrm', glb);
    expect(asset.warnings).toEqual([]);
    const three = await threeVrmJoints(glb);
    // chest's subtree: chest, neck, head, leftEye, rightEye, Face, Face2, both arms (3 + 3, thumb 2); the leg: 3.
    expect(three.length).toBeGreaterThan(12);
    expectSameJoints(sinewJoints(asset), three);
    // Springs list a joint's simulated ancestors first.
    const springs = asset.secondaryMotion!.springBone!.springs;
    const seen = new Set<number>();
    for (const spring of springs) {
      const first = spring.joints[0].node;
      const parent = asset.skeleton.parents[first];
      const inGroup = springs.some((s) => s.name === spring.name && s.joints.some((j) => j.node === parent));
      if (inGroup) expect(seen.has(parent), `the spring starting at joint ${first} comes after its parent's`).toBe(true);
      for (const j of spring.joints) seen.add(j.node);
    }
  });
});
