import { WebIO, type Document, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import type { VRMCVRM } from '@pixiv/types-vrmc-vrm-1.0';
import type { VRM } from '@pixiv/types-vrm-0.0';
import type { VRMCVRMAnimation } from '@pixiv/types-vrmc-vrm-animation-1.0';
import type { VRMCSpringBone } from '@pixiv/types-vrmc-springbone-1.0';
import type { VRMCNodeConstraint } from '@pixiv/types-vrmc-node-constraint-1.0';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildAvatarVrm0 } from '../../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildMixamoRig } from '../../../../src/procedural/avatar/mixamo-rig.ts';
import { buildVrmaClip } from '../../../../src/procedural/avatar/vrma-clip.ts';

// The 55 humanoid bones of VRMC_vrm-1.0 humanoid.md, written out here independently of the builders' table.
const SIDE_BONES = ['Eye', 'UpperLeg', 'LowerLeg', 'Foot', 'Toes', 'Shoulder', 'UpperArm', 'LowerArm', 'Hand',
  'ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal',
  ...['Index', 'Middle', 'Ring', 'Little'].flatMap((f) => [`${f}Proximal`, `${f}Intermediate`, `${f}Distal`])];
const ALL_BONES = ['hips', 'spine', 'chest', 'upperChest', 'neck', 'head', 'jaw', ...['left', 'right'].flatMap((s) => SIDE_BONES.map((b) => s + b))];
const EXPRESSION_PRESETS = ['happy', 'angry', 'sad', 'relaxed', 'surprised', 'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft',
  'blinkRight', 'lookUp', 'lookDown', 'lookLeft', 'lookRight'];

interface Json {
  nodes: { name?: string; mesh?: number; children?: number[]; translation?: number[]; extensions?: { VRMC_node_constraint?: VRMCNodeConstraint } }[];
  meshes: { name?: string; primitives: { targets?: unknown[] }[] }[];
  materials: { name?: string }[];
  extensionsUsed?: string[];
  extensions?: { VRMC_vrm?: VRMCVRM; VRM?: VRM; VRMC_vrm_animation?: VRMCVRMAnimation; VRMC_springBone?: VRMCSpringBone };
}

function jsonOf(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length))) as Json;
}

const io = new WebIO();
const read = (glb: Uint8Array): Promise<Document> => io.readBinary(glb);
const worldOf = (document: Document, name: string): number[] => {
  const node = document.getRoot().listNodes().find((n) => n.getName() === name);
  if (!node) throw new Error(`no node ${name}`);
  return node.getWorldTranslation();
};

const vrm1 = await buildAvatarVrm1();
const vrm0 = await buildAvatarVrm0();

describe('buildAvatarVrm1', () => {
  const json = jsonOf(vrm1);
  const ext = json.extensions!.VRMC_vrm!;

  it('is the same bytes on every call', async () => {
    expect(Buffer.from(await buildAvatarVrm1()).equals(Buffer.from(vrm1))).toBe(true);
  });

  it('has the required VRMC_vrm fields (schema: specVersion, meta.name/authors/licenseUrl, humanoid.humanBones)', () => {
    expect(json.extensionsUsed).toContain('VRMC_vrm');
    expect(ext.specVersion).toBe('1.0');
    expect(ext.meta.name.length).toBeGreaterThan(0);
    expect(ext.meta.authors.length).toBeGreaterThan(0);
    expect(ext.meta.licenseUrl).toBe('https://vrm.dev/licenses/1.0/');
    expect(ext.meta.otherLicenseUrl).toBe('https://creativecommons.org/publicdomain/zero/1.0/');
    expect(ext.meta.avatarPermission).toBe('everyone');
  });

  it('maps every humanoid bone, required and optional, to its own node', () => {
    const bones = ext.humanoid.humanBones as Record<string, { node: number }>;
    expect(Object.keys(bones).sort()).toEqual([...ALL_BONES].sort());
    const nodes = Object.values(bones).map((b) => b.node);
    expect(new Set(nodes).size).toBe(55);
    for (const [name, { node }] of Object.entries(bones)) expect(json.nodes[node].name).toBe(name);
  });

  it('has every expression preset but neutral, a custom one, and each bind names a real node, morph target and material', () => {
    expect(Object.keys(ext.expressions!.preset!).sort()).toEqual([...EXPRESSION_PRESETS].sort());
    expect(Object.keys(ext.expressions!.custom!)).toEqual(['cheekPuff']);
    const all = [...Object.values(ext.expressions!.preset!), ...Object.values(ext.expressions!.custom!)];
    let colorBinds = 0, textureBinds = 0;
    for (const expression of all) {
      expect(expression!.morphTargetBinds!.length).toBeGreaterThan(0);
      for (const bind of expression!.morphTargetBinds!) {
        const mesh = json.meshes[json.nodes[bind.node].mesh!];
        for (const primitive of mesh.primitives) expect(bind.index).toBeLessThan(primitive.targets!.length);
        expect(bind.weight).toBeGreaterThan(0);
        expect(bind.weight).toBeLessThanOrEqual(1);
      }
      for (const bind of expression!.materialColorBinds ?? []) { expect(json.materials[bind.material].name).toBe('Cheek'); colorBinds++; }
      for (const bind of expression!.textureTransformBinds ?? []) { expect(json.materials[bind.material].name).toBe('Cheek'); textureBinds++; }
    }
    expect(colorBinds).toBeGreaterThanOrEqual(1);
    expect(textureBinds).toBeGreaterThanOrEqual(1);
    expect(ext.expressions!.preset!.blink!.isBinary).toBe(true);
    expect(ext.expressions!.preset!.surprised!.overrideBlink).toBe('block');
    expect(ext.expressions!.preset!.happy!.overrideMouth).toBe('blend');
  });

  it('has look-at with four distinct range maps and first-person annotations of every kind', async () => {
    const maps = [ext.lookAt!.rangeMapHorizontalInner!, ext.lookAt!.rangeMapHorizontalOuter!, ext.lookAt!.rangeMapVerticalDown!, ext.lookAt!.rangeMapVerticalUp!];
    expect(new Set(maps.map((m) => m.outputScale)).size).toBe(4);
    expect(ext.lookAt!.type).toBe('bone');
    expect(jsonOf(await buildAvatarVrm1({ lookAt: 'expression' })).extensions!.VRMC_vrm!.lookAt!.type).toBe('expression');
    const types = ext.firstPerson!.meshAnnotations!.map((a) => `${json.nodes[a.node].name}:${a.type}`).sort();
    expect(types).toEqual(['Body:both', 'Face:auto', 'Hair:thirdPersonOnly', 'NeckCap:firstPersonOnly']);
  });

  it('is bound in a T-pose facing +Z: arms along ±X, legs along −Y, eyes in front', async () => {
    const document = await read(vrm1);
    for (const [side, sign] of [['left', 1], ['right', -1]] as const) {
      const arm = ['Shoulder', 'UpperArm', 'LowerArm', 'Hand'].map((b) => worldOf(document, side + b));
      for (let i = 1; i < arm.length; i++) {
        expect(sign * (arm[i][0] - arm[i - 1][0])).toBeGreaterThan(0.05);
        expect(arm[i][1]).toBeCloseTo(arm[0][1], 6);
        expect(arm[i][2]).toBeCloseTo(0, 6);
      }
      const leg = ['UpperLeg', 'LowerLeg', 'Foot'].map((b) => worldOf(document, side + b));
      for (let i = 1; i < leg.length; i++) {
        expect(leg[i][1] - leg[i - 1][1]).toBeLessThan(-0.3);
        expect(leg[i][0]).toBeCloseTo(leg[0][0], 6);
        expect(leg[i][2]).toBeCloseTo(0, 6);
      }
      expect(sign * worldOf(document, `${side}Eye`)[0]).toBeGreaterThan(0);
      expect(worldOf(document, `${side}Eye`)[2]).toBeGreaterThan(0.05);
    }
    expect(worldOf(document, 'head')[1]).toBeGreaterThan(1.3);
    // Every joint's rest rotation is the identity, and its inverse bind matrix undoes its world translation.
    const skin = document.getRoot().listSkins()[0];
    const ibm = skin.getInverseBindMatrices()!.getArray()!;
    skin.listJoints().forEach((joint: Node, i: number) => {
      expect(joint.getRotation()).toEqual([0, 0, 0, 1]);
      const world = joint.getWorldTranslation();
      for (let c = 0; c < 3; c++) expect(ibm[16 * i + 12 + c]).toBeCloseTo(-world[c], 6);
    });
  });

  it('has a few thousand vertices, and every face morph target moves some vertex by over 3 mm', async () => {
    const document = await read(vrm1);
    let vertices = 0;
    for (const mesh of document.getRoot().listMeshes()) for (const p of mesh.listPrimitives()) vertices += p.getAttribute('POSITION')!.getCount();
    expect(vertices).toBeGreaterThan(3000);
    const face = document.getRoot().listMeshes().find((m) => m.getName() === 'Face')!;
    const targetNames = (face.getExtras() as { targetNames: string[] }).targetNames;
    expect(targetNames.length).toBe(18);
    targetNames.forEach((name, t) => {
      let largest = 0;
      for (const primitive of face.listPrimitives()) {
        const deltas = primitive.listTargets()[t].getAttribute('POSITION')!.getArray()!;
        for (let i = 0; i < deltas.length; i += 3) largest = Math.max(largest, Math.hypot(deltas[i], deltas[i + 1], deltas[i + 2]));
      }
      expect(largest, name).toBeGreaterThan(0.003);
    });
  });

  it('skin weights sum to 1 and name joints of the skin', async () => {
    const document = await read(vrm1);
    const jointCount = document.getRoot().listSkins()[0].listJoints().length;
    // The 55 humanoid joints, then the 76 spring joints and 6 constraint joints.
    expect(jointCount).toBe(55 + 76 + 6);
    for (const mesh of document.getRoot().listMeshes()) {
      for (const primitive of mesh.listPrimitives()) {
        const weights = primitive.getAttribute('WEIGHTS_0')!.getArray()!;
        const joints = primitive.getAttribute('JOINTS_0')!.getArray()!;
        for (let v = 0; v < weights.length; v += 4) {
          expect(weights[v] + weights[v + 1] + weights[v + 2] + weights[v + 3]).toBeCloseTo(1, 5);
          for (let k = 0; k < 4; k++) expect(joints[v + k]).toBeLessThan(jointCount);
        }
      }
    }
  });
});

describe('buildAvatarVrm1: secondary motion', () => {
  const json = jsonOf(vrm1);
  const springBone = json.extensions!.VRMC_springBone!;
  const humanoidNodes = new Set(Object.values(json.extensions!.VRMC_vrm!.humanoid.humanBones as Record<string, { node: number }>).map((b) => b.node));
  const parentOf = (node: number): number => json.nodes.findIndex((n) => n.children?.includes(node));

  it('lists the three extensions as used, none as required', () => {
    for (const name of ['VRMC_vrm', 'VRMC_springBone', 'VRMC_springBone_extended_collider', 'VRMC_node_constraint']) expect(json.extensionsUsed).toContain(name);
    expect((json as { extensionsRequired?: string[] }).extensionsRequired).toBeUndefined();
  });

  it('springs: at least 60 joints, each the child of the one before, none a humanoid bone, every setting written and valid', () => {
    expect(springBone.specVersion).toBe('1.0');
    const springs = springBone.springs!;
    expect(springs.length).toBe(15);
    let joints = 0;
    for (const spring of springs) {
      expect(spring.joints.length).toBeGreaterThanOrEqual(3);
      joints += spring.joints.length;
      expect(humanoidNodes.has(parentOf(spring.joints[0].node))).toBe(true);
      spring.joints.forEach((joint, i) => {
        expect(humanoidNodes.has(joint.node)).toBe(false);
        if (i > 0) expect(parentOf(joint.node)).toBe(spring.joints[i - 1].node);
        expect(joint.stiffness).toBeGreaterThan(0);
        expect(joint.dragForce).toBeGreaterThan(0);
        expect(joint.dragForce).toBeLessThanOrEqual(1);
        expect(joint.hitRadius).toBeGreaterThan(0);
        expect(Math.hypot(...joint.gravityDir!)).toBeCloseTo(1, 9);
      });
      for (const group of spring.colliderGroups!) expect(group).toBeLessThan(springBone.colliderGroups!.length);
    }
    expect(joints).toBe(76);
    expect(new Set(springs.flatMap((s) => s.joints.map((j) => j.stiffness))).size).toBeGreaterThan(5);
    const centred = springs.filter((s) => s.center !== undefined);
    expect(centred.map((s) => s.name)).toEqual(['tail']);
    expect(json.nodes[centred[0].center!].name).toBe('hips');
    expect(springs.filter((s) => s.joints.some((j) => j.gravityDir![2] !== 0)).length).toBeGreaterThan(0);
  });

  it('colliders on humanoid bones, every shape: extended ones with the specification\'s fallbacks', () => {
    const colliders = springBone.colliders!;
    expect(colliders.length).toBeGreaterThanOrEqual(10);
    const kinds: string[] = [];
    for (const collider of colliders) {
      expect(humanoidNodes.has(collider.node!)).toBe(true);
      const extended = collider.extensions?.VRMC_springBone_extended_collider as
        | { specVersion: string; shape: { sphere?: { inside?: boolean }; capsule?: { inside?: boolean }; plane?: { offset: number[]; normal: number[] } } }
        | undefined;
      if (!extended) { kinds.push(collider.shape!.sphere ? 'sphere' : 'capsule'); continue; }
      expect(extended.specVersion).toBe('1.0');
      const fallback = collider.shape!.sphere!;
      if (extended.shape.plane) {
        kinds.push('plane');
        const { offset, normal } = extended.shape.plane;
        expect(fallback.radius).toBe(1000);
        for (let c = 0; c < 3; c++) expect(fallback.offset![c]).toBeCloseTo(offset[c] - 1000 * normal[c], 9);
      } else {
        kinds.push(extended.shape.sphere?.inside ? 'insideSphere' : extended.shape.capsule?.inside ? 'insideCapsule' : '?');
        expect(fallback.radius).toBe(0);
        expect(fallback.offset).toEqual([0, -10000, 0]);
      }
    }
    expect([...new Set(kinds)].sort()).toEqual(['capsule', 'insideCapsule', 'insideSphere', 'plane', 'sphere']);
    for (const group of springBone.colliderGroups!) {
      expect(group.colliders!.length).toBeGreaterThan(0);
      for (const c of group.colliders!) expect(c).toBeLessThan(colliders.length);
    }
  });

  it('node constraints: per arm roll (hand) → rotation → aim, on joints that are not humanoid bones', () => {
    const constrained = json.nodes.map((n, i) => [i, n.extensions?.VRMC_node_constraint] as const).filter(([, c]) => c);
    expect(constrained.length).toBe(6);
    for (const [node, c] of constrained) {
      expect(humanoidNodes.has(node)).toBe(false);
      expect(c!.specVersion).toBe('1.0');
    }
    const byName = (name: string) => json.nodes.find((n) => n.name === name)!.extensions!.VRMC_node_constraint!.constraint;
    const index = (name: string) => json.nodes.findIndex((n) => n.name === name);
    expect(byName('leftForearmTwist').roll).toEqual({ source: index('leftHand'), rollAxis: 'X', weight: 0.6 });
    expect(byName('leftElbowCuff').rotation).toEqual({ source: index('leftForearmTwist'), weight: 0.5 });
    expect(byName('rightCuffFin').aim).toEqual({ source: index('rightMiddleProximal'), aimAxis: 'NegativeX', weight: 1 });
  });

  it('without secondary motion: the 55-joint avatar and no spring or constraint extension', async () => {
    const plain = jsonOf(await buildAvatarVrm1({ secondaryMotion: false }));
    expect(plain.extensionsUsed).toEqual(['VRMC_vrm']);
    expect(plain.nodes.length).toBe(55 + 4);
  });
});

describe('buildAvatarVrm0', () => {
  const json = jsonOf(vrm0);
  const ext = json.extensions!.VRM!;

  it('faces −Z: the left eye is at −X and in front means z < 0', async () => {
    const document = await read(vrm0);
    const leftEye = worldOf(document, 'leftEye');
    expect(leftEye[0]).toBeLessThan(0);
    expect(leftEye[2]).toBeLessThan(-0.05);
    expect(worldOf(document, 'leftHand')[0]).toBeLessThan(-0.5);
  });

  it('names the thumbs the 0.x way and maps all 55 bones once', () => {
    const bones = ext.humanoid!.humanBones!;
    expect(bones.length).toBe(55);
    expect(new Set(bones.map((b) => b.node)).size).toBe(55);
    const names = bones.map((b) => b.bone);
    expect(names).toContain('leftThumbIntermediate');
    expect(names).not.toContain('leftThumbMetacarpal');
    expect(json.nodes[bones.find((b) => b.bone === 'leftThumbIntermediate')!.node!].name).toBe('leftThumbProximal');
  });

  it('has blend shape groups with 0.x presets, weights 0–100, material values, and the first-person block', () => {
    const groups = ext.blendShapeMaster!.blendShapeGroups!;
    expect(groups.find((g) => g.name === 'happy')!.presetName).toBe('joy');
    expect(groups.find((g) => g.name === 'surprised')!.presetName).toBe('unknown');
    expect(groups.find((g) => g.name === 'blink')!.isBinary).toBe(true);
    for (const group of groups) for (const bind of group.binds!) {
      expect(json.meshes[bind.mesh!].name).toBe('Face');
      expect(bind.weight).toBeGreaterThan(1);
      expect(bind.weight).toBeLessThanOrEqual(100);
    }
    expect(groups.find((g) => g.name === 'angry')!.materialValues![0]).toEqual({ materialName: 'Cheek', propertyName: '_Color', targetValue: [0.9, 0.05, 0.03, 1] });
    // 1.0 offset (0.25, 0.5), scale (2, 1): 0.x's V offset is 1 − 0.5 − 1 = −0.5.
    expect(groups.find((g) => g.name === 'cheekPuff')!.materialValues![0].targetValue).toEqual([2, 1, 0.25, -0.5]);
    const firstPerson = ext.firstPerson!;
    expect(json.nodes[firstPerson.firstPersonBone!].name).toBe('head');
    expect(firstPerson.lookAtTypeName).toBe('Bone');
    expect(firstPerson.lookAtHorizontalOuter!.yRange).toBe(12);
    expect(firstPerson.meshAnnotations!.map((a) => `${json.meshes[a.mesh!].name}:${a.firstPersonFlag}`).sort())
      .toEqual(['Body:Both', 'Face:Auto', 'Hair:ThirdPersonOnly', 'NeckCap:FirstPersonOnly']);
    expect(ext.meta!.licenseName).toBe('CC0');
  });

  it('secondaryAnimation: the 1.0 springs as bone groups, sphere colliders stored with x and z as 0.x keeps them', () => {
    const secondary = ext.secondaryAnimation!;
    const groups = secondary.boneGroups!;
    expect(groups.map((g) => g.comment)).toEqual(['hairLock', 'hairSide', 'hairBack', 'tail', 'ears']);
    expect(groups.reduce((n, g) => n + g.bones!.length, 0)).toBe(15);
    const tail = groups.find((g) => g.comment === 'tail')!;
    expect(json.nodes[tail.center!].name).toBe('hips');
    expect(json.nodes[tail.bones![0]].name).toBe('tail0');
    expect(groups.find((g) => g.comment === 'ears')!.center).toBe(-1);
    for (const g of groups) {
      expect(g.stiffiness).toBeGreaterThan(0);
      for (const c of g.colliderGroups!) expect(c).toBeLessThan(secondary.colliderGroups!.length);
    }
    // The 1.0 head sphere at (0, 0.09, −0.01) in the head's space: the −Z-facing file has it at (0, 0.09, 0.01),
    // stored z-negated as 0.x keeps it: (0, 0.09, −0.01).
    const head = secondary.colliderGroups!.find((g) => json.nodes[g.node!].name === 'head')!;
    expect(head.colliders).toEqual([{ offset: { x: 0, y: 0.09, z: -0.01 }, radius: 0.105 }]);
    // The left upper arm's capsule (+X in 1.0, 0.26 m, radius 0.05) as spheres along −X in the file, 5 cm apart at most.
    const arm = secondary.colliderGroups!.find((g) => json.nodes[g.node!].name === 'leftUpperArm')!.colliders!;
    expect(arm.length).toBeGreaterThanOrEqual(6);
    expect(arm[arm.length - 1].offset!.x).toBeCloseTo(-0.26, 9);
    for (let i = 1; i < arm.length; i++) expect(Math.abs(arm[i].offset!.x! - arm[i - 1].offset!.x!)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(json.nodes.some((n) => (n as { extensions?: object }).extensions)).toBe(false);
  });
});

/** World rotation and position of every node at key k of the first animation (local TRS from the keys, else the rest). */
function worldAtKey(document: Document, k: number): Map<string, { position: number[] }> {
  const keyed = new Map<Node, { translation?: number[]; rotation?: number[] }>();
  for (const channel of document.getRoot().listAnimations()[0].listChannels()) {
    const values = channel.getSampler()!.getOutput()!.getArray()!;
    const size = channel.getTargetPath() === 'rotation' ? 4 : 3;
    const entry = keyed.get(channel.getTargetNode()!) ?? {};
    entry[channel.getTargetPath() as 'translation' | 'rotation'] = Array.from(values.subarray(size * k, size * k + size));
    keyed.set(channel.getTargetNode()!, entry);
  }
  const out = new Map<string, { position: number[] }>();
  const visit = (node: Node, parentRotation: number[], parentPosition: number[]): void => {
    const local = keyed.get(node);
    const t = local?.translation ?? node.getTranslation();
    const r = local?.rotation ?? node.getRotation();
    const position = addVec(parentPosition, rotate(parentRotation, t));
    const rotation = multiply(parentRotation, r);
    out.set(node.getName(), { position });
    for (const child of node.listChildren()) visit(child, rotation, position);
  };
  for (const node of document.getRoot().listScenes()[0].listChildren()) visit(node, [0, 0, 0, 1], [0, 0, 0]);
  return out;
}
const addVec = (a: number[], b: number[]): number[] => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
function multiply(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}
function rotate(q: number[], v: number[]): number[] {
  const r = multiply(multiply(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

describe('buildMixamoRig and buildVrmaClip', () => {
  it('the Mixamo rig has mixamorig: joints with along-bone rest rotations, end joints, no VRM, and a walk clip', async () => {
    const glb = await buildMixamoRig();
    const json = jsonOf(glb);
    expect(json.extensionsUsed ?? []).toEqual([]);
    const document = await read(glb);
    const joints = document.getRoot().listSkins()[0].listJoints();
    expect(joints.length).toBe(55);
    for (const joint of joints) expect(joint.getName()).toMatch(/^mixamorig:[A-Z]/);
    const names = joints.map((j) => j.getName());
    for (const name of ['Hips', 'Spine', 'Spine1', 'Spine2', 'LeftArm', 'LeftForeArm', 'LeftHandThumb1', 'LeftHandPinky3', 'RightUpLeg', 'RightToeBase']) {
      expect(names).toContain(`mixamorig:${name}`);
    }
    const nodeNames = document.getRoot().listNodes().map((n) => n.getName());
    expect(nodeNames).toContain('mixamorig:HeadTop_End');
    expect(nodeNames).toContain('mixamorig:LeftHandIndex4');
    const leftShoulder = joints.find((j) => j.getName() === 'mixamorig:LeftShoulder')!;
    expect(Math.abs(leftShoulder.getRotation()[3])).toBeLessThan(0.99);
    const animations = document.getRoot().listAnimations();
    expect(animations.map((a) => a.getName())).toEqual(['walk']);
  });

  it('the VRMA clip maps every bone, three expressions and look-at, and lasts the duration asked', async () => {
    const glb = await buildVrmaClip({ duration: 60 });
    const ext = jsonOf(glb).extensions!.VRMC_vrm_animation!;
    const json = jsonOf(glb);
    expect(ext.specVersion).toBe('1.0');
    expect(Object.keys(ext.humanoid!.humanBones).sort()).toEqual([...ALL_BONES].sort());
    expect(Object.keys(ext.expressions!.preset!).sort()).toEqual(['aa', 'blink']);
    expect(Object.keys(ext.expressions!.custom!)).toEqual(['cheekPuff']);
    expect(json.nodes[ext.lookAt!.node].name).toBe('LookAt');
    const document = await read(glb);
    const channels = document.getRoot().listAnimations()[0].listChannels();
    const input = channels[0].getSampler()!.getInput()!.getArray()!;
    expect(input[input.length - 1]).toBeCloseTo(60, 4);
    const byNode = (name: string) => channels.filter((c) => c.getTargetNode()!.getName() === name).map((c) => c.getTargetPath()).sort();
    expect(byNode('hips')).toEqual(['rotation', 'translation']);
    expect(byNode('Expression_blink')).toEqual(['translation']);
    expect(byNode('LookAt')).toEqual(['rotation']);
    const blink = channels.find((c) => c.getTargetNode()!.getName() === 'Expression_blink')!.getSampler()!.getOutput()!.getArray()!;
    expect(Math.max(...blink)).toBe(1);
    for (const node of document.getRoot().listNodes()) expect(node.getRotation()).toEqual([0, 0, 0, 1]);
  });

  it('the Mixamo clip and the VRMA clip pose the skeleton alike: every joint at the same place at each key', async () => {
    const mixamo = await read(await buildMixamoRig());
    const vrma = await read(await buildVrmaClip());
    const mixamoName = (bone: string): string => {
      const table: Record<string, string> = { leftUpperArm: 'LeftArm', leftLowerArm: 'LeftForeArm', leftHand: 'LeftHand', rightLowerLeg: 'RightLeg', rightFoot: 'RightFoot', head: 'Head', leftToes: 'LeftToeBase' };
      return `mixamorig:${table[bone]}`;
    };
    for (const k of [0, 5, 11, 20, 30]) {
      const a = worldAtKey(mixamo, k), b = worldAtKey(vrma, k);
      for (const bone of ['leftUpperArm', 'leftLowerArm', 'leftHand', 'rightLowerLeg', 'rightFoot', 'head', 'leftToes']) {
        const pa = a.get(mixamoName(bone))!.position, pb = b.get(bone)!.position;
        for (let c = 0; c < 3; c++) expect(pa[c], `${bone} key ${k}`).toBeCloseTo(pb[c], 4);
      }
      // The clip moves the hand away from its T-pose place.
      expect(Math.abs(b.get('leftHand')!.position[1] - 1.32)).toBeGreaterThan(0.2);
    }
  });
});

// The Khronos glTF validator (devDependency `gltf-validator`): the generated files are valid glTF 2.0.
describe('the Khronos glTF validator', () => {
  it('finds no errors in the four files', async () => {
    const validator = await import('gltf-validator');
    for (const glb of [vrm1, vrm0, await buildMixamoRig(), await buildVrmaClip()]) {
      const report = await validator.validateBytes(glb);
      expect(report.issues.numErrors, JSON.stringify(report.issues.messages.filter((m) => m.severity === 0).slice(0, 5))).toBe(0);
    }
  });
});
