import type { SecondaryAnimation, SecondaryAnimationCollider, SecondaryAnimationColliderGroup, SecondaryAnimationSpring } from '@pixiv/types-vrm-0.0';
import { AVATAR_COLLIDER_GROUPS, AVATAR_COLLIDERS, AVATAR_SPRINGS, type AvatarCollider } from './avatar-springs.ts';
import { indexByName, type GltfJson } from './glb-with-extension.ts';

type Vec3 = readonly [number, number, number];

/** The radius of the sphere that stands in for the ground plane (as VRMC_springBone_extended_collider 1.0's fallback). */
const PLANE_SPHERE_RADIUS = 1000;

/**
 * A 1.0 collider as VRM 0.x spheres, offsets in the file's stored form, or none:
 * - a sphere as is; a capsule as spheres of its radius along its segment, at most a radius apart (0.x has no
 *   capsule); the plane as one sphere of radius 1000 m centred `offset − normal · 1000`; inside shapes: none
 *   (0.x has no inside colliders);
 * - the 0.x file faces −Z, so a 1.0 node-local offset (x, y, z) is (−x, y, −z) there; 0.x stores z negated
 *   (Unity's axes: three-vrm reads `(x, y, −z)`), so the stored offset is (−x, y, z).
 */
function v0Spheres(collider: AvatarCollider): SecondaryAnimationCollider[] {
  const stored = (p: Vec3): { x: number; y: number; z: number } => ({ x: p[0] === 0 ? 0 : -p[0], y: p[1], z: p[2] });
  const shape = collider.shape;
  if (shape.kind === 'plane') {
    const [ox, oy, oz] = shape.offset, [nx, ny, nz] = shape.normal, r = PLANE_SPHERE_RADIUS;
    return [{ offset: stored([ox - nx * r, oy - ny * r, oz - nz * r]), radius: r }];
  }
  if (shape.inside) return [];
  if (shape.kind === 'sphere') return [{ offset: stored(shape.offset), radius: shape.radius }];
  const [ax, ay, az] = shape.offset, [bx, by, bz] = shape.tail;
  const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay, bz - az) / shape.radius));
  const spheres: SecondaryAnimationCollider[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps, r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
    spheres.push({ offset: stored([r6(ax + (bx - ax) * t), r6(ay + (by - ay) * t), r6(az + (bz - az) * t)]), radius: shape.radius });
  }
  return spheres;
}

/**
 * The generated avatar's springs as VRM 0.x `secondaryAnimation` (the `VRM` extension's, as three-vrm reads it):
 * - `colliderGroups`: one per collider node, holding the spheres of {@link v0Spheres} for each of
 *   {@link AVATAR_COLLIDERS} on it (capsules as spheres along them, the ground plane as a large sphere, inside
 *   shapes left out);
 * - `boneGroups`: one per {@link AvatarSpring.group} (hair back, side, locks; tail; ears), its springs' first
 *   joints as `bones` (0.x simulates every descendant, the leaf with a 7 cm virtual tail), the settings of its first
 *   spring's first joint (`stiffiness` [sic], `gravityPower`, `gravityDir` as three-vrm reads it: world space, as
 *   is; every direction here has x = 0, where readers agree), `dragForce`, `hitRadius`, `center` (the hips for
 *   the tail, −1 for none), and the 0.x collider groups holding any collider of the 1.0 groups it names.
 * 0.x has no node constraints: the constraint joints stay at rest.
 */
export function vrm0SecondaryAnimation(json: GltfJson): SecondaryAnimation {
  const colliderGroups: SecondaryAnimationColliderGroup[] = [];
  const groupOfCollider = new Map<string, number>();
  for (const collider of AVATAR_COLLIDERS) {
    const spheres = v0Spheres(collider);
    if (spheres.length === 0) continue;
    const node = indexByName(json.nodes, collider.bone);
    let group = colliderGroups.findIndex((g) => g.node === node);
    if (group < 0) group = colliderGroups.push({ node, colliders: [] }) - 1;
    colliderGroups[group].colliders!.push(...spheres);
    groupOfCollider.set(collider.name, group);
  }
  const boneGroups: SecondaryAnimationSpring[] = [];
  for (const name of [...new Set(AVATAR_SPRINGS.map((spring) => spring.group))]) {
    const springs = AVATAR_SPRINGS.filter((spring) => spring.group === name);
    const first = springs[0];
    const { hitRadius, stiffness, gravityPower, gravityDir, dragForce } = first.settings[0];
    const groups = new Set<number>();
    for (const groupName of first.colliderGroups) {
      for (const collider of AVATAR_COLLIDER_GROUPS.find((g) => g.name === groupName)!.colliders) {
        const group = groupOfCollider.get(collider);
        if (group !== undefined) groups.add(group);
      }
    }
    boneGroups.push({
      comment: name,
      stiffiness: stiffness,
      gravityPower,
      gravityDir: { x: gravityDir[0], y: gravityDir[1], z: gravityDir[2] },
      dragForce,
      center: first.center ? indexByName(json.nodes, first.center) : -1,
      hitRadius,
      bones: springs.map((spring) => indexByName(json.nodes, spring.joints[0])),
      colliderGroups: [...groups].sort((a, b) => a - b),
    });
  }
  return { boneGroups, colliderGroups };
}
