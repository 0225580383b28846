/**
 * Spring bones and node constraints against three-vrm 3.5.5 (the reference): the generated avatar playing
 * the VRMA walk with springs at 60 Hz for 3 s, three-vrm's order — the clip posed at k/60, then `vrm.update(1/60)`
 * (humanoid, look-at, expressions, node constraints, springs) — and Sinew's — the clip at k/60, one step of 1/60,
 * `AnimatedModel.evaluate` — give skinned vertices within 1e-3 of the bounding box's diagonal at 10 times.
 * Both start from the springs reset at the pose of t = 0.
 *
 * Sinew's secondary motion is read by its loader (`ModelAsset.secondaryMotion`); `fromThreeVrm` builds the same
 * model from three-vrm's reading when the loader gives none (each three-vrm joint as a spring of its own, its
 * dependencies sorting it as three-vrm sorts it), so the simulation is compared even without it.
 */
import { describe, expect, it } from 'vitest';
import { AnimationMixer } from 'three';
import type * as THREE from 'three';
import {
  VRMAimConstraint, VRMRollConstraint, VRMRotationConstraint, VRMLookAtBoneApplier,
  type VRMSpringBoneJoint, type VRMSpringBoneCollider, type VRMSpringBoneColliderGroup, type VRMNodeConstraint,
} from '@pixiv/three-vrm';
import { VRMLookAtQuaternionProxy, createVRMAnimationClip } from '@pixiv/three-vrm-animation';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { NodeConstraintAsset, SecondaryMotionAsset, SpringColliderShape } from '../../../src/asset/secondary-motion-asset.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { buildVrmaClip } from '../../../src/procedural/avatar/vrma-clip.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { avatarBytes, diagonalOf, loadSinew, loadThreeVrm, loadThreeVrma, none, sinewPositions, threePositions, worstError, type ThreeVrmReading } from '../avatar/three-vrm-reference.ts';

const vrma = await buildVrmaClip();
const HZ = 60;
const FRAMES = 3 * HZ;
const CHECKS = new Set(Array.from({ length: 10 }, (_, i) => Math.round(((i + 1) * FRAMES) / 10)));

const v3 = (v: THREE.Vector3): [number, number, number] => [v.x, v.y, v.z];

/** Sinew's secondary-motion model built from three-vrm's reading of the same file (joint indices by glTF node). */
function fromThreeVrm(reading: ThreeVrmReading, asset: ModelAsset, centers: boolean): SecondaryMotionAsset {
  const { vrm, parser } = reading;
  const jointOfNode = new Map<number, number>();
  asset.skeleton.sourceIndices.forEach((node, j) => jointOfNode.set(node, j));
  const jointOf = (object: THREE.Object3D): number => {
    const node = parser.associations.get(object)?.nodes;
    if (node === undefined || !jointOfNode.has(node)) throw new Error(`no joint for ${object.name}`);
    return jointOfNode.get(node)!;
  };
  const manager = vrm.springBoneManager!;
  const colliders = manager.colliders as VRMSpringBoneCollider[];
  const groups = manager.colliderGroups as VRMSpringBoneColliderGroup[];
  const shapeOf = (collider: VRMSpringBoneCollider): SpringColliderShape => {
    const shape = collider.shape as any;
    if (shape.type === 'sphere') return { kind: 'sphere', offset: v3(shape.offset), radius: shape.radius, inside: shape.inside };
    if (shape.type === 'capsule') return { kind: 'capsule', offset: v3(shape.offset), tail: v3(shape.tail), radius: shape.radius, inside: shape.inside };
    return { kind: 'plane', offset: v3(shape.offset), normal: v3(shape.normal) };
  };
  const joints = [...manager.joints] as VRMSpringBoneJoint[];
  const springBone = {
    colliders: colliders.map((c) => ({ node: jointOf(c.parent!), shape: shapeOf(c) })),
    colliderGroups: groups.map((g, i) => ({ name: g.name ?? `group ${i}`, colliders: g.colliders.map((c) => colliders.indexOf(c)) })),
    springs: joints.map((joint) => {
      const s = joint.settings;
      const settings = { hitRadius: s.hitRadius, stiffness: s.stiffness, gravityPower: s.gravityPower, gravityDir: v3(s.gravityDir), dragForce: s.dragForce };
      return {
        name: joint.bone.name,
        joints: [{ node: jointOf(joint.bone), ...settings }, ...(joint.child ? [{ node: jointOf(joint.child), ...settings }] : [])],
        colliderGroups: joint.colliderGroups.map((g) => groups.indexOf(g)),
        center: centers && joint.center ? jointOf(joint.center) : -1,
        virtualTail: joint.child ? null : v3(joint.initialLocalChildPosition),
      };
    }),
  };
  // The constraints in three-vrm's evaluation order (its manager's depth-first walk over sources).
  const constraints = [...(vrm.nodeConstraintManager?.constraints ?? [])] as VRMNodeConstraint[];
  const ordered: VRMNodeConstraint[] = [];
  const visit = (c: VRMNodeConstraint): void => {
    if (ordered.includes(c)) return;
    const deps = [c.source, ...(c instanceof VRMAimConstraint && c.destination.parent ? [c.destination.parent] : [])];
    for (const dep of deps) for (let a: THREE.Object3D | null = dep; a; a = a.parent) for (const other of constraints) if (other.destination === a) visit(other);
    ordered.push(c);
  };
  constraints.forEach(visit);
  const nodeConstraints: NodeConstraintAsset[] = ordered.map((c) => {
    const base = { node: jointOf(c.destination), source: jointOf(c.source), weight: c.weight };
    if (c instanceof VRMRollConstraint) return { kind: 'roll', ...base, rollAxis: c.rollAxis };
    if (c instanceof VRMAimConstraint) return { kind: 'aim', ...base, aimAxis: c.aimAxis };
    if (c instanceof VRMRotationConstraint) return { kind: 'rotation', ...base };
    throw new Error('unknown constraint');
  });
  return { springBone, nodeConstraints };
}

async function compare(version: '1' | '0', centers: boolean): Promise<{ errors: number[]; moved: number; centered: number; source: string }> {
  const bytes = await avatarBytes(version);
  const loaded = await loadSinew(bytes);
  const three = await loadThreeVrm(bytes);
  const { vrm } = three;
  const library = await loadClips({ name: 'walk.vrma', bytes: vrma }, none);
  const { clips } = retargetClipLibrary(library, loaded);
  const fromLoader = loaded.secondaryMotion !== undefined && centers;
  const secondaryMotion = fromLoader ? loaded.secondaryMotion : fromThreeVrm(three, loaded, centers);
  if (!centers) for (const joint of vrm.springBoneManager!.joints) joint.center = null;
  const centered = secondaryMotion!.springBone!.springs.filter((spring) => spring.center >= 0).length;
  const animated = new AnimatedModel({ ...loaded, clips, secondaryMotion });
  const rest = sinewPositions(loaded, animated);
  const diagonal = diagonalOf(rest);

  const applier = vrm.lookAt!.applier;
  if (applier instanceof VRMLookAtBoneApplier) {
    [applier.rangeMapVerticalUp, applier.rangeMapVerticalDown] = [applier.rangeMapVerticalDown, applier.rangeMapVerticalUp];
  }
  const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt!);
  proxy.name = 'VRMLookAtQuaternionProxy';
  vrm.scene.add(proxy);
  const mixer = new AnimationMixer(vrm.scene);
  mixer.clipAction(createVRMAnimationClip(await loadThreeVrma(vrma), vrm)).play();

  // t = 0: both posed, springs reset there.
  mixer.setTime(0);
  vrm.update(0);
  vrm.scene.updateMatrixWorld(true);
  vrm.springBoneManager!.reset();
  animated.secondaryMotion!.reset();
  animated.evaluate(animated.clipSample(0).at(0));
  const errors: number[] = [];
  let moved = 0;
  for (let k = 1; k <= FRAMES; k++) {
    mixer.setTime(k / HZ);
    vrm.update(1 / HZ);
    animated.secondaryMotion!.step(1 / HZ);
    animated.evaluate(animated.clipSample(0).at(k / HZ));
    if (!CHECKS.has(k)) continue;
    const ours = sinewPositions(loaded, animated);
    errors.push(worstError(ours, threePositions(three), diagonal));
    moved = Math.max(moved, worstError(ours, rest, diagonal));
  }
  return { errors, moved, centered, source: fromLoader ? 'the loader' : 'three-vrm\'s reading' };
}

describe('spring bones and node constraints: Sinew against three-vrm 3.5.5, the VRMA walk at 60 Hz for 3 s', () => {
  for (const version of ['1', '0'] as const) {
    for (const centers of [true, false]) {
      it(`VRM ${version === '1' ? '1.0' : '0.x'}, ${centers ? 'with' : 'without'} centers: skinned vertices within 1e-3 of the diagonal at 10 times`, async () => {
        const { errors, moved, centered, source } = await compare(version, centers);
        console.log(`springs, VRM ${version}, centers ${centers} (secondary motion from ${source}, ${centered} springs with a center): worst ${Math.max(...errors).toExponential(2)} of the diagonal (${errors.map((e) => e.toExponential(1)).join(', ')}); moved up to ${moved.toFixed(2)}`);
        expect(moved).toBeGreaterThan(0.05);
        if (centers) expect(centered).toBeGreaterThan(0);
        expect(Math.max(...errors)).toBeLessThan(1e-3);
      }, 120_000);
    }
  }
});
