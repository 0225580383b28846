import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { matchJoints, retargetMatchedClip, RetargetError, type JointMatch, type RetargetOptions } from '../animation/retarget-clip.ts';
import { matchByHumanoid } from '../animation/match-by-humanoid.ts';
import type { ClipLibrary } from './load-clips.ts';
import { LoadError, toLoadError } from './load-error.ts';

/** Most unmatched joint names one warning lists. */
const LISTED_JOINTS = 12;

/**
 * The target's joints as a retargeting drives them: its skin joints (every skeleton node when it has no skin),
 * in skeleton order, named (`#index` for an unnamed one). Non-joint nodes (an `Armature` above the hips, a mesh
 * node) are in neither list, though a name match may drive them: what `sinew inspect --anim` lists and what the
 * unmatched-joints warning counts.
 */
export interface RetargetJoints {
  /** Joints a joint of the clips' file drives. */
  readonly matched: readonly string[];
  /** Joints nothing drives: they keep their rest pose. */
  readonly unmatched: readonly string[];
}

/**
 * Plays every clip of `library` on `target` (retargetClip, docs/explanation/skinning-formulas.md R1): one joint match for
 * all clips, each clip retargeted to an ordinary clip of `target`'s skeleton (compile it like the model's own).
 * Joints match by name (matchJoints), or, when the library has a humanoid (a `.vrma`), the target is an avatar
 * (`target.avatar.humanoid`) and `options.map` is not given, by humanoid bone ({@link matchByHumanoid}).
 *
 * VRM Animation (VRMC_vrm_animation-1.0, as three-vrm's `createVRMAnimationClip` plays it): the VRMA's rest pose is
 * its T-pose, and R1 turns each humanoid bone by its model-space change from that rest, which is what three-vrm's
 * normalized humanoid bones receive; the hips move by the VRMA hips' displacement from rest times the hips-height
 * ratio (target hips rest height / VRMA hips rest height). three-vrm places the hips at ratio × the VRMA hips'
 * position; the two agree up to the hips' horizontal rest offset (equal when both rests have the hips above the
 * origin). three-vrm negates x and z of every key for a VRM 0.x avatar, which faces −Z in its own space; Sinew turns
 * 0.x avatars to face +Z at load, so their model space is VRM 1.0's and no flip applies (three-vrm's flip followed by
 * its `rotateVRM0` gives the same world pose). Expression and look-at tracks pass through unchanged.
 * - `warnings`: one line when some of the target's skin joints (every joint, for a model without skins) match
 *   nothing — they keep their rest pose — naming them (the first 12, then a count); the lines retargetClip
 *   writes, as one line for the file (scale and weights channels ignored). The library's own loader warnings
 *   are not repeated.
 * - `match`: the joint match ({@link JointMatch}) over every skeleton node;
 * - `joints`: the same over the target's joints only ({@link RetargetJoints}), for `sinew inspect --anim`: the
 *   warning's count is `joints.unmatched.length`.
 * @throws LoadError about `library.name`: `RETARGET_NO_MATCH` naming both files when none of the target's joints
 *   matches (a match of non-joint nodes alone, such as `Armature`, moves nothing; by humanoid: no bone of both
 *   maps names one of the target's joints);
 *   `RETARGET_DEGENERATE_REST_POSE` when the hips' rest height is 0 on either side; `INTERNAL` for anything
 *   unforeseen
 */
export function retargetClipLibrary(library: ClipLibrary, target: ModelAsset, options: RetargetOptions = {}): { clips: AnimationClip[]; match: JointMatch; joints: RetargetJoints; warnings: string[] } {
  const sourceHumanoid = library.humanoid, targetHumanoid = target.avatar?.humanoid;
  const byHumanoid = sourceHumanoid !== undefined && targetHumanoid !== undefined && !options.map;
  const match = byHumanoid ? matchByHumanoid(sourceHumanoid, library.skeleton, targetHumanoid, target.skeleton) : matchJoints(library.skeleton, target.skeleton, options.map);
  const skinJoints = new Set<number>();
  for (const skin of target.skins) for (const j of skin.joints) skinJoints.add(j);
  const driven: string[] = [];
  const missing: string[] = [];
  for (let j = 0; j < target.skeleton.jointCount; j++) {
    if (skinJoints.size > 0 && !skinJoints.has(j)) continue;
    (match.sourceOf[j] < 0 ? missing : driven).push(target.skeleton.names[j] || `#${j}`);
  }
  // Nodes above the joints (Z_UP, Armature) often share names across files: they alone move nothing.
  if (driven.length === 0 && byHumanoid) {
    throw new LoadError(library.name, null, 'RETARGET_NO_MATCH', `no humanoid bone of ${target.name} is a humanoid bone of ${library.name} (${target.name} has ${sample(Object.keys(targetHumanoid.bones))}; ${library.name} has ${sample(Object.keys(sourceHumanoid.bones))})`);
  }
  if (driven.length === 0) {
    throw new LoadError(library.name, null, 'RETARGET_NO_MATCH', `no joint of ${target.name} matches a joint of ${library.name} by name${options.map ? ' or by the map given' : ''} (${target.name} has ${sample(missing)}; ${library.name} has ${sample(library.skeleton.names)})`);
  }
  const warnings: string[] = [];
  const joints: RetargetJoints = { matched: driven, unmatched: missing };
  if (missing.length > 0) {
    const more = missing.length > LISTED_JOINTS ? ` and ${missing.length - LISTED_JOINTS} more` : '';
    const one = missing.length === 1;
    warnings.push(`${target.name}: ${missing.length} ${one ? 'joint matches' : 'joints match'} no joint of ${library.name} and ${one ? 'keeps its' : 'keep their'} rest pose: ${missing.slice(0, LISTED_JOINTS).join(', ')}${more}`);
  }
  const source = { skeleton: library.skeleton, restPose: library.restPose, upAxis: library.upAxis };
  const side = { skeleton: target.skeleton, restPose: target.restPose, upAxis: target.upAxis };
  try {
    const notes: string[] = [];
    const clips = library.clips.map((clip) => retargetMatchedClip(clip, { source, target: side, match }, options, notes));
    // One line for the whole file, not one per clip.
    if (notes.length > 0) warnings.push(`${library.name}: scale or weights channels of ${notes.length} of ${clips.length} clips ignored by retargeting`);
    return { clips, match, joints, warnings };
  } catch (error) {
    if (error instanceof RetargetError && error.kind === 'degenerate-rest-pose') {
      throw new LoadError(library.name, null, 'RETARGET_DEGENERATE_REST_POSE', `cannot play on ${target.name}: ${error.message}`, { cause: error });
    }
    throw toLoadError(library.name, error);
  }
}

/** The first few non-empty names, quoted, for a message (the target's: its joints). */
function sample(names: readonly string[]): string {
  const named = names.filter((n) => n !== '');
  if (named.length === 0) return 'no named joints';
  return named.slice(0, 4).map((n) => JSON.stringify(n)).join(', ') + (named.length > 4 ? ', …' : '');
}
