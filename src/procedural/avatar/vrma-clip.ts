import { Document } from '@gltf-transform/core';
import { quat } from 'gl-matrix';
import type { HumanoidHumanBones, VRMCVRMAnimation } from '@pixiv/types-vrmc-vrm-animation-1.0';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES } from './avatar-bones.ts';
import { AVATAR_LOOK_AT_OFFSET } from './avatar-vrm-options.ts';
import { WALK_BONES, WALK_PERIOD, walkPose } from './avatar-walk.ts';
import { addClip, keyTimes, type ClipChannel } from './clip-channels.ts';
import { addExtension, indexByName, writeGlbWithJson } from './glb-with-extension.ts';
import { addVrmaSkeleton } from './vrma-skeleton.ts';

/** Options of {@link buildVrmaClip}. */
export interface VrmaClipOptions {
  /** Seconds (default 3.6, three walk cycles); any positive length, e.g. 60 for load-time tests. */
  readonly duration?: number;
  /** Key frames per second (default 30). */
  readonly keysPerSecond?: number;
}

/** The custom expression the clip drives (the generated avatar's custom expression). */
export const VRMA_CUSTOM_EXPRESSION = 'cheekPuff';

/**
 * A VRM Animation file (`VRMC_vrm_animation` 1.0, VRMC_vrm_animation-1.0 specification), GLB bytes, deterministic.
 * - Nodes: the humanoid bones of the generated avatar named by their humanoid names, in its T-pose facing +Z with
 *   identity rest rotations (metres), the clip's rest; `humanoid.humanBones` maps every bone to its node.
 * - `expressions`: nodes `Expression_blink`, `Expression_aa` (presets) and `Expression_cheekPuff` (custom) at the
 *   scene's root, whose translation x is the expression's weight (y and z stay 0).
 * - `lookAt`: node `LookAt`, a child of the head at the avatar's look-at offset, whose rotation turns the gaze
 *   (yaw ±25° about +Y and pitch ±10° about +X).
 * - One animation, `walk`, of `duration` seconds with LINEAR keys at `keysPerSecond`: hips translation (a bob) and
 *   rotation, spine, chest, neck, head, arms and legs from `walkPose` (period {@link WALK_PERIOD} s); `blink` closes
 *   for 0.15 s every 1.5 s, `aa` opens and closes, `cheekPuff` rises from 0 to 1 over the clip.
 */
export async function buildVrmaClip(options: VrmaClipOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const duration = options.duration ?? 3 * WALK_PERIOD;
  if (!(duration > 0)) throw new Error(`buildVrmaClip: duration must be positive, got ${duration}`);
  const document = new Document();
  document.createBuffer();
  const scene = document.createScene('Scene');
  const nodes = addVrmaSkeleton(document, scene);
  const lookAt = document.createNode('LookAt').setTranslation([...AVATAR_LOOK_AT_OFFSET]);
  nodes.get('head')!.addChild(lookAt);
  const expressionNames = ['blink', 'aa', VRMA_CUSTOM_EXPRESSION];
  const expressionNodes = expressionNames.map((name) => {
    const node = document.createNode(`Expression_${name}`);
    scene.addChild(node);
    return node;
  });

  const times = keyTimes(duration, Math.max(2, Math.round(duration * (options.keysPerSecond ?? 30)) + 1));
  const count = times.length;
  const rotations = new Map<HumanoidBoneName, quat>();
  const hipsOffset = new Float32Array(3);
  const boneValues = new Map(WALK_BONES.map((bone) => [bone, new Float32Array(4 * count)]));
  const hipsTranslation = new Float32Array(3 * count);
  const expressionValues = expressionNames.map(() => new Float32Array(3 * count));
  const lookAtValues = new Float32Array(4 * count);
  const yaw = quat.create(), pitch = quat.create();
  const hipsRest = AVATAR_BONES[0].position;
  times.forEach((time, k) => {
    walkPose(rotations, hipsOffset, time);
    for (const bone of WALK_BONES) boneValues.get(bone)!.set(rotations.get(bone)!, 4 * k);
    for (let i = 0; i < 3; i++) hipsTranslation[3 * k + i] = hipsRest[i] + hipsOffset[i];
    expressionValues[0][3 * k] = time % 1.5 > 1.2 && time % 1.5 < 1.35 ? 1 : 0;
    expressionValues[1][3 * k] = 0.5 - 0.5 * Math.cos(2 * Math.PI * time / 0.8);
    expressionValues[2][3 * k] = time / duration;
    quat.setAxisAngle(yaw, [0, 1, 0], 25 * Math.PI / 180 * Math.sin(2 * Math.PI * time / 4));
    quat.setAxisAngle(pitch, [1, 0, 0], 10 * Math.PI / 180 * Math.sin(2 * Math.PI * time / 3));
    lookAtValues.set(quat.multiply(yaw, yaw, pitch), 4 * k);
  });
  const channels: ClipChannel[] = [
    { node: nodes.get('hips')!, path: 'translation', times, values: hipsTranslation },
    ...WALK_BONES.map((bone) => ({ node: nodes.get(bone)!, path: 'rotation' as const, times, values: boneValues.get(bone)! })),
    ...expressionNodes.map((node, e) => ({ node, path: 'translation' as const, times, values: expressionValues[e] })),
    { node: lookAt, path: 'rotation', times, values: lookAtValues },
  ];
  addClip(document, 'walk', channels);
  return writeGlbWithJson(document, (json) => {
    const humanBones: HumanoidHumanBones = {};
    for (const bone of AVATAR_BONES) humanBones[bone.name] = { node: indexByName(json.nodes, bone.name) };
    const extension: VRMCVRMAnimation = {
      specVersion: '1.0',
      humanoid: { humanBones },
      expressions: {
        preset: { blink: { node: indexByName(json.nodes, 'Expression_blink') }, aa: { node: indexByName(json.nodes, 'Expression_aa') } },
        custom: { [VRMA_CUSTOM_EXPRESSION]: { node: indexByName(json.nodes, `Expression_${VRMA_CUSTOM_EXPRESSION}`) } },
      },
      lookAt: { node: indexByName(json.nodes, 'LookAt') },
    };
    addExtension(json, 'VRMC_vrm_animation', extension);
  });
}
