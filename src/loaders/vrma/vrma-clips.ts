import type { GLTF } from '@gltf-transform/core';
import type { AnimationChannel, AnimationClip, ExpressionTrack, LookAtTrack } from '../../asset/animation-clip.ts';
import { keyStride } from '../../asset/animation-clip.ts';
import type { HumanoidBoneName, HumanoidMap } from '../../asset/avatar-asset.ts';
import type { ModelAsset } from '../../asset/model-asset.ts';
import { quoteValue } from '../load-error.ts';
import { readVrmaExtension, VRMA_EXTENSION } from './vrma-extension.ts';

/**
 * What a `.vrma` adds to a glTF's clips ({@link parseVrmaClips}); its skeleton and rest pose are the glTF's (every
 * node and its TRS: the VRMA's rest pose, a T-pose facing +Z).
 */
export interface VrmaClips {
  /** In file order, split as {@link parseVrmaClips} says. */
  readonly clips: readonly AnimationClip[];
  /** Humanoid bone → skeleton joint; absent when the file has no `humanoid`. */
  readonly humanoid?: HumanoidMap;
  /** The parser's and the extension's, one line per kind, each starting with the file's name. */
  readonly warnings: readonly string[];
}

/**
 * The clips of a loaded `.vrma` (a glTF read by parseGltf, and its JSON), as VRMC_vrm_animation-1.0 defines them:
 * - `humanoid`: `humanoid.humanBones` as humanoid bone → skeleton joint (absent when the file has no humanoid);
 * - per clip, `expressionTracks`: the x translation of each expression's node over time, one track per preset
 *   or custom expression the clip animates (values keep the channel's layout per interpolation, one component);
 *   `lookAtTrack`: the look-at node's rotation channel, as the file has it (its +Z is the gaze in head space);
 * - those nodes' channels are removed from the clip's joint channels, and so are translation channels of
 *   humanoid bones other than the hips (the specification allows none; three-vrm drops them too), with one
 *   warning; other paths of expression or look-at nodes are dropped with one warning (three-vrm throws on them).
 * - The clip's duration stays the file's (the largest key time of any channel, expression and look-at ones too).
 * The parser's warning that `VRMC_vrm_animation` is ignored is removed: here it is read.
 * @throws LoadError from readVrmaExtension (a malformed extension, naming its JSON pointer)
 */
export function parseVrmaClips(asset: ModelAsset, json: GLTF.IGLTF): VrmaClips {
  const fileName = asset.name;
  const warnings = withoutIgnoredExtension(asset.warnings, fileName);
  const nodeCount = Array.isArray(json.nodes) ? json.nodes.length : 0;
  const nodes = readVrmaExtension(fileName, json, nodeCount, warnings);
  const jointOfNode = new Int32Array(nodeCount).fill(-1);
  asset.skeleton.sourceIndices.forEach((node, joint) => { if (node >= 0 && node < nodeCount) jointOfNode[node] = joint; });

  const bones: Partial<Record<HumanoidBoneName, number>> = {};
  for (const [bone, node] of nodes.humanBones) bones[bone] = jointOfNode[node];
  const hips = bones.hips ?? -1;
  const humanoidJoints = new Set(Object.values(bones));
  const expressionsOfJoint = new Map<number, string[]>();
  for (const { name, node } of nodes.expressions) {
    const joint = jointOfNode[node];
    expressionsOfJoint.set(joint, [...(expressionsOfJoint.get(joint) ?? []), name]);
  }
  const lookAtJoint = nodes.lookAtNode === null ? -1 : jointOfNode[nodes.lookAtNode];

  let boneTranslations = 0, otherPaths = 0;
  const clips = asset.clips.map((clip): AnimationClip => {
    const channels: AnimationChannel[] = [];
    const expressionTracks: ExpressionTrack[] = [];
    let lookAtTrack: LookAtTrack | undefined;
    for (const channel of clip.channels) {
      const names = expressionsOfJoint.get(channel.joint);
      if (names) {
        if (channel.path === 'translation') for (const expression of names) expressionTracks.push(expressionTrackOf(channel, expression));
        else otherPaths++;
      } else if (channel.joint === lookAtJoint) {
        if (channel.path === 'rotation') lookAtTrack = { interpolation: gltfInterpolation(channel), times: channel.times, values: channel.values };
        else otherPaths++;
      } else if (channel.path === 'translation' && channel.joint !== hips && humanoidJoints.has(channel.joint)) {
        boneTranslations++;
      } else {
        channels.push(channel);
      }
    }
    return {
      ...clip,
      channels,
      ...(expressionTracks.length > 0 ? { expressionTracks } : {}),
      ...(lookAtTrack ? { lookAtTrack } : {}),
    };
  });
  if (boneTranslations > 0) warnings.push(`${fileName}: ${boneTranslations} translation channels of humanoid bones other than the hips dropped (${VRMA_EXTENSION} animates only the hips' translation)`);
  if (otherPaths > 0) warnings.push(`${fileName}: ${otherPaths} channels of expression or look-at nodes dropped (an expression takes translation, the look-at rotation)`);
  if (clips.length === 0) warnings.push(`${fileName}: has no clips`);

  const humanoid: HumanoidMap | undefined = nodes.humanBones.size > 0 ? { bones } : undefined;
  return { clips, warnings, ...(humanoid ? { humanoid } : {}) };
}

/** glTF's interpolations are the only ones a glTF channel has. */
function gltfInterpolation(channel: AnimationChannel): 'STEP' | 'LINEAR' | 'CUBICSPLINE' {
  const i = channel.interpolation;
  return i === 'STEP' || i === 'CUBICSPLINE' ? i : 'LINEAR';
}

/** The x component of a translation channel, as an expression's weights (CUBICSPLINE: in-tangent, value, out-tangent x). */
function expressionTrackOf(channel: AnimationChannel, expression: string): ExpressionTrack {
  const interpolation = gltfInterpolation(channel);
  const perKey = keyStride(interpolation, 1);
  const k = channel.times.length;
  const values = new Float32Array(k * perKey);
  for (let i = 0; i < values.length; i++) values[i] = channel.values[3 * i];
  return { expression, interpolation, times: channel.times, values };
}

/** `warnings` without `VRMC_vrm_animation` in parseGltf's line of ignored extensions (the line goes when it named only that). */
function withoutIgnoredExtension(warnings: readonly string[], fileName: string): string[] {
  const prefix = `${fileName}: uses extension`;
  const ours = quoteValue(VRMA_EXTENSION);
  const out: string[] = [];
  for (const line of warnings) {
    const match = line.startsWith(prefix) ? /^: uses extensions? (.*), not required; ignored$/.exec(line.slice(fileName.length)) : null;
    if (!match || !match[1].split(', ').includes(ours)) {
      out.push(line);
      continue;
    }
    const rest = match[1].split(', ').filter((name) => name !== ours);
    if (rest.length > 0) out.push(`${fileName}: uses extension${rest.length > 1 ? 's' : ''} ${rest.join(', ')}, not required; ignored`);
  }
  return out;
}
