import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';

type Vec3 = readonly [number, number, number];

/**
 * A joint the generated avatar adds to its humanoid skeleton for secondary motion (spring chains, constraint
 * targets): not a humanoid bone, rest rotation the identity as every joint of the avatar.
 */
export interface AvatarExtraJoint {
  /** The glTF node name (unique in the file). */
  readonly name: string;
  /** The parent: a humanoid bone's joint or an extra joint listed earlier. */
  readonly parent: string;
  /** Model-space position in the T-pose, metres, facing +Z with the avatar's left on +X (VRM 1.0). */
  readonly position: Vec3;
}

/** A collider of the generated avatar, on a humanoid bone's joint; node-local = model axes (rest rotations are the identity). */
export interface AvatarCollider {
  readonly name: string;
  readonly bone: HumanoidBoneName;
  /**
   * The shape, metres, in the joint's space: `sphere` and `capsule` with `inside: false` are VRMC_springBone 1.0
   * shapes; `plane` and the `inside: true` forms are VRMC_springBone_extended_collider 1.0 shapes.
   */
  readonly shape:
    | { readonly kind: 'sphere'; readonly offset: Vec3; readonly radius: number; readonly inside: boolean }
    | { readonly kind: 'capsule'; readonly offset: Vec3; readonly tail: Vec3; readonly radius: number; readonly inside: boolean }
    | { readonly kind: 'plane'; readonly offset: Vec3; readonly normal: Vec3 };
}

/** A named set of colliders, by {@link AvatarCollider.name}. */
export interface AvatarColliderGroup {
  readonly name: string;
  readonly colliders: readonly string[];
}

/** One spring joint's settings (VRMC_springBone 1.0 `springs[].joints[]`). */
export interface AvatarSpringSettings {
  /** Metres. */
  readonly hitRadius: number;
  /** Per second. */
  readonly stiffness: number;
  /** Metres per second. */
  readonly gravityPower: number;
  /** Unit, world space. */
  readonly gravityDir: Vec3;
  /** In [0, 1]. */
  readonly dragForce: number;
}

/** A spring chain of the generated avatar: its joints (parents first), each joint's settings, what it collides with. */
export interface AvatarSpring {
  readonly name: string;
  /**
   * The VRM 0.x bone group the chain is written into (0.x settings are per group: the group takes the settings of
   * its springs' first joint).
   */
  readonly group: string;
  /** Extra joint names, parents first: the first is a child of a humanoid bone; the last is the chain's tail. */
  readonly joints: readonly string[];
  /** Per joint of {@link joints} (the last one's settings unused, as VRMC_springBone 1.0 says). */
  readonly settings: readonly AvatarSpringSettings[];
  /** Names of {@link AVATAR_COLLIDER_GROUPS} the chain collides with. */
  readonly colliderGroups: readonly string[];
  /** The humanoid bone whose space the chain's tails live in (VRMC_springBone 1.0 `center`), or null. */
  readonly center: HumanoidBoneName | null;
}

const DOWN: Vec3 = [0, -1, 0];
const DEG = Math.PI / 180;
const round = (x: number): number => Math.round(x * 1e6) / 1e6;
const add = (a: Vec3, b: Vec3, s: number): Vec3 => [round(a[0] + s * b[0]), round(a[1] + s * b[1]), round(a[2] + s * b[2])];
const unit = (v: Vec3): Vec3 => { const l = Math.hypot(...v); return [v[0] / l, v[1] / l, v[2] / l]; };

/** Hair strand angles around the head, degrees from straight behind (−Z) towards the avatar's left (+X). */
const HAIR_ANGLES = [-110, -90, -70, -50, -30, -10, 10, 30, 50, 70, 90, 110] as const;
/** Joints per hair strand (four segments and the tail joint). */
const HAIR_JOINTS = 5;
/** Metres between a strand's joints. */
const HAIR_SEGMENT = 0.075;
/** Joints of the tail (nine segments and the tail joint). */
const TAIL_JOINTS = 10;
const TAIL_SEGMENT = 0.1;
const EAR_JOINTS = 3;

const hairName = (strand: number, joint: number): string => `hair${String(strand).padStart(2, '0')}_${joint}`;

function chain(name: (i: number) => string, parent: string, start: Vec3, direction: Vec3, count: number, step: number, out: AvatarExtraJoint[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    names.push(name(i));
    out.push({ name: name(i), parent: i === 0 ? parent : name(i - 1), position: add(start, direction, i * step) });
  }
  return names;
}

const SPRING_JOINTS: AvatarExtraJoint[] = [];

function buildSprings(): AvatarSpring[] {
  const springs: AvatarSpring[] = [];
  HAIR_ANGLES.forEach((degrees, strand) => {
    const psi = degrees * DEG;
    const out: Vec3 = [Math.sin(psi), 0, -Math.cos(psi)];
    const root: Vec3 = [round(0.1 * out[0]), 1.57, round(-0.008 + 0.11 * out[2])];
    const joints = chain((i) => hairName(strand, i), 'head', root, unit([0.35 * out[0], -1, 0.35 * out[2]]), HAIR_JOINTS, HAIR_SEGMENT, SPRING_JOINTS);
    const side = Math.abs(degrees);
    // Back strands hang on the head and upper back; side strands also meet the arms; the two front locks drift forward.
    const kind = side <= 50 ? 'hairBack' : side <= 90 ? 'hairSide' : 'hairLock';
    const settings: AvatarSpringSettings = kind === 'hairBack'
      ? { hitRadius: 0.02, stiffness: 1.2, gravityPower: 1, gravityDir: DOWN, dragForce: 0.4 }
      : kind === 'hairSide'
        ? { hitRadius: 0.015, stiffness: 0.9, gravityPower: 0.8, gravityDir: DOWN, dragForce: 0.35 }
        : { hitRadius: 0.012, stiffness: 1.5, gravityPower: 0.5, gravityDir: [0, -0.96, 0.28], dragForce: 0.5 };
    springs.push({
      name: `hair${String(strand).padStart(2, '0')}`, group: kind, joints, settings: joints.map(() => settings),
      colliderGroups: kind === 'hairBack' ? ['head', 'torso'] : kind === 'hairSide' ? ['head', 'torso', 'arms'] : ['head', 'arms'],
      center: null,
    });
  });
  // The tail leaves the hips down and backwards; it droops onto the ground and swings within the legs' reach,
  // kept near its rest line by an inside capsule. Stiffness falls and the hit radius grows along it.
  const tail = chain((i) => `tail${i}`, 'hips', [0, 0.9, -0.11], unit([0, -1, -0.45]), TAIL_JOINTS, TAIL_SEGMENT, SPRING_JOINTS);
  springs.push({
    name: 'tail', group: 'tail', joints: tail,
    settings: tail.map((_, i) => ({ hitRadius: round(0.04 + 0.004 * i), stiffness: round(1.2 - 0.08 * i), gravityPower: 2, gravityDir: DOWN, dragForce: 0.3 })),
    colliderGroups: ['legs', 'ground', 'tailBounds'], center: 'hips',
  });
  for (const [side, s] of [['left', 1], ['right', -1]] as const) {
    const ear = chain((i) => `${side}Ear${i}`, 'head', [s * 0.05, 1.6, -0.01], unit([s * 0.25, 1, 0]), EAR_JOINTS, 0.06, SPRING_JOINTS);
    springs.push({
      name: `${side}Ear`, group: 'ears', joints: ear,
      settings: ear.map(() => ({ hitRadius: 0.012, stiffness: 3.5, gravityPower: 0.3, gravityDir: DOWN, dragForce: 0.6 })),
      colliderGroups: ['earBounds'], center: null,
    });
  }
  return springs;
}

/**
 * The generated avatar's spring chains (VRMC_springBone 1.0 `springs`): twelve hair strands of five joints from the
 * head (three settings: back, side, front locks), a ten-joint tail from the hips (its tails in the hips' space:
 * `center`), two three-joint ears. Deterministic.
 */
export const AVATAR_SPRINGS: readonly AvatarSpring[] = buildSprings();

/** The joints of {@link AVATAR_SPRINGS}, parents first. */
export const AVATAR_SPRING_JOINTS: readonly AvatarExtraJoint[] = SPRING_JOINTS;

/**
 * Joints listed by the springs (VRMC_springBone 1.0 `springs[].joints`, each chain's tail joint included): the
 * issue's "spring joints" of `vrm.spring_us_per_avatar`.
 */
export const AVATAR_SPRING_JOINT_COUNT = AVATAR_SPRINGS.reduce((n, spring) => n + spring.joints.length, 0);

/**
 * Joints simulated from the VRM 1.0 file: one per joint with a tail joint after it (the listed joints less one per
 * chain), what three-vrm's `springBoneManager.joints` holds for it.
 */
export const AVATAR_SIMULATED_SPRING_JOINT_COUNT = AVATAR_SPRING_JOINT_COUNT - AVATAR_SPRINGS.length;

/**
 * The generated avatar's colliders, every shape: spheres (head, upper chest), capsules (spine, upper arms, upper
 * and lower legs), and VRMC_springBone_extended_collider 1.0's ground plane (on the hips, at the feet), inside
 * sphere (around the ears) and inside capsule (around the tail's rest line). Node-local metres.
 */
export const AVATAR_COLLIDERS: readonly AvatarCollider[] = [
  { name: 'headSphere', bone: 'head', shape: { kind: 'sphere', offset: [0, 0.09, -0.01], radius: 0.105, inside: false } },
  { name: 'upperChestSphere', bone: 'upperChest', shape: { kind: 'sphere', offset: [0, 0.04, -0.02], radius: 0.11, inside: false } },
  { name: 'spineCapsule', bone: 'spine', shape: { kind: 'capsule', offset: [0, 0, -0.01], tail: [0, 0.3, -0.02], radius: 0.115, inside: false } },
  { name: 'leftUpperArmCapsule', bone: 'leftUpperArm', shape: { kind: 'capsule', offset: [0, 0, 0], tail: [0.26, 0, 0], radius: 0.05, inside: false } },
  { name: 'rightUpperArmCapsule', bone: 'rightUpperArm', shape: { kind: 'capsule', offset: [0, 0, 0], tail: [-0.26, 0, 0], radius: 0.05, inside: false } },
  { name: 'leftUpperLegCapsule', bone: 'leftUpperLeg', shape: { kind: 'capsule', offset: [0, 0, 0], tail: [0, -0.4, 0], radius: 0.075, inside: false } },
  { name: 'rightUpperLegCapsule', bone: 'rightUpperLeg', shape: { kind: 'capsule', offset: [0, 0, 0], tail: [0, -0.4, 0], radius: 0.075, inside: false } },
  { name: 'leftLowerLegCapsule', bone: 'leftLowerLeg', shape: { kind: 'capsule', offset: [0, 0, 0], tail: [0, -0.4, 0], radius: 0.05, inside: false } },
  { name: 'rightLowerLegCapsule', bone: 'rightLowerLeg', shape: { kind: 'capsule', offset: [0, 0, 0], tail: [0, -0.4, 0], radius: 0.05, inside: false } },
  { name: 'groundPlane', bone: 'hips', shape: { kind: 'plane', offset: [0, -0.88, 0], normal: [0, 1, 0] } },
  { name: 'earBoundsSphere', bone: 'head', shape: { kind: 'sphere', offset: [0, 0.2, -0.01], radius: 0.115, inside: true } },
  { name: 'tailBoundsCapsule', bone: 'hips', shape: { kind: 'capsule', offset: [0, -0.05, -0.12], tail: [0, -0.75, -0.45], radius: 0.2, inside: true } },
];

/** The number of {@link AVATAR_COLLIDERS} (the bench asks for at least 10). */
export const AVATAR_COLLIDER_COUNT = AVATAR_COLLIDERS.length;

/** Collider groups per body part (VRMC_springBone 1.0 `colliderGroups`). */
export const AVATAR_COLLIDER_GROUPS: readonly AvatarColliderGroup[] = [
  { name: 'head', colliders: ['headSphere'] },
  { name: 'torso', colliders: ['upperChestSphere', 'spineCapsule'] },
  { name: 'arms', colliders: ['leftUpperArmCapsule', 'rightUpperArmCapsule'] },
  { name: 'legs', colliders: ['leftUpperLegCapsule', 'rightUpperLegCapsule', 'leftLowerLegCapsule', 'rightLowerLegCapsule'] },
  { name: 'ground', colliders: ['groundPlane'] },
  { name: 'earBounds', colliders: ['earBoundsSphere'] },
  { name: 'tailBounds', colliders: ['tailBoundsCapsule'] },
];
