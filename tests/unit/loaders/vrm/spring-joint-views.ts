import { expect } from 'vitest';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin } from '@pixiv/three-vrm';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';

/** A joint as three-vrm's spring bone manager holds it: node, tail (child node, or a local point), settings, colliders, center. */
export interface JointView {
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
export async function threeVrmJoints(glb: Uint8Array): Promise<JointView[]> {
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
export function sinewJoints(asset: ModelAsset): JointView[] {
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
export function expectSameJoints(sinew: JointView[], three: JointView[]): void {
  const byNode = (a: JointView, b: JointView) => a.node - b.node || (a.child ?? -1) - (b.child ?? -1);
  const ours = [...sinew].sort(byNode), theirs = [...three].sort(byNode);
  expect(ours.map((j) => [j.node, j.child, j.center])).toEqual(theirs.map((j) => [j.node, j.child, j.center]));
  ours.forEach((j, i) => {
    const t = theirs[i];
    expect(j.colliders, `joint on node ${j.node}`).toEqual(t.colliders);
    for (const key of ['hitRadius', 'stiffness', 'dragForce'] as const) expect(j.settings[key], `${key} of node ${j.node}`).toBeCloseTo(t.settings[key], 12);
    // The gravity each joint feels, gravityDir · gravityPower (Sinew keeps gravityDir unit length).
    j.settings.gravityDir.forEach((x, k) => expect(x * j.settings.gravityPower, `gravity of node ${j.node}`).toBeCloseTo(t.settings.gravityDir[k] * t.settings.gravityPower, 12));
    expect(Math.hypot(...j.settings.gravityDir)).toBeCloseTo(1, 12);
    if (t.virtualTail === null) expect(j.virtualTail).toBeNull();
    else j.virtualTail!.forEach((x, k) => expect(x, `virtual tail of node ${j.node}`).toBeCloseTo(t.virtualTail![k], 7));
  });
}
