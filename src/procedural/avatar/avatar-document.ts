import { Document, type Material, type Node, type Texture } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES } from './avatar-bones.ts';
import { AVATAR_EXTRA_JOINTS } from './avatar-extra-joints.ts';
import { createAvatarMeshes, type AvatarMaterialName } from './avatar-geometry.ts';
import { AVATAR_TOON_MATERIALS, type AvatarToonMaterialName } from './avatar-mtoon.ts';
import { AVATAR_TOON_IMAGES, type AvatarMToonImageName } from './avatar-mtoon-textures.ts';
import { encodePngRgba } from './png-encode.ts';

/** How {@link createAvatarDocument} lays the avatar out. */
export interface AvatarDocumentOptions {
  /** `+z`: VRM 1.0's front; `-z`: VRM 0.x's (the whole avatar turned 180° about Y, its left on −X). */
  readonly facing: '+z' | '-z';
  /** The glTF node name of each humanoid bone's joint. */
  readonly jointName: (bone: HumanoidBoneName) => string;
  /**
   * `identity`: every joint's rest rotation is the identity (VRM's normalised T-pose); `along-bone`: each joint's
   * local +Y points along its bone, as Mixamo and Blender rigs have it.
   */
  readonly restRotations: 'identity' | 'along-bone';
  /** Whether the `Cheek` material gets its small base colour texture (an 8 × 8 PNG). */
  readonly texture: boolean;
  /** When set, a child node named `endName(bone)` at the tail of each end bone (finger tips, toes, head top). */
  readonly endName?: (bone: HumanoidBoneName) => string;
  /**
   * Whether the skeleton gets {@link AVATAR_EXTRA_JOINTS} (skin joints 55 on, rest rotations the identity) and the
   * meshes the parts skinned to them (hair strands, ears, tail, bracers; see {@link createAvatarMeshes}). Needs
   * `restRotations: 'identity'`. Default false.
   */
  readonly secondaryMotion?: boolean;
  /**
   * The toon avatar's materials ({@link AVATAR_TOON_MATERIALS}: lit colour, alpha, emission, normal map; the
   * bracers on their own `Bracer` material) and, with `texture`, every image they and their MToon slots use, each
   * a glTF-Transform texture named as its image (the writers add the MToon extensions and point them at the images
   * by name). Default false: the PBR materials of {@link AVATAR_MATERIALS}.
   */
  readonly toon?: boolean;
}

/** The avatar's glTF document and the nodes the writers reference by humanoid bone. */
export interface AvatarDocument {
  readonly document: Document;
  /** Joint node of each humanoid bone. */
  readonly joints: ReadonlyMap<HumanoidBoneName, Node>;
}

/** Linear base colours and roughness of the avatar's materials. */
export const AVATAR_MATERIALS: Readonly<Record<AvatarMaterialName, { readonly color: readonly [number, number, number, number]; readonly roughness: number }>> = {
  Skin: { color: [0.8, 0.5, 0.38, 1], roughness: 0.6 },
  Hair: { color: [0.12, 0.05, 0.025, 1], roughness: 0.5 },
  Eye: { color: [0.9, 0.9, 0.88, 1], roughness: 0.2 },
  Pupil: { color: [0.02, 0.02, 0.03, 1], roughness: 0.2 },
  Cheek: { color: [1, 0.6, 0.6, 1], roughness: 0.6 },
  Mouth: { color: [0.25, 0.02, 0.03, 1], roughness: 0.4 },
};

/** The cheeks' texture: 8 × 8 RGBA, pink and white stripes across u (so a texture transform visibly moves them). */
function cheekTexture(): Uint8Array {
  const rgba = new Uint8Array(4 * 64);
  for (let i = 0; i < 64; i++) {
    const stripe = (i % 8) >> 1 & 1;
    rgba.set(stripe ? [255, 150, 170, 255] : [255, 235, 235, 255], 4 * i);
  }
  return encodePngRgba(8, 8, rgba);
}

/**
 * The generated avatar as a glTF-Transform document (no VRM extension yet; the writers add it to the JSON): one
 * scene holding the joint tree (hips at the top) and four skinned mesh nodes (`Body`, `Face`, `Hair`, `NeckCap`;
 * see {@link createAvatarMeshes}) sharing one skin whose joint i is {@link AVATAR_BONES}[i] (then, with
 * `secondaryMotion`, the extra joints), bound in the T-pose (inverse bind matrix = inverse of the joint's rest
 * model matrix). Metres, Y up; deterministic.
 */
export function createAvatarDocument(options: AvatarDocumentOptions): AvatarDocument {
  const document = new Document();
  const buffer = document.createBuffer();
  const scene = document.createScene('Scene');
  const flip = options.facing === '-z' ? -1 : 1;
  const turn = (p: readonly number[]): vec3 => vec3.fromValues(flip * p[0], p[1], flip * p[2]);

  const worldRotations: quat[] = [];
  const joints = new Map<HumanoidBoneName, Node>();
  const nodes: Node[] = [];
  const secondary = options.secondaryMotion ?? false;
  if (secondary && options.restRotations !== 'identity') throw new Error('createAvatarDocument: secondaryMotion needs identity rest rotations');
  const extras = secondary ? AVATAR_EXTRA_JOINTS : [];
  const ibm = new Float32Array(16 * (AVATAR_BONES.length + extras.length));
  const inverseParent = quat.create(), offset = vec3.create(), world = mat4.create();
  for (let i = 0; i < AVATAR_BONES.length; i++) {
    const bone = AVATAR_BONES[i];
    const position = turn(bone.position);
    const rotation = quat.create();
    if (options.restRotations === 'along-bone') {
      if (bone.tail) {
        const direction = vec3.normalize(vec3.create(), vec3.sub(vec3.create(), turn(bone.tail), position));
        quat.rotationTo(rotation, [0, 1, 0], direction);
      } else if (bone.parent >= 0) {
        quat.copy(rotation, worldRotations[bone.parent]);
      }
    }
    worldRotations.push(rotation);
    const node = document.createNode(options.jointName(bone.name));
    if (bone.parent >= 0) {
      quat.invert(inverseParent, worldRotations[bone.parent]);
      vec3.transformQuat(offset, vec3.sub(offset, position, turn(AVATAR_BONES[bone.parent].position)), inverseParent);
      node.setTranslation([offset[0], offset[1], offset[2]]);
      const local = quat.multiply(quat.create(), inverseParent, rotation);
      if (options.restRotations === 'along-bone') node.setRotation([local[0], local[1], local[2], local[3]]);
      nodes[bone.parent].addChild(node);
    } else {
      node.setTranslation([position[0], position[1], position[2]]);
      if (options.restRotations === 'along-bone') node.setRotation([rotation[0], rotation[1], rotation[2], rotation[3]]);
      scene.addChild(node);
    }
    if (options.endName && bone.tail && !AVATAR_BONES.some((other) => other.parent === i && other.tail)) {
      vec3.transformQuat(offset, vec3.sub(offset, turn(bone.tail), position), quat.invert(quat.create(), rotation));
      node.addChild(document.createNode(options.endName(bone.name)).setTranslation([offset[0], offset[1], offset[2]]));
    }
    nodes.push(node);
    joints.set(bone.name, node);
    mat4.fromRotationTranslation(world, rotation, position);
    mat4.invert(world, world);
    ibm.set(world, 16 * i);
  }
  for (let e = 0; e < extras.length; e++) {
    const joint = extras[e];
    const parent = joints.has(joint.parent as HumanoidBoneName)
      ? joints.get(joint.parent as HumanoidBoneName)!
      : nodes[AVATAR_BONES.length + extras.findIndex((other) => other.name === joint.parent)];
    const parentPosition = parent.getWorldTranslation();
    const position = turn(joint.position);
    const node = document.createNode(joint.name)
      .setTranslation([position[0] - parentPosition[0], position[1] - parentPosition[1], position[2] - parentPosition[2]]);
    parent.addChild(node);
    nodes.push(node);
    mat4.fromTranslation(world, position);
    mat4.invert(world, world);
    ibm.set(world, 16 * (AVATAR_BONES.length + e));
  }

  const skin = document.createSkin('Skin').setSkeleton(nodes[0])
    .setInverseBindMatrices(document.createAccessor('InverseBindMatrices').setType('MAT4').setArray(ibm).setBuffer(buffer));
  for (const node of nodes) skin.addJoint(node);

  const toon = options.toon ?? false;
  const materials = toon ? createToonMaterials(document, options.texture) : new Map<AvatarToonMaterialName, Material>();
  if (!toon) {
    for (const [name, { color, roughness }] of Object.entries(AVATAR_MATERIALS) as [AvatarMaterialName, (typeof AVATAR_MATERIALS)['Skin']][]) {
      const material = document.createMaterial(name).setBaseColorFactor([...color]).setMetallicFactor(0).setRoughnessFactor(roughness);
      if (name === 'Hair') material.setDoubleSided(true);
      if (name === 'Cheek' && options.texture) {
        material.setBaseColorTexture(document.createTexture('CheekStripes').setImage(cheekTexture()).setMimeType('image/png'));
      }
      materials.set(name, material);
    }
  }

  const accessor = (name: string, type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR', array: Float32Array | Uint8Array | Uint16Array | Uint32Array) =>
    document.createAccessor(name).setType(type).setArray(array).setBuffer(buffer);
  const flipped = (values: Float32Array): Float32Array => {
    if (flip === 1) return values;
    const out = values.slice();
    for (let i = 0; i < out.length; i += 3) { out[i] = -out[i]; out[i + 2] = -out[i + 2]; }
    return out;
  };
  for (const avatarMesh of createAvatarMeshes({ secondaryMotion: secondary })) {
    const mesh = document.createMesh(avatarMesh.name);
    avatarMesh.primitives.forEach((source, p) => {
      const tag = `${avatarMesh.name}${p}`;
      // The Body mesh's only `Mouth` primitive is the bracers, which the toon avatar gives their own material.
      const materialName = toon && avatarMesh.name === 'Body' && source.material === 'Mouth' ? 'Bracer' : source.material;
      const primitive = document.createPrimitive()
        .setMaterial(materials.get(materialName)!)
        .setIndices(accessor(`${tag}_indices`, 'SCALAR', source.indices))
        .setAttribute('POSITION', accessor(`${tag}_POSITION`, 'VEC3', flipped(source.positions)))
        .setAttribute('NORMAL', accessor(`${tag}_NORMAL`, 'VEC3', flipped(source.normals)))
        .setAttribute('TEXCOORD_0', accessor(`${tag}_TEXCOORD_0`, 'VEC2', source.uvs))
        .setAttribute('JOINTS_0', accessor(`${tag}_JOINTS_0`, 'VEC4', source.joints))
        .setAttribute('WEIGHTS_0', accessor(`${tag}_WEIGHTS_0`, 'VEC4', source.weights));
      source.targets.forEach((deltas, t) => {
        primitive.addTarget(document.createPrimitiveTarget(avatarMesh.targetNames[t])
          .setAttribute('POSITION', accessor(`${tag}_target${t}`, 'VEC3', flipped(deltas))));
      });
      mesh.addPrimitive(primitive);
    });
    if (avatarMesh.targetNames.length > 0) {
      mesh.setWeights(new Array<number>(avatarMesh.targetNames.length).fill(0)).setExtras({ targetNames: [...avatarMesh.targetNames] });
    }
    scene.addChild(document.createNode(avatarMesh.name).setMesh(mesh).setSkin(skin));
  }
  return { document, joints };
}

/**
 * The toon avatar's glTF materials ({@link AVATAR_TOON_MATERIALS}); with `texture`, every toon image as a texture
 * named as its image, the glTF slots (base colour, emission, normal) set. Roughness is the PBR avatar's (0.4 for
 * `Bracer`), for readers without MToon.
 */
function createToonMaterials(document: Document, texture: boolean): Map<AvatarToonMaterialName, Material> {
  const textures = new Map<AvatarMToonImageName, Texture>();
  if (texture) {
    textures.set('CheekStripes', document.createTexture('CheekStripes').setImage(cheekTexture()).setMimeType('image/png'));
    for (const [name, make] of Object.entries(AVATAR_TOON_IMAGES)) {
      textures.set(name as AvatarMToonImageName, document.createTexture(name).setImage(make()).setMimeType('image/png'));
    }
  }
  const materials = new Map<AvatarToonMaterialName, Material>();
  for (const [name, toon] of Object.entries(AVATAR_TOON_MATERIALS) as [AvatarToonMaterialName, (typeof AVATAR_TOON_MATERIALS)['Skin']][]) {
    const material = document.createMaterial(name).setBaseColorFactor([...toon.color]).setMetallicFactor(0)
      .setRoughnessFactor(name === 'Bracer' ? 0.4 : AVATAR_MATERIALS[name].roughness)
      .setAlphaMode(toon.alphaMode).setDoubleSided(toon.doubleSided);
    if (toon.alphaCutoff !== undefined) material.setAlphaCutoff(toon.alphaCutoff);
    if (toon.emissive) material.setEmissiveFactor([...toon.emissive]);
    const image = (name?: AvatarMToonImageName): Texture | null => (name && textures.get(name)) || null;
    material.setBaseColorTexture(image(toon.baseColorImage)).setEmissiveTexture(image(toon.emissiveImage)).setNormalTexture(image(toon.normalImage));
    materials.set(name, material);
  }
  return materials;
}
