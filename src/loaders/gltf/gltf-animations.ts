import type { GLTF } from '@gltf-transform/core';
import { LoadError, quoteValue } from '../load-error.ts';
import type { MeshAsset, MeshInstance } from '../../asset/model-asset.ts';
import {
  componentCount, findChannelProblem, timesNotIncreasing,
  type AnimationChannel, type AnimationClip, type ChannelPath, type ClipMarker, type Interpolation,
} from '../../asset/animation-clip.ts';
import { BYTE, SHORT, UNSIGNED_BYTE, UNSIGNED_SHORT, type GltfAccessors } from './gltf-accessors.ts';
import type { GltfReading } from './gltf-reading.ts';
import { spreadRepeatedKeyTimes } from './gltf-key-times.ts';
import { normalizeRotations } from './gltf-rotations.ts';

/**
 * Converts `/animations` into AnimationClips, one per animation, in file order (glTF 2.0 §3.11 "Animations").
 *
 * - Clip name: the animation's name, or `animation N`. Duration: the largest key time of its channels (0
 *   for a clip without channels).
 * - Channels targeting translation, rotation or scale of a node are kept, `joint` remapped to the skeleton
 *   index; `weights` channels are kept with the node's morph weight range (`morphTargets`): n = the mesh's
 *   target count components per key, SCALAR float or normalized (u)byte / (u)short as for rotations, k·n values
 *   (×3 for CUBICSPLINE: per key n in-tangents, n values, n out-tangents). Channels without a target node and
 *   unknown paths are skipped with a warning.
 * - Times: SCALAR float, finite, increasing. Equal consecutive times are a step, as three.js plays them
 *   (spreadRepeatedKeyTimes), with one warning for the file naming how many samplers repeat a time.
 * - LINEAR and STEP rotation keys are all normalised, as the Khronos Sample Viewer does before it slerps (quantised
 *   keys are only about unit); CUBICSPLINE values more than 1 % off unit length too. One warning for the file when
 *   any was more than 1 % off; a zero-length key is an error.
 * - An animation without channels, and one whose channels all hold a single key time (a zero-length clip),
 *   is kept (it shows one pose), with one warning for the file listing them. Values: VEC3 float for translation / scale; VEC4
 *   float or normalized (u)byte / (u)short for rotation, de-normalised (`max(c/127, −1)`, `c/255`,
 *   `max(c/32767, −1)`, `c/65535`). CUBICSPLINE values keep the file's in-tangent, value, out-tangent
 *   triples (glTF 2.0 Appendix C).
 * - Markers (`AnimationClip.markers`): the animation's `extras: { markers: [{ time, name }] }`, time in seconds
 *   in [0, duration], name a string (docs/guide/events.md); an entry of another shape is skipped with
 *   a warning naming it.
 *
 * @param jointOfNode `Int32Array(nodeCount)`: skeleton joint of each glTF node
 * @param morphTargets per glTF node, the range of `LocalPose.morphWeights` its mesh instance owns
 *   ({@link morphTargetsOfNodes}), or null for a node without morph targets; default none
 * @throws LoadError `fileName: /animations/a/samplers/s/… problem` for a wrong accessor type, times that are
 *   not finite or that decrease, a rotation key of length 0, or an output count other than the key count
 *   (× n for weights, ×3 for CUBICSPLINE); `/animations/a/channels/c/target/node`
 *   (`ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS`) for a weights channel on a node without morph targets
 */
export function buildGltfClips(
  file: GltfReading,
  animationsJson: readonly GLTF.IAnimation[],
  jointOfNode: Int32Array,
  morphTargets: readonly (NodeMorphTargets | null)[] = [],
): AnimationClip[] {
  const { fileName, accessors, warnings } = file;
  let samplerCount = 0;
  const repeating: string[] = [];
  let firstRepeat = '';
  let rotationsNotUnit = 0;
  let firstNotUnit = '';
  const empty: number[] = [];
  const zeroLength: number[] = [];
  const clips = animationsJson.map((animation, a) => {
    samplerCount += animation.samplers.length;
    const name = animation.name ?? `animation ${a}`;
    const timesOf = new Map<number, Float32Array>();
    const channels: AnimationChannel[] = [];
    let duration = 0;
    animation.channels.forEach((channel, c) => {
      const { node, path } = channel.target;
      if (node === undefined) {
        warnings.push(`${fileName}: animation ${a} channel ${c} has no target node; skipped`);
        return;
      }
      const morph = path === 'weights' ? morphTargets[node] ?? null : null;
      if (path === 'weights' && !morph) {
        throw new LoadError(fileName, `/animations/${a}/channels/${c}/target/node`, 'ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS', `${node} has no mesh with morph targets, but the channel animates its weights`);
      }
      if (path !== 'translation' && path !== 'rotation' && path !== 'scale' && path !== 'weights') {
        warnings.push(`${fileName}: animation ${a} channel ${c} animates ${quoteValue(path)}, which Sinew does not play; skipped`);
        return;
      }
      const s = channel.sampler;
      const sampler = animation.samplers[s];
      const place = `/animations/${a}/samplers/${s}`;
      const interpolation = (sampler.interpolation ?? 'LINEAR') as Interpolation;

      let times = timesOf.get(s);
      if (!times) {
        times = accessors.readFloats(sampler.input, `${place}/input`, ['SCALAR'], []);
        const spread = times.every(Number.isFinite) ? spreadRepeatedKeyTimes(times) : null;
        if (spread) {
          if (repeating.length === 0) {
            const key = times.findIndex((time, i) => i > 0 && time === times![i - 1]);
            firstRepeat = `${place}/input key ${key} at ${times[key]}`;
          }
          repeating.push(place);
          times = spread;
        }
        timesOf.set(s, times);
      }
      const values = path === 'rotation'
        ? accessors.readFloats(sampler.output, `${place}/output`, ['VEC4'], [BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT])
        : path === 'weights'
          ? accessors.readFloats(sampler.output, `${place}/output`, ['SCALAR'], [BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT])
          : accessors.readFloats(sampler.output, `${place}/output`, ['VEC3'], []);
      if (path === 'rotation' && values.length === times.length * (interpolation === 'CUBICSPLINE' ? 12 : 4)) {
        const cubic = interpolation === 'CUBICSPLINE';
        // Slerped and stepped keys are all normalised (gltf-rotations.ts); cubic ones are normalised after
        // interpolation, and their tangents are no rotations.
        const { notUnit, degenerate } = normalizeRotations(values, cubic ? 4 : 0, cubic ? 12 : 4, times.length, !cubic);
        if (degenerate >= 0) {
          throw new LoadError(fileName, `${place}/output`, 'ROTATION_NON_UNIT', `key ${degenerate} is a rotation of length 0 (or not finite), which has no direction`);
        }
        if (notUnit > 0 && rotationsNotUnit === 0) firstNotUnit = `${place}/output`;
        rotationsNotUnit += notUnit;
      }
      const built: AnimationChannel = morph
        ? { joint: jointOfNode[node], path: 'weights', interpolation, times, values, morphWeightOffset: morph.offset, morphTargetCount: morph.count }
        : { joint: jointOfNode[node], path: path as ChannelPath, interpolation, times, values };
      // The channel's own check (animation-clip.ts), worded in glTF's terms: accessors, elements, samplers.
      const problem = findChannelProblem(built, jointOfNode.length);
      if (problem) {
        const components = componentCount(built);
        switch (problem.kind) {
          case 'time-not-finite': throw new LoadError(fileName, `${place}/input`, 'ACCESSOR_INVALID_FLOAT', `key ${problem.key} time is ${times[problem.key]}`);
          case 'times-not-increasing': throw new LoadError(fileName, `${place}/input`, 'ACCESSOR_ANIMATION_INPUT_NON_INCREASING', timesNotIncreasing(times, problem.key));
          case 'value-count':
            throw new LoadError(
              fileName, `${place}/output`, 'ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT',
              path === 'weights'
                ? `has ${values.length} elements; a ${interpolation} weights sampler with ${times.length} keys for ${components} morph targets needs ${problem.expected}`
                : `has ${values.length / components} elements; a ${interpolation} sampler with ${times.length} keys needs ${problem.expected / components}`,
            );
          case 'no-keys': throw new LoadError(fileName, `${place}/input`, 'ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS', 'has no keys');
          case 'morph-weights': throw new LoadError(fileName, `/animations/${a}/channels/${c}/target/node`, 'INTERNAL', 'has no morph weight range');
          case 'joint': throw new LoadError(fileName, `/animations/${a}/channels/${c}/target/node`, 'UNRESOLVED_REFERENCE', `${node} is not in the skeleton`);
        }
      }
      channels.push(built);
      duration = Math.max(duration, times[times.length - 1]);
    });
    if (animation.channels.length === 0) empty.push(a);
    else if (channels.length > 0 && channels.every((c) => c.times[c.times.length - 1] === c.times[0])) zeroLength.push(a);
    const markers = readMarkers(fileName, animation.extras, a, duration, warnings);
    return markers ? { name, duration, channels, markers } : { name, duration, channels };
  });
  if (repeating.length > 0) {
    warnings.push(
      `${fileName}: ${repeating.length} of ${samplerCount} animation samplers repeat a key time (first ${firstRepeat}); ` +
      'played as a step: the later key holds from that time',
    );
  }
  if (rotationsNotUnit > 0) {
    warnings.push(`${fileName}: ${rotationsNotUnit} rotation keys are not unit quaternions (first in ${firstNotUnit}); normalised`);
  }
  if (empty.length > 0) {
    warnings.push(`${fileName}: animation${empty.length > 1 ? 's' : ''} ${empty.join(', ')} ${empty.length > 1 ? 'have' : 'has'} no channels; kept as clips that show the rest pose`);
  }
  if (zeroLength.length > 0) {
    warnings.push(`${fileName}: animation${zeroLength.length > 1 ? 's' : ''} ${zeroLength.join(', ')} ${zeroLength.length > 1 ? 'last' : 'lasts'} 0 s (every channel has one key time); played as one pose`);
  }
  return clips;
}

/** The markers of animation `a`'s `extras.markers`, or null when it has none; malformed entries are warned of and skipped. */
function readMarkers(fileName: string, extras: unknown, a: number, duration: number, warnings: string[]): ClipMarker[] | null {
  const list = extras !== null && typeof extras === 'object' ? (extras as { markers?: unknown }).markers : undefined;
  if (list === undefined) return null;
  const where = `${fileName}: /animations/${a}/extras/markers`;
  if (!Array.isArray(list)) {
    warnings.push(`${where} is not an array of { time, name }; ignored`);
    return null;
  }
  const markers: ClipMarker[] = [];
  list.forEach((entry: unknown, i) => {
    const { time, name } = (entry ?? {}) as { time?: unknown; name?: unknown };
    if (typeof time === 'number' && time >= 0 && time <= duration && typeof name === 'string') markers.push({ time, name });
    else warnings.push(`${where}/${i} is not { time: seconds in [0, ${duration}], name: string }; skipped`);
  });
  return markers;
}

/** The range of `LocalPose.morphWeights` a glTF node's mesh instance owns (`MeshInstance.morphWeightOffset`). */
export interface NodeMorphTargets {
  readonly offset: number;
  /** The mesh's morph target count. */
  readonly count: number;
}

/**
 * Per glTF node (`nodeCount` entries), the morph weight range of the mesh instance it carries, or null when it
 * carries none with morph targets: what {@link buildGltfClips} binds `weights` channels to.
 */
export function morphTargetsOfNodes(instances: readonly MeshInstance[], meshes: readonly MeshAsset[], nodeCount: number): (NodeMorphTargets | null)[] {
  const out: (NodeMorphTargets | null)[] = new Array(nodeCount).fill(null);
  for (const instance of instances) {
    const offset = instance.morphWeightOffset ?? -1;
    if (instance.sourceNode !== null && offset >= 0) out[instance.sourceNode] = { offset, count: meshes[instance.mesh].morphTargetCount ?? 0 };
  }
  return out;
}
