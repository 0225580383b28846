import type { Document, Node } from '@gltf-transform/core';

/** One animated property of a node: LINEAR keys (glTF 2.0 §3.11 "Animations"). */
export interface ClipChannel {
  readonly node: Node;
  readonly path: 'translation' | 'rotation';
  /** `Float32Array(k)`, seconds, increasing. */
  readonly times: Float32Array;
  /** `Float32Array(3k)` translations (metres) or `Float32Array(4k)` unit quaternions (x, y, z, w). */
  readonly values: Float32Array;
}

/** Adds an animation of LINEAR channels to the document; channels sharing a `times` array share its accessor. */
export function addClip(document: Document, name: string, channels: readonly ClipChannel[]): void {
  const buffer = document.getRoot().listBuffers()[0];
  const animation = document.createAnimation(name);
  const inputs = new Map<Float32Array, ReturnType<Document['createAccessor']>>();
  channels.forEach((channel, i) => {
    let input = inputs.get(channel.times);
    if (!input) {
      input = document.createAccessor(`${name}_time${inputs.size}`).setType('SCALAR').setArray(channel.times).setBuffer(buffer);
      inputs.set(channel.times, input);
    }
    const output = document.createAccessor(`${name}_${i}_${channel.path}`).setType(channel.path === 'rotation' ? 'VEC4' : 'VEC3')
      .setArray(channel.values).setBuffer(buffer);
    const sampler = document.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR');
    animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(channel.node).setTargetPath(channel.path).setSampler(sampler));
  });
}

/** `count` evenly spaced key times from 0 to `duration` seconds inclusive. */
export function keyTimes(duration: number, count: number): Float32Array {
  return Float32Array.from({ length: count }, (_, k) => duration * k / (count - 1));
}
