import { Document } from '@gltf-transform/core';
import { quat } from 'gl-matrix';
import type { HumanoidHumanBones, VRMCVRMAnimation } from '@pixiv/types-vrmc-vrm-animation-1.0';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES } from './avatar-bones.ts';
import { LOCOMOTION_BONES, LOCOMOTION_SPECS, locomotionPose, type LocomotionClipName } from './avatar-locomotion.ts';
import { addClip, keyTimes, type ClipChannel } from './clip-channels.ts';
import { addExtension, indexByName, writeGlbWithJson } from './glb-with-extension.ts';
import { addVrmaSkeleton } from './vrma-skeleton.ts';

/** Options of {@link buildLocomotionVrma}. */
export interface LocomotionVrmaOptions {
  /** Key frames per second (default 30); every clip gets at least 24 keys. */
  readonly keysPerSecond?: number;
}

/**
 * One of the generated avatar's locomotion clips as a VRM Animation file (`VRMC_vrm_animation` 1.0,
 * VRMC_vrm_animation-1.0 specification), GLB bytes, deterministic:
 * - nodes: the avatar's humanoid bones by their humanoid names, in its T-pose facing +Z (the clip's rest), every
 *   bone in `humanoid.humanBones`; no expressions, no look-at;
 * - one animation named `name` (`Idle`, `Walk`, `Run`, `Jump`), `LOCOMOTION_SPECS[name].duration` seconds of
 *   LINEAR keys from {@link locomotionPose}: the hips' translation (Walk and Run travel forward, +Z, at
 *   `WALK_SPEED` / `RUN_SPEED`: root motion) and rotation, spine, chest, neck, head, arms and legs;
 * - its markers in the animation's `extras.markers` as `[{ time, name }]` (seconds; Sinew's clip-marker
 *   convention, docs/guide/events.md): Walk and Run `left-foot-down` at 0 and `right-foot-down` at half the
 *   cycle, Jump `take-off` and `land`.
 * A looping clip's last key is its first moved on by the travel, so it loops without a seam.
 * @throws Error for an unknown clip name or a keysPerSecond that is not positive
 */
export async function buildLocomotionVrma(name: LocomotionClipName, options: LocomotionVrmaOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const spec = LOCOMOTION_SPECS[name];
  if (!spec) throw new Error(`buildLocomotionVrma: unknown clip ${JSON.stringify(name)} (Idle, Walk, Run or Jump)`);
  const keysPerSecond = options.keysPerSecond ?? 30;
  if (!(keysPerSecond > 0)) throw new Error(`buildLocomotionVrma: keysPerSecond must be positive, got ${keysPerSecond}`);
  const document = new Document();
  document.createBuffer();
  const scene = document.createScene('Scene');
  const nodes = addVrmaSkeleton(document, scene);

  const times = keyTimes(spec.duration, Math.max(24, Math.round(spec.duration * keysPerSecond)) + 1);
  const count = times.length;
  const rotations = new Map<HumanoidBoneName, quat>();
  const hipsOffset = new Float32Array(3);
  const values = new Map(LOCOMOTION_BONES.map((bone) => [bone, new Float32Array(4 * count)]));
  const hipsTranslation = new Float32Array(3 * count);
  const hipsRest = AVATAR_BONES[0].position;
  times.forEach((time, k) => {
    locomotionPose(name, rotations, hipsOffset, time);
    for (const bone of LOCOMOTION_BONES) {
      const q = rotations.get(bone)!, out = values.get(bone)!;
      // Keep each track on one hemisphere, so LINEAR keys interpolate the short way.
      const flip = k > 0 && out[4 * k - 4] * q[0] + out[4 * k - 3] * q[1] + out[4 * k - 2] * q[2] + out[4 * k - 1] * q[3] < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) out[4 * k + c] = flip * q[c];
    }
    for (let i = 0; i < 3; i++) hipsTranslation[3 * k + i] = hipsRest[i] + hipsOffset[i];
  });
  const channels: ClipChannel[] = [
    { node: nodes.get('hips')!, path: 'translation', times, values: hipsTranslation },
    ...LOCOMOTION_BONES.map((bone) => ({ node: nodes.get(bone)!, path: 'rotation' as const, times, values: values.get(bone)! })),
  ];
  addClip(document, name, channels);
  const animation = document.getRoot().listAnimations()[0];
  if (spec.markers.length > 0) animation.setExtras({ markers: spec.markers.map((m) => ({ time: m.time, name: m.name })) });
  return writeGlbWithJson(document, (json) => {
    const humanBones: HumanoidHumanBones = {};
    for (const bone of AVATAR_BONES) humanBones[bone.name] = { node: indexByName(json.nodes, bone.name) };
    const extension: VRMCVRMAnimation = { specVersion: '1.0', humanoid: { humanBones } };
    addExtension(json, 'VRMC_vrm_animation', extension);
  });
}
