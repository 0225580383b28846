import type { VRMCNodeConstraint } from '@pixiv/types-vrmc-node-constraint-1.0';
import type { SpringBoneCollider, VRMCSpringBone } from '@pixiv/types-vrmc-springbone-1.0';
import type { VRMCSpringBoneExtendedCollider } from '@pixiv/types-vrmc-springbone-extended-collider-1.0';
import { AVATAR_CONSTRAINTS } from './avatar-constraints.ts';
import { AVATAR_COLLIDER_GROUPS, AVATAR_COLLIDERS, AVATAR_SPRINGS, type AvatarCollider } from './avatar-springs.ts';
import { addExtension, indexByName, type GltfJson } from './glb-with-extension.ts';

type Vec3 = [number, number, number];

/** The radius of the fallback sphere that stands in for a plane (VRMC_springBone_extended_collider 1.0, "Fallback: Plane Collider"). */
const PLANE_FALLBACK_RADIUS = 1000;

/**
 * A collider as VRMC_springBone 1.0 writes it. Extended shapes (plane, inside sphere and capsule) go in the
 * `VRMC_springBone_extended_collider` 1.0 extension with a base-shape fallback as that specification's "Exporter
 * Implementation" asks: a plane falls back to a sphere of radius 1000 m centred `offset − normal · 1000` (a reader
 * without the extension sees nearly the same surface); an inside shape to a sphere of radius 0 at (0, −10 000, 0)
 * (never touched).
 */
function colliderJson(json: GltfJson, collider: AvatarCollider): SpringBoneCollider {
  const node = indexByName(json.nodes, collider.bone);
  const shape = collider.shape;
  if (shape.kind === 'sphere' && !shape.inside) return { node, shape: { sphere: { offset: [...shape.offset], radius: shape.radius } } };
  if (shape.kind === 'capsule' && !shape.inside) {
    return { node, shape: { capsule: { offset: [...shape.offset], radius: shape.radius, tail: [...shape.tail] } } };
  }
  let fallback: { offset: Vec3; radius: number };
  let extended: VRMCSpringBoneExtendedCollider['shape'];
  if (shape.kind === 'plane') {
    const [ox, oy, oz] = shape.offset, [nx, ny, nz] = shape.normal, r = PLANE_FALLBACK_RADIUS;
    fallback = { offset: [ox - nx * r, oy - ny * r, oz - nz * r], radius: r };
    extended = { plane: { offset: [...shape.offset], normal: [...shape.normal] } };
  } else {
    fallback = { offset: [0, -10000, 0], radius: 0 };
    extended = shape.kind === 'sphere'
      ? { sphere: { offset: [...shape.offset], radius: shape.radius, inside: true } }
      : { capsule: { offset: [...shape.offset], radius: shape.radius, tail: [...shape.tail], inside: true } };
  }
  const extension: VRMCSpringBoneExtendedCollider = { specVersion: '1.0', shape: extended };
  return { node, shape: { sphere: fallback }, extensions: { VRMC_springBone_extended_collider: extension } };
}

/**
 * Adds the generated avatar's secondary motion to a VRM 1.0 file's JSON:
 * - `VRMC_springBone` 1.0 (VRMC_springBone-1.0 README, "glTF Schema Updates"): {@link AVATAR_COLLIDERS} (node,
 *   shape; extended shapes through `VRMC_springBone_extended_collider` 1.0 on the collider, with fallbacks),
 *   {@link AVATAR_COLLIDER_GROUPS}, and {@link AVATAR_SPRINGS} (joints with every setting written, collider group
 *   indices, `center` on the tail);
 * - `VRMC_node_constraint` 1.0 on each destination node of {@link AVATAR_CONSTRAINTS} (`constraint.roll`, `.aim`
 *   or `.rotation` with `source`, the axis and `weight`);
 * - the three extension names in `extensionsUsed` (none required: a reader without them shows the avatar still).
 * @throws Error if a name of the tables is not a node of `json` (a bug of the tables)
 */
export function addVrm1SecondaryMotion(json: GltfJson): void {
  const colliderIndex = (name: string): number => AVATAR_COLLIDERS.findIndex((collider) => collider.name === name);
  const groupIndex = (name: string): number => AVATAR_COLLIDER_GROUPS.findIndex((group) => group.name === name);
  const springBone: VRMCSpringBone = {
    specVersion: '1.0',
    colliders: AVATAR_COLLIDERS.map((collider) => colliderJson(json, collider)),
    colliderGroups: AVATAR_COLLIDER_GROUPS.map((group) => ({ name: group.name, colliders: group.colliders.map(colliderIndex) })),
    springs: AVATAR_SPRINGS.map((spring) => ({
      name: spring.name,
      joints: spring.joints.map((joint, i) => {
        const { hitRadius, stiffness, gravityPower, gravityDir, dragForce } = spring.settings[i];
        return { node: indexByName(json.nodes, joint), hitRadius, stiffness, gravityPower, gravityDir: [...gravityDir], dragForce };
      }),
      colliderGroups: spring.colliderGroups.map(groupIndex),
      ...(spring.center ? { center: indexByName(json.nodes, spring.center) } : {}),
    })),
  };
  addExtension(json, 'VRMC_springBone', springBone);
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), 'VRMC_springBone_extended_collider'])];

  const nodes = json.nodes as ({ name?: string; extensions?: Record<string, unknown> })[];
  for (const constraint of AVATAR_CONSTRAINTS) {
    const source = indexByName(nodes, constraint.source);
    const extension: VRMCNodeConstraint = {
      specVersion: '1.0',
      constraint: constraint.kind === 'roll'
        ? { roll: { source, rollAxis: constraint.rollAxis, weight: constraint.weight } }
        : constraint.kind === 'aim'
          ? { aim: { source, aimAxis: constraint.aimAxis, weight: constraint.weight } }
          : { rotation: { source, weight: constraint.weight } },
    };
    const node = nodes[indexByName(nodes, constraint.node)];
    node.extensions = { ...node.extensions, VRMC_node_constraint: extension };
  }
  json.extensionsUsed = [...new Set([...json.extensionsUsed, 'VRMC_node_constraint'])];
}
