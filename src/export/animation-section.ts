import { Document, Format, GLB_BUFFER, Logger, WebIO, type Accessor, type GLTF, type Node } from '@gltf-transform/core';
import type { BakedClip } from './baked-clip.ts';

/**
 * Baked clips written by glTF-Transform as a glTF fragment of their own: `accessors`, `bufferViews` (all in one
 * buffer, whose bytes are `bin`) and `animations` whose channels target the glTF node indices of the model the clips
 * were baked for (glTF 2.0 §3.11 "Animations"; input accessors carry min / max as §3.11 requires). Indices inside it
 * count from 0; {@link appendAnimationSection} shifts them onto a file.
 */
export interface AnimationSection {
  readonly accessors: GLTF.IAccessor[];
  readonly bufferViews: GLTF.IBufferView[];
  readonly animations: GLTF.IAnimation[];
  /** The section's buffer: every bufferView's bytes, 4-byte aligned. */
  readonly bin: Uint8Array;
}

/**
 * Writes `clips` with glTF-Transform: one animation per clip, one sampler per channel (its interpolation as baked),
 * channels sharing a key-times array sharing its input accessor. The document holds one stand-in node per target
 * node; the channels written are pointed back at the model's nodes by index.
 * @throws Error when glTF-Transform's output lacks its buffer (it never does)
 */
export async function writeAnimationSection(clips: readonly BakedClip[]): Promise<AnimationSection> {
  const document = new Document();
  const buffer = document.createBuffer();
  const standIns = new Map<number, Node>();
  const order: number[] = [];
  const standIn = (node: number): Node => {
    let found = standIns.get(node);
    if (!found) {
      found = document.createNode(`node${node}`);
      standIns.set(node, found);
      order.push(node);
    }
    return found;
  };
  for (const clip of clips) {
    const animation = document.createAnimation(clip.name);
    const inputs = new Map<Float32Array, Accessor>();
    clip.channels.forEach((channel) => {
      let input = inputs.get(channel.times);
      if (!input) {
        input = document.createAccessor().setType('SCALAR').setArray(channel.times).setBuffer(buffer);
        inputs.set(channel.times, input);
      }
      const output = document.createAccessor().setType(channel.path === 'rotation' ? 'VEC4' : 'VEC3').setArray(channel.values).setBuffer(buffer);
      const sampler = document.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(channel.interpolation);
      animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(standIn(channel.node)).setTargetPath(channel.path).setSampler(sampler));
    });
  }
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
  const { json, resources } = await io.writeJSON(document, { format: Format.GLB });
  const bin = resources[GLB_BUFFER] ?? new Uint8Array(0);
  const animations = (json.animations ?? []).map((animation) => ({
    ...animation,
    channels: animation.channels.map((channel) => ({ ...channel, target: { ...channel.target, node: order[channel.target.node!] } })),
  }));
  if ((json.bufferViews ?? []).length > 0 && !resources[GLB_BUFFER]) throw new Error('writeAnimationSection: glTF-Transform wrote no buffer');
  return { accessors: json.accessors ?? [], bufferViews: json.bufferViews ?? [], animations, bin };
}

/**
 * Adds `section` to the glTF JSON `json` (edited in place), its bytes placed at `byteOffset` of buffer `buffer`:
 * bufferView byte offsets moved by `byteOffset`, accessor and sampler indices by the counts already in the file.
 * `byteOffset` must be a multiple of 4 (glTF 2.0 §3.6.2.4 data alignment). The caller sizes the buffer.
 */
export function appendAnimationSection(json: GLTF.IGLTF, section: AnimationSection, buffer: number, byteOffset: number): void {
  const viewBase = (json.bufferViews ??= []).length;
  const accessorBase = (json.accessors ??= []).length;
  for (const view of section.bufferViews) json.bufferViews.push({ ...view, buffer, byteOffset: (view.byteOffset ?? 0) + byteOffset });
  for (const accessor of section.accessors) json.accessors.push({ ...accessor, bufferView: accessor.bufferView! + viewBase });
  json.animations ??= [];
  for (const animation of section.animations) {
    json.animations.push({
      ...animation,
      samplers: animation.samplers.map((sampler) => ({ ...sampler, input: sampler.input + accessorBase, output: sampler.output + accessorBase })),
    });
  }
}
