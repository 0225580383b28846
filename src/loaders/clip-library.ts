import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { secondaryMotionJoints } from '../asset/secondary-motion-asset.ts';
import { matchJoints, retargetMatchedClip, RetargetError, type HumanoidPair, type JointMatch, type RetargetOptions } from '../animation/retarget-clip.ts';
import { matchHumanoid } from '../humanoid/match-humanoid.ts';
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
 * Each side's humanoid map for retargeting `library` onto `target`: the file's own (`library.humanoid`,
 * `target.avatar.humanoid`), else the one {@link matchHumanoid} finds by joint names; undefined when either side
 * has no humanoid bone, so joints match by name alone.
 */
export function clipLibraryHumanoids(library: ClipLibrary, target: ModelAsset): HumanoidPair | undefined {
  const source = library.humanoid ?? matchHumanoid(library.skeleton).humanoid;
  const own = target.avatar?.humanoid ?? matchHumanoid(target.skeleton).humanoid;
  return Object.keys(source.bones).length > 0 && Object.keys(own.bones).length > 0 ? { source, target: own } : undefined;
}

/**
 * Plays every clip of `library` on `target` (retargetClip, docs/explanation/skinning-formulas.md R1): one joint match for
 * all clips (`options.map`, then humanoid bone when both sides have humanoid bones ({@link clipLibraryHumanoids}),
 * then name: matchJoints), each clip retargeted to an ordinary clip of `target`'s skeleton (compile it like the
 * model's own).
 * - `warnings`: one line when some of the target's skin joints (every joint, for a model without skins) match
 *   nothing — they keep their rest pose — naming them (joints its spring bones or node constraints drive,
 *   `secondaryMotionJoints`, are not counted: a humanoid clip is not meant to move them) (the first 12, then a count); the lines retargetClip
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
  const humanoids = clipLibraryHumanoids(library, target);
  let match: JointMatch;
  try {
    match = matchJoints(library.skeleton, target.skeleton, options.map, humanoids);
  } catch (error) {
    throw toLoadError(library.name, error);
  }
  const skinJoints = new Set<number>();
  for (const skin of target.skins) for (const j of skin.joints) skinJoints.add(j);
  const secondary = new Set(secondaryMotionJoints(target.secondaryMotion));
  const driven: string[] = [];
  const missing: string[] = [];
  for (let j = 0; j < target.skeleton.jointCount; j++) {
    if ((skinJoints.size > 0 && !skinJoints.has(j)) || (secondary.has(j) && match.sourceOf[j] < 0)) continue;
    (match.sourceOf[j] < 0 ? missing : driven).push(target.skeleton.names[j] || `#${j}`);
  }
  // Nodes above the joints (Z_UP, Armature) often share names across files: they alone move nothing.
  if (driven.length === 0) {
    throw new LoadError(library.name, null, 'RETARGET_NO_MATCH', `no joint of ${target.name} matches a joint of ${library.name} by name${options.map ? ' or by the map given' : ''}${humanoids ? ' or by humanoid bone' : ''} (${target.name} has ${sample(missing)}; ${library.name} has ${sample(library.skeleton.names)})`);
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
