import { GltfBuilder } from '../../helpers/gltf-builder.ts';

/** A quaternion (x, y, z, w) turning `angle` radians about the unit `axis`. */
export function axisAngle(axis: [number, number, number], angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Nodes of {@link buildVrma}, by glTF index. */
export const VRMA_NODES = { root: 0, hips: 1, spine: 2, head: 3, leftUpperLeg: 4, happy: 5, wink: 6, lookAt: 7 } as const;

/** The keys of {@link buildVrma}'s one clip "dance", 0 s and 1 s (LINEAR unless said). */
export const VRMA_KEYS = {
  hipsTranslation: [[0, 1, 0], [0.3, 1.1, 0.2]],
  spineRotation: [[0, 0, 0, 1], axisAngle([1, 0, 0], Math.PI / 6)],
  headRotation: [[0, 0, 0, 1], axisAngle([0, 1, 0], Math.PI / 4)],
  legRotation: [axisAngle([0, 0, 1], 0.2), axisAngle([1, 0, 0], -0.7)],
  /** The `happy` expression node's x translation (y, z carry noise the loader must ignore). */
  happy: [0, 1],
  /** STEP, at 0, 0.5 and 1 s. */
  wink: [0, 1, 0.25],
  lookAt: [[0, 0, 0, 1], axisAngle([0, 1, 0], -0.5)],
} as const;

/**
 * A VRM Animation (`VRMC_vrm_animation` 1.0) made in code: a T-pose facing +Z, `root` at the origin, `hips` 1 m up,
 * `spine` 0.2 m above it, `head` 0.5 m above that, `leftUpperLeg` at (0.1, −0.05, 0) from the hips (all with
 * identity rotations), and, under the root, an expression node for the preset `happy` and the custom `wink`, and the
 * look-at node. One clip "dance" ({@link VRMA_KEYS}). `patch` edits the JSON (adding accessors through the builder)
 * before the GLB is written.
 */
export function buildVrma(patch?: (json: any, builder: GltfBuilder) => void): Uint8Array {
  const b = new GltfBuilder();
  const times = b.accessor(new Float32Array([0, 1]), 'SCALAR', { min: [0], max: [1] });
  const stepTimes = b.accessor(new Float32Array([0, 0.5, 1]), 'SCALAR', { min: [0], max: [1] });
  const vec = (values: readonly (readonly number[])[], type: string) => b.accessor(new Float32Array(values.flat()), type);
  const k = VRMA_KEYS;
  const samplers = [
    { input: times, output: vec(k.hipsTranslation, 'VEC3') },
    { input: times, output: vec(k.spineRotation, 'VEC4') },
    { input: times, output: vec(k.headRotation, 'VEC4') },
    { input: times, output: vec(k.legRotation, 'VEC4') },
    { input: times, output: vec(k.happy.map((x) => [x, 7, -7]), 'VEC3') },
    { input: stepTimes, output: vec(k.wink.map((x) => [x, 0, 0]), 'VEC3'), interpolation: 'STEP' },
    { input: times, output: vec(k.lookAt, 'VEC4') },
  ];
  const n = VRMA_NODES;
  const channels = [
    { sampler: 0, target: { node: n.hips, path: 'translation' } },
    { sampler: 1, target: { node: n.spine, path: 'rotation' } },
    { sampler: 2, target: { node: n.head, path: 'rotation' } },
    { sampler: 3, target: { node: n.leftUpperLeg, path: 'rotation' } },
    { sampler: 4, target: { node: n.happy, path: 'translation' } },
    { sampler: 5, target: { node: n.wink, path: 'translation' } },
    { sampler: 6, target: { node: n.lookAt, path: 'rotation' } },
  ];
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [n.root] }],
    nodes: [
      { name: 'Root', children: [n.hips, n.happy, n.wink, n.lookAt] },
      { name: 'J_Hips', translation: [0, 1, 0], children: [n.spine, n.leftUpperLeg] },
      { name: 'J_Spine', translation: [0, 0.2, 0], children: [n.head] },
      { name: 'J_Head', translation: [0, 0.5, 0] },
      { name: 'J_LeftUpperLeg', translation: [0.1, -0.05, 0] },
      { name: 'Expression_happy' },
      { name: 'Expression_wink' },
      { name: 'LookAt', translation: [0, 1.7, 0] },
    ],
    animations: [{ name: 'dance', samplers, channels }],
    extensionsUsed: ['VRMC_vrm_animation'],
    extensions: {
      VRMC_vrm_animation: {
        specVersion: '1.0',
        humanoid: { humanBones: { hips: { node: n.hips }, spine: { node: n.spine }, head: { node: n.head }, leftUpperLeg: { node: n.leftUpperLeg } } },
        expressions: { preset: { happy: { node: n.happy } }, custom: { wink: { node: n.wink } } },
        lookAt: { node: n.lookAt },
      },
    },
  });
  patch?.(b.json, b);
  return b.glb();
}
