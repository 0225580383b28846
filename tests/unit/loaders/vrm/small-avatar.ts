import { GltfBuilder } from '../../helpers/gltf-builder.ts';

/**
 * The bones of the small test avatar: name, parent bone (null: child of the `Armature` root), rest translation.
 * The humanoid names are VRM 1.0's; `leftThumb1`/`leftThumb2` are the thumb's first two joints.
 */
export const BONES: readonly (readonly [string, string | null, readonly [number, number, number]])[] = [
  ['hips', null, [0, 1, 0]], ['spine', 'hips', [0, 0.1, 0]], ['chest', 'spine', [0, 0.1, 0]], ['neck', 'chest', [0, 0.2, 0]],
  ['head', 'neck', [0, 0.1, 0]], ['leftEye', 'head', [0.03, 0.05, 0.05]], ['rightEye', 'head', [-0.03, 0.05, 0.05]],
  ['leftUpperLeg', 'hips', [0.1, -0.05, 0]], ['leftLowerLeg', 'leftUpperLeg', [0, -0.4, 0]], ['leftFoot', 'leftLowerLeg', [0, -0.4, 0]],
  ['rightUpperLeg', 'hips', [-0.1, -0.05, 0]], ['rightLowerLeg', 'rightUpperLeg', [0, -0.4, 0]], ['rightFoot', 'rightLowerLeg', [0, -0.4, 0]],
  ['leftUpperArm', 'chest', [0.2, 0.15, 0]], ['leftLowerArm', 'leftUpperArm', [0.25, 0, 0]], ['leftHand', 'leftLowerArm', [0.25, 0, 0]],
  ['rightUpperArm', 'chest', [-0.2, 0.15, 0]], ['rightLowerArm', 'rightUpperArm', [-0.25, 0, 0]], ['rightHand', 'rightLowerArm', [-0.25, 0, 0]],
  ['leftThumb1', 'leftHand', [0.02, 0, 0.02]], ['leftThumb2', 'leftThumb1', [0.02, 0, 0.01]],
];

/** glTF node of bone i: nodes 0 `Armature`, 1… the bones in {@link BONES} order, then `Body` (skinned), `Face` and `Face2` (morphs). */
export const nodeOfBone = (name: string): number => 1 + BONES.findIndex(([bone]) => bone === name);
export const BODY_NODE = 1 + BONES.length;
export const FACE_NODE = BODY_NODE + 1;
export const FACE2_NODE = BODY_NODE + 2;

/**
 * A small skinned humanoid as a glTF (no VRM extension yet: tests add `VRMC_vrm` or `VRM`): an `Armature` root
 * translated by (0.5, 0, 0.25) and turned a quarter about Y, the bones of {@link BONES}, a `Body` node with a
 * triangle skinned to hips and leftHand (skin 0 over every bone, inverse binds from the rest pose), and a `Face`
 * node and a `Face2` node under the head, each with mesh 1 (a triangle of 2 morph targets), materials `Skin` and `Face`, and one clip that
 * moves the `Armature` (translation and rotation keys at 0 and 1 s).
 */
export function smallAvatar(): GltfBuilder {
  const b = new GltfBuilder();
  const world = new Map<string, [number, number, number]>();
  for (const [bone, parent, t] of BONES) {
    const p = parent === null ? [0, 0, 0] : world.get(parent)!;
    world.set(bone, [p[0] + t[0], p[1] + t[1], p[2] + t[2]]);
  }
  // Inverse bind matrices relative to the Armature (the skinned mesh's vertices are in the Armature's space).
  const ibm = new Float32Array(16 * BONES.length);
  BONES.forEach(([bone], i) => {
    const [x, y, z] = world.get(bone)!;
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1], 16 * i);
  });
  const hand = BONES.findIndex(([bone]) => bone === 'leftHand');
  const bodyPositions = b.accessor(new Float32Array([0, 1, 0.1, 0.1, 1.1, 0.2, 0.7, 1.35, 0.05]), 'VEC3', { min: [0, 1, 0.05], max: [0.7, 1.35, 0.2] });
  const joints = b.accessor(new Uint8Array([0, 0, 0, 0, 0, hand, 0, 0, hand, 0, 0, 0]), 'VEC4');
  const weights = b.accessor(new Float32Array([1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0]), 'VEC4');
  const inverseBinds = b.accessor(ibm, 'MAT4');
  const facePositions = b.accessor(new Float32Array([0, 0, 0.1, 0.05, 0, 0.1, 0, 0.05, 0.1]), 'VEC3', { min: [0, 0, 0.1], max: [0.05, 0.05, 0.1] });
  const target0 = b.accessor(new Float32Array([0, 0.01, 0, 0, 0.01, 0, 0, 0.01, 0]), 'VEC3', { min: [0, 0.01, 0], max: [0, 0.01, 0] });
  const target1 = b.accessor(new Float32Array([0, 0, 0.02, 0, 0, 0.02, 0, 0, 0.02]), 'VEC3', { min: [0, 0, 0.02], max: [0, 0, 0.02] });
  const times = b.accessor(new Float32Array([0, 1]), 'SCALAR', { min: [0], max: [1] });
  const moves = b.accessor(new Float32Array([0.5, 0, 0.25, 1, 0.5, -0.5]), 'VEC3');
  const s = Math.SQRT1_2;
  const turns = b.accessor(new Float32Array([0, s, 0, s, 0, 0, 0, 1]), 'VEC4');
  const boneNodes = BONES.map(([bone, parent, t]) => ({
    name: bone,
    translation: [...t],
    children: BONES.flatMap(([, p], i) => (p === bone ? [1 + i] : [])).concat(bone === 'head' ? [FACE_NODE, FACE2_NODE] : []),
  }));
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [0, BODY_NODE] }],
    nodes: [
      { name: 'Armature', translation: [0.5, 0, 0.25], rotation: [0, s, 0, s], children: BONES.flatMap(([, p], i) => (p === null ? [1 + i] : [])) },
      ...boneNodes.map((n) => (n.children.length > 0 ? n : { name: n.name, translation: n.translation })),
      { name: 'Body', mesh: 0, skin: 0 },
      { name: 'Face', mesh: 1 },
      { name: 'Face2', mesh: 1, translation: [0, 0, 0.01] },
    ],
    materials: [{ name: 'Skin' }, { name: 'Face' }],
    meshes: [
      { name: 'Body', primitives: [{ attributes: { POSITION: bodyPositions, JOINTS_0: joints, WEIGHTS_0: weights }, material: 0 }] },
      { name: 'Face', primitives: [{ attributes: { POSITION: facePositions }, targets: [{ POSITION: target0 }, { POSITION: target1 }], material: 1 }] },
    ],
    skins: [{ joints: BONES.map((_, i) => 1 + i), inverseBindMatrices: inverseBinds, skeleton: 0 }],
    animations: [{
      name: 'sway',
      samplers: [{ input: times, output: moves }, { input: times, output: turns }],
      channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }, { sampler: 1, target: { node: 0, path: 'rotation' } }],
    }],
  });
  return b;
}

/** The small avatar's humanoid as VRM 1.0 `humanBones` (thumb: metacarpal and proximal). */
export function vrm1HumanBones(): Record<string, { node: number }> {
  const bones: Record<string, { node: number }> = {};
  for (const [bone] of BONES) {
    const name = bone === 'leftThumb1' ? 'leftThumbMetacarpal' : bone === 'leftThumb2' ? 'leftThumbProximal' : bone;
    bones[name] = { node: nodeOfBone(bone) };
  }
  return bones;
}

/** The small avatar's humanoid as VRM 0.x `humanBones` (thumb: 0.x's proximal and intermediate). */
export function vrm0HumanBones(): { bone: string; node: number }[] {
  return BONES.map(([bone]) => ({
    bone: bone === 'leftThumb1' ? 'leftThumbProximal' : bone === 'leftThumb2' ? 'leftThumbIntermediate' : bone,
    node: nodeOfBone(bone),
  }));
}

/** The small avatar with a VRM 1.0 `VRMC_vrm` extension; `vrm` is merged over the minimal one (meta, humanoid). */
export function smallVrm1(vrm: Record<string, unknown> = {}): GltfBuilder {
  const b = smallAvatar();
  b.json.extensionsUsed = ['VRMC_vrm'];
  b.json.extensions = {
    VRMC_vrm: {
      specVersion: '1.0',
      meta: { name: 'Small', authors: ['Sinew tests'], licenseUrl: 'https://vrm.dev/licenses/1.0/' },
      humanoid: { humanBones: vrm1HumanBones() },
      ...vrm,
    },
  };
  return b;
}

/** The small avatar with a VRM 0.x `VRM` extension; `vrm` is merged over the minimal one (meta, humanoid). */
export function smallVrm0(vrm: Record<string, unknown> = {}): GltfBuilder {
  const b = smallAvatar();
  b.json.extensionsUsed = ['VRM'];
  b.json.extensions = { VRM: { specVersion: '0.0', meta: { title: 'Small' }, humanoid: { humanBones: vrm0HumanBones() }, ...vrm } };
  return b;
}
