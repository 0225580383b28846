import type { Animation, AnimationChannel, Document, Node } from '@gltf-transform/core';
import type { MotionSkeleton, MotionTrack, TrackInterpolation, TrackPath } from './clip-motion.ts';
import { composeMatrix, multiplyAffine } from './trs-math.ts';

/** A {@link MotionTrack} with the channel it came from. */
export interface DocumentTrack extends MotionTrack {
  readonly channel: AnimationChannel;
}

/** A document's node tree for the error metric, and the map from its nodes to skeleton order. */
export interface DocumentSkeleton {
  readonly skeleton: MotionSkeleton;
  /** glTF-Transform node → index in skeleton order. */
  readonly indexOf: ReadonlyMap<Node, number>;
}

/** Every node of the document in depth-first pre-order (roots in document order). */
function preOrder(document: Document): Node[] {
  const order: Node[] = [];
  const visit = (node: Node) => { order.push(node); for (const child of node.listChildren()) visit(child); };
  for (const node of document.getRoot().listNodes()) if (node.getParentNode() === null) visit(node);
  return order;
}

/**
 * The document's nodes as a {@link MotionSkeleton}, each node carrying the points ACL's error metric measures
 * (ACL, the Animation Compression Library, "virtual vertices"): six points at ±`jointDistance` along the node's
 * local x, y and z axes (the distance in model-space metres, divided by the node's rest-pose model-space scale so
 * a node under a scaled parent still measures at `jointDistance`), and, for a skin joint, the eight corners of the
 * box around the skinned vertices it moves, in its own frame (inverse bind matrix · bind position; glTF 2.0
 * §3.7.3 "Skins"). A linear-blend-skinned vertex is a convex blend of its joints' images of these points' box,
 * so its error is at most the worst error of the corners: holding the corners holds the real skinned vertices.
 * @param jointDistance metres (> 0)
 */
export function documentSkeleton(document: Document, jointDistance: number): DocumentSkeleton {
  const nodes = preOrder(document);
  const n = nodes.length;
  const indexOf = new Map(nodes.map((node, i) => [node, i] as const));
  const parents = new Int32Array(n), subtreeSizes = new Int32Array(n).fill(1), rest = new Float64Array(10 * n);
  nodes.forEach((node, i) => {
    const parent = node.getParentNode();
    parents[i] = parent ? indexOf.get(parent)! : -1;
    rest.set(node.getTranslation(), 10 * i);
    rest.set(node.getRotation(), 10 * i + 3);
    rest.set(node.getScale(), 10 * i + 7);
  });
  for (let i = n - 1; i >= 0; i--) if (parents[i] >= 0) subtreeSizes[parents[i]] += subtreeSizes[i];
  const local = new Float64Array(16 * n), world = new Float64Array(16 * n);
  for (let i = 0; i < n; i++) {
    composeMatrix(local, 16 * i, rest, 10 * i);
    if (parents[i] < 0) world.set(local.subarray(16 * i, 16 * i + 16), 16 * i);
    else multiplyAffine(world, 16 * i, world, 16 * parents[i], local, 16 * i);
  }
  const boxes = skinBoxes(document, indexOf, n);
  const points = nodes.map((_, i) => {
    const w = world.subarray(16 * i, 16 * i + 16);
    const det = w[0] * (w[5] * w[10] - w[6] * w[9]) - w[4] * (w[1] * w[10] - w[2] * w[9]) + w[8] * (w[1] * w[6] - w[2] * w[5]);
    const scale = Math.cbrt(Math.abs(det)) || 1;
    const d = jointDistance / scale;
    const list = [d, 0, 0, -d, 0, 0, 0, d, 0, 0, -d, 0, 0, 0, d, 0, 0, -d];
    const box = boxes.subarray(6 * i, 6 * i + 6);
    if (box[0] <= box[3]) {
      for (let c = 0; c < 8; c++) list.push(box[c & 1 ? 3 : 0], box[c & 2 ? 4 : 1], box[c & 4 ? 5 : 2]);
    }
    return Float64Array.from(list);
  });
  return { skeleton: { parents, subtreeSizes, rest, names: nodes.map((node) => node.getName()), points }, indexOf };
}

/** Per node, min x y z then max x y z of the bind positions it skins, in its frame (min > max: none). */
function skinBoxes(document: Document, indexOf: ReadonlyMap<Node, number>, n: number): Float64Array {
  const boxes = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) boxes.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * i);
  const position: number[] = [0, 0, 0], joints: number[] = [0, 0, 0, 0], weights: number[] = [0, 0, 0, 0], ibm: number[] = new Array(16).fill(0);
  for (const node of document.getRoot().listNodes()) {
    const skin = node.getSkin(), mesh = node.getMesh();
    if (!skin || !mesh) continue;
    const skinJoints = skin.listJoints(), ibms = skin.getInverseBindMatrices();
    for (const primitive of mesh.listPrimitives()) {
      const positions = primitive.getAttribute('POSITION');
      if (!positions) continue;
      for (let set = 0; ; set++) {
        const jointAccessor = primitive.getAttribute(`JOINTS_${set}`), weightAccessor = primitive.getAttribute(`WEIGHTS_${set}`);
        if (!jointAccessor || !weightAccessor) break;
        for (let v = 0; v < positions.getCount(); v++) {
          positions.getElement(v, position);
          jointAccessor.getElement(v, joints);
          weightAccessor.getElement(v, weights);
          for (let k = 0; k < 4; k++) {
            if (!(weights[k] > 0) || joints[k] >= skinJoints.length) continue;
            const j = indexOf.get(skinJoints[joints[k]]);
            if (j === undefined) continue;
            if (ibms) ibms.getElement(joints[k], ibm); else ibm.splice(0, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
            for (let c = 0; c < 3; c++) {
              const p = ibm[c] * position[0] + ibm[4 + c] * position[1] + ibm[8 + c] * position[2] + ibm[12 + c];
              boxes[6 * j + c] = Math.min(boxes[6 * j + c], p);
              boxes[6 * j + 3 + c] = Math.max(boxes[6 * j + 3 + c], p);
            }
          }
        }
      }
    }
  }
  return boxes;
}

/**
 * The node tracks of an animation (translation, rotation, scale channels with a sampler and a target node in the
 * skeleton; morph weight channels are left out and left alone).
 */
export function documentTracks(animation: Animation, indexOf: ReadonlyMap<Node, number>): DocumentTrack[] {
  const tracks: DocumentTrack[] = [];
  for (const channel of animation.listChannels()) {
    const path = channel.getTargetPath(), node = channel.getTargetNode(), sampler = channel.getSampler();
    if (path !== 'translation' && path !== 'rotation' && path !== 'scale') continue;
    const input = sampler?.getInput(), output = sampler?.getOutput();
    if (!node || !input || !output || !indexOf.has(node)) continue;
    const times = Float64Array.from(input.getArray()!);
    const values = Float64Array.from({ length: output.getCount() * output.getElementSize() }, () => 0);
    const element: number[] = [];
    for (let k = 0, size = output.getElementSize(); k < output.getCount(); k++) {
      output.getElement(k, element);
      for (let c = 0; c < size; c++) values[k * size + c] = element[c];
    }
    tracks.push({ channel, node: indexOf.get(node)!, path: path as TrackPath, interpolation: sampler!.getInterpolation() as TrackInterpolation, times, values });
  }
  return tracks;
}
