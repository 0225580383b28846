import { Document } from '@gltf-transform/core';
import type { HumanoidHumanBones, VRMCVRMAnimation } from '@pixiv/types-vrmc-vrm-animation-1.0';
import type { AnimationClip } from '../asset/animation-clip.ts';
import type { HumanoidBoneName, HumanoidMap } from '../asset/avatar-asset.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { compileClip } from '../animation/runtime-clip.ts';
import { sampleClip } from '../animation/sample-clip.ts';
import { SamplingContext } from '../animation/sampling-context.ts';
import { HUMANOID_BONES, humanoidParentOf } from '../humanoid/humanoid-bones.ts';
import { matchHumanoid } from '../humanoid/match-humanoid.ts';
import { quatConjugateMultiplyAt, quatMultiplyAt } from '../math/quaternion.ts';
import { addClip, type ClipChannel } from '../procedural/avatar/clip-channels.ts';
import { addExtension, indexByName, writeGlbWithJson } from '../procedural/avatar/glb-with-extension.ts';
import { cloneLocalPose } from '../skeleton/local-pose.ts';
import { computeModelFrames, createModelFrames } from '../skeleton/model-frames.ts';
import { bakeKeyTimes } from './bake-key-times.ts';

/** A written clip's name, channel count and key count (keys summed over its channels). */
export interface BakedClipCount {
  readonly name: string;
  readonly channels: number;
  readonly keys: number;
}

/** Options of {@link writeBakedVrma}. */
export interface WriteBakedVrmaOptions {
  /** Keys per second (bakeKeyTimes); absent: each clip's own key times. */
  readonly fps?: number;
}

/**
 * The humanoid map a `.vrma` is written through: the avatar's own (a VRM's), else the one matchHumanoid finds by
 * joint names (Mixamo, Unreal, … rigs).
 * @throws Error naming the model and the required humanoid bones it lacks (a `.vrma` needs a humanoid model)
 */
export function humanoidForVrma(asset: ModelAsset): HumanoidMap {
  if (asset.avatar) return asset.avatar.humanoid;
  const match = matchHumanoid(asset.skeleton);
  if (match.missingRequired.length > 0) {
    throw new Error(`${asset.name}: not a humanoid model, so no .vrma: no joint found for the required humanoid bones ${match.missingRequired.join(', ')} (write .glb or .gltf instead)`);
  }
  return match.humanoid;
}

/**
 * `clips` (clips of `asset`: its own or retargeted onto it) as one VRM Animation file (VRMC_vrm_animation 1.0),
 * GLB bytes, written with glTF-Transform:
 * - nodes: one per humanoid bone of the model (`humanoidForVrma`), named by its humanoid name, hanging from its
 *   nearest present humanoid parent (humanoidParentOf); rest = the model's rest pose *normalised*: identity
 *   rotations, each node at its joint's rest model position (translation from its parent's; the hips' the model
 *   position), the model's units (metres for glTF) — the VRMA rest pose the specification describes
 *   (VRMC_vrm_animation-1.0 "humanoid": a T-pose for a VRM, whose rest is one; a non-VRM rig's rest as it is);
 * - one animation per clip, LINEAR keys at the clip's key times (or `options.fps`): per bone the normalised local
 *   rotation `n_b = N_parent⁻¹ · N_b`, `N_b = Q_j(t) · Q_j,rest⁻¹` from the joints' model rotations Q (so a clip
 *   read back through `--anim OUT.vrma` retargets to the same model rotations: retargetClip's model-space rule with
 *   identity source rests); the hips' translation = its joint's model position; markers in `extras.markers`.
 * This is three-vrm's normalized humanoid (VRMHumanoidRig) in model space; where three-vrm normalises through the
 * parent's rest rotation only (getNormalizedRotation), Sinew uses the joints' whole model rotations, so non-humanoid
 * joints between humanoid bones that the clip moves are folded into the nearest bone below them.
 * Expression and look-at tracks are not written.
 * @returns the GLB bytes, and per clip its channel and key counts (for a summary)
 * @throws Error from humanoidForVrma for a model without a humanoid
 */
export async function writeBakedVrma(asset: ModelAsset, clips: readonly AnimationClip[], options: WriteBakedVrmaOptions = {}): Promise<{ bytes: Uint8Array; clips: BakedClipCount[] }> {
  const humanoid = humanoidForVrma(asset);
  const { skeleton } = asset;
  const bones = HUMANOID_BONES.map((b) => b.name).filter((name) => humanoid.bones[name] !== undefined);
  const joints = bones.map((name) => humanoid.bones[name]!);
  const parents = bones.map((name) => {
    const parent = humanoidParentOf(name, humanoid.bones);
    return parent === null ? -1 : bones.indexOf(parent);
  });
  const rest = computeModelFrames(createModelFrames(skeleton.jointCount), skeleton, asset.restPose, [0, 0, 0, 1]);

  const document = new Document();
  document.createBuffer();
  const scene = document.createScene('Scene');
  const nodes = bones.map((name) => document.createNode(name));
  bones.forEach((_, b) => {
    const j3 = 3 * joints[b], p = parents[b], p3 = p < 0 ? -1 : 3 * joints[p];
    const at = [0, 1, 2].map((c) => rest.p[j3 + c] - (p < 0 ? 0 : rest.p[p3 + c])) as [number, number, number];
    nodes[b].setTranslation(at);
    if (p < 0) scene.addChild(nodes[b]);
    else nodes[p].addChild(nodes[b]);
  });

  const hips = bones.indexOf('hips' as HumanoidBoneName);
  const now = createModelFrames(skeleton.jointCount);
  const normalized = new Float64Array(4 * bones.length);
  const restConjugate = new Float64Array(4), local = new Float64Array(4);
  const counts: BakedClipCount[] = [];
  for (const clip of clips) {
    const times = bakeKeyTimes(clip, options.fps);
    const k = times.length;
    const rotations = bones.map(() => new Float32Array(4 * k));
    const hipsPositions = new Float32Array(3 * k);
    const runtime = compileClip(clip, skeleton.jointCount);
    const pose = cloneLocalPose(asset.restPose);
    const context = new SamplingContext();
    for (let key = 0; key < k; key++) {
      sampleClip(pose, runtime, times[key], context);
      computeModelFrames(now, skeleton, pose, [0, 0, 0, 1]);
      bones.forEach((_, b) => {
        const j4 = 4 * joints[b];
        restConjugate[0] = -rest.q[j4]; restConjugate[1] = -rest.q[j4 + 1]; restConjugate[2] = -rest.q[j4 + 2]; restConjugate[3] = rest.q[j4 + 3];
        quatMultiplyAt(normalized, 4 * b, now.q, j4, restConjugate, 0);
        const p = parents[b];
        if (p < 0) local.set(normalized.subarray(4 * b, 4 * b + 4));
        else quatConjugateMultiplyAt(local, 0, normalized, 4 * p, normalized, 4 * b);
        const out = rotations[b], o = 4 * key;
        const flip = key > 0 && out[o - 4] * local[0] + out[o - 3] * local[1] + out[o - 2] * local[2] + out[o - 1] * local[3] < 0 ? -1 : 1;
        for (let c = 0; c < 4; c++) out[o + c] = flip * local[c];
      });
      if (hips >= 0) for (let c = 0; c < 3; c++) hipsPositions[3 * key + c] = now.p[3 * joints[hips] + c];
    }
    const channels: ClipChannel[] = bones.map((_, b) => ({ node: nodes[b], path: 'rotation' as const, times, values: rotations[b] }));
    if (hips >= 0) channels.unshift({ node: nodes[hips], path: 'translation', times, values: hipsPositions });
    addClip(document, clip.name, channels);
    counts.push({ name: clip.name, channels: channels.length, keys: channels.length * k });
    if (clip.markers && clip.markers.length > 0) {
      const animations = document.getRoot().listAnimations();
      animations[animations.length - 1].setExtras({ markers: clip.markers.map((m) => ({ time: m.time, name: m.name })) });
    }
  }
  const bytes = await writeGlbWithJson(document, (json) => {
    const humanBones: HumanoidHumanBones = {};
    for (const name of bones) humanBones[name] = { node: indexByName(json.nodes, name) };
    const extension: VRMCVRMAnimation = { specVersion: '1.0', humanoid: { humanBones } };
    addExtension(json, 'VRMC_vrm_animation', extension);
  });
  return { bytes, clips: counts };
}
