import { PropertyType, type Accessor, type Animation, type Document } from '@gltf-transform/core';
import { dedup, prune } from '@gltf-transform/functions';
import { documentSkeleton, documentTracks } from './document-motion.ts';
import { reduceClipKeys } from './reduce-keys.ts';

/** Options of {@link optimizeDocument}. */
export interface OptimizeOptions {
  /** The error bound, metres (≥ 0): no measured point of any node, and so no skinned vertex, moves further. */
  readonly maxError: number;
  /** Distance of the virtual vertices from each joint, model-space metres (> 0); default 0.03 (ACL's 3 cm). */
  readonly jointDistance?: number;
  /** Store rotation keys as normalized 16-bit integers (glTF 2.0 §3.11); their rounding counts towards the bound. */
  readonly quantize?: boolean;
}

/** One clip's line of `sinew optimize`'s table. */
export interface ClipReport {
  readonly clip: string;
  /** Keys of the clip's node tracks before and after (a CUBICSPLINE key counts once). */
  readonly keysBefore: number;
  readonly keysAfter: number;
  /**
   * Bytes of the clip's animation data as stored in the buffers: every distinct accessor its samplers read (key
   * times and values), before any EXT_meshopt_compression of the file.
   */
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  /** The worst error measured on the result, metres; with where: the node's name (or `node N`) and seconds. */
  readonly maxError: number;
  readonly joint: string;
  readonly time: number;
}

/** Bytes the distinct accessors of an animation's samplers take (count × element bytes). */
export function animationBytes(animation: Animation): number {
  const accessors = new Set<Accessor>();
  for (const sampler of animation.listSamplers()) {
    const input = sampler.getInput(), output = sampler.getOutput();
    if (input) accessors.add(input);
    if (output) accessors.add(output);
  }
  let bytes = 0;
  for (const accessor of accessors) bytes += accessor.getCount() * accessor.getElementSize() * accessor.getComponentSize();
  return bytes;
}

/**
 * `sinew optimize`'s work on a document, in place: every animation's node tracks become LINEAR tracks with the
 * fewest keys {@link reduceClipKeys} finds within `maxError` (virtual vertices through the whole hierarchy and the
 * skinned vertices' boxes, documentSkeleton), rotations optionally quantised; morph weight tracks stay as they are.
 * Samplers and accessors no longer used are removed, equal accessors merged.
 * @returns one report per animation, in document order
 * @throws Error when `quantize` is asked and the rounding alone exceeds `maxError` (naming the clip, the joint,
 *   the time and the error); the document is then unchanged
 */
export async function optimizeDocument(document: Document, options: OptimizeOptions): Promise<ClipReport[]> {
  const { skeleton, indexOf } = documentSkeleton(document, options.jointDistance ?? 0.03);
  const nameOf = (node: number) => (node < 0 ? '' : skeleton.names[node] || `node ${node}`);
  const plans = document.getRoot().listAnimations().map((animation, a) => {
    const tracks = documentTracks(animation, indexOf);
    const reduced = reduceClipKeys(skeleton, tracks, { maxError: options.maxError, quantizeRotations: options.quantize });
    if (options.quantize && reduced.floor.error > options.maxError) {
      throw new Error(`clip ${JSON.stringify(animation.getName() || `animation ${a}`)}: --quantize cannot hold --max-error ${formatMm(options.maxError)}: `
        + `16-bit rotations alone move ${nameOf(reduced.floor.node)} by ${formatMm(reduced.floor.error)} at ${reduced.floor.time.toFixed(3)} s`);
    }
    return { animation, tracks, reduced, bytesBefore: animationBytes(animation) };
  });
  const buffer = document.getRoot().listBuffers()[0] ?? document.createBuffer();
  for (const { animation, tracks, reduced } of plans) {
    tracks.forEach((track, i) => {
      const { times, values } = reduced.tracks[i];
      const quantized = options.quantize === true && track.path === 'rotation';
      // A LINEAR track that keeps every key keeps its sampler, so it goes on sharing its key times with others.
      if (track.interpolation === 'LINEAR' && times.length === track.times.length && !quantized) return;
      const input = document.createAccessor().setType('SCALAR').setArray(Float32Array.from(times)).setBuffer(buffer);
      const type = track.path === 'rotation' ? 'VEC4' : 'VEC3';
      const output = document.createAccessor().setType(type).setBuffer(buffer);
      if (quantized) output.setArray(Int16Array.from(values, (v) => Math.round(v * 32767))).setNormalized(true);
      else output.setArray(Float32Array.from(values));
      const sampler = document.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR');
      animation.addSampler(sampler);
      const old = track.channel.getSampler();
      track.channel.setSampler(sampler);
      if (old && !old.listParents().some((parent) => parent.propertyType === PropertyType.ANIMATION_CHANNEL)) old.dispose();
    });
  }
  await document.transform(
    prune({ propertyTypes: [PropertyType.ACCESSOR], keepAttributes: true, keepIndices: true, keepLeaves: true }),
    dedup({ propertyTypes: [PropertyType.ACCESSOR] }),
  );
  return plans.map(({ animation, reduced, bytesBefore }, a) => ({
    clip: animation.getName() || `animation ${a}`,
    keysBefore: reduced.keysBefore,
    keysAfter: reduced.keysAfter,
    bytesBefore,
    bytesAfter: animationBytes(animation),
    maxError: reduced.worst.error,
    joint: nameOf(reduced.worst.node),
    time: reduced.worst.time,
  }));
}

/** Metres as millimetres for messages, e.g. `0.1 mm`. */
export function formatMm(metres: number): string {
  return `${Number((metres * 1000).toPrecision(3))} mm`;
}
