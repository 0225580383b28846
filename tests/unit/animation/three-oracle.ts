/**
 * three.js as an independent oracle for the samplers (tests only; three.js never enters src/).
 * Exposes three's interpolants, including GLTFLoader's private CUBICSPLINE interpolant, which is reached
 * by parsing a one-node glTF with a CUBICSPLINE animation and borrowing its track's factory method.
 */
import { KeyframeTrack, QuaternionKeyframeTrack, VectorKeyframeTrack } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

type Factory = (this: KeyframeTrack, result?: Float32Array) => { evaluate(t: number): ArrayLike<number> };

let cubicFactory: Promise<Factory> | null = null;

/** three.js GLTFLoader's CUBICSPLINE interpolant factory (`track.createInterpolant`). */
export function gltfCubicSplineFactory(): Promise<Factory> {
  cubicFactory ??= new Promise<Factory>((resolve, reject) => {
    const times = Float32Array.of(0, 1);
    const values = new Float32Array(18);
    const bytes = new Uint8Array(times.byteLength + values.byteLength);
    bytes.set(new Uint8Array(times.buffer), 0);
    bytes.set(new Uint8Array(values.buffer), times.byteLength);
    const gltf = {
      asset: { version: '2.0' },
      scene: 0,
      scenes: [{ nodes: [0] }],
      nodes: [{ name: 'n' }],
      buffers: [{ byteLength: bytes.length }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: times.byteLength },
        { buffer: 0, byteOffset: times.byteLength, byteLength: values.byteLength },
      ],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
        { bufferView: 1, componentType: 5126, count: 6, type: 'VEC3' },
      ],
      animations: [{ channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }], samplers: [{ input: 0, output: 1, interpolation: 'CUBICSPLINE' }] }],
    };
    new GLTFLoader().parse(glb(JSON.stringify(gltf), bytes), '', (result) => {
      const factory = (result.animations[0].tracks[0] as unknown as { createInterpolant: Factory }).createInterpolant;
      if (!(factory as unknown as { isInterpolantFactoryMethodGLTFCubicSpline?: boolean }).isInterpolantFactoryMethodGLTFCubicSpline) {
        reject(new Error('GLTFLoader did not install its CUBICSPLINE interpolant'));
      }
      resolve(factory);
    }, reject);
  });
  return cubicFactory;
}

/**
 * A three.js track over glTF-layout data: `VectorKeyframeTrack` (c = 3) or `QuaternionKeyframeTrack` (c = 4)
 * with three's own interpolant for STEP / LINEAR, or GLTFLoader's for CUBICSPLINE.
 */
export async function threeTrack(
  c: 3 | 4, interpolation: 'STEP' | 'LINEAR' | 'CUBICSPLINE', times: Float32Array, values: Float32Array,
): Promise<(t: number) => number[]> {
  const Track = c === 4 ? QuaternionKeyframeTrack : VectorKeyframeTrack;
  const track = new Track('n.x', Array.from(times), Array.from(values)) as KeyframeTrack;
  if (interpolation === 'STEP') track.setInterpolation(2300 /* InterpolateDiscrete */);
  if (interpolation === 'CUBICSPLINE') {
    (track as unknown as { createInterpolant: Factory }).createInterpolant = await gltfCubicSplineFactory();
  }
  const interpolant = (track as unknown as { createInterpolant: Factory }).createInterpolant.call(track, new Float32Array(c));
  return (t: number) => Array.from(interpolant.evaluate(t));
}

/** A GLB container (glTF 2.0 §4.4) holding `json` and one BIN chunk: no URIs, so no fetch in node. */
function glb(json: string, bin: Uint8Array): ArrayBuffer {
  const text = new TextEncoder().encode(json);
  const jsonLength = (text.length + 3) & ~3, binLength = (bin.length + 3) & ~3;
  const out = new Uint8Array(12 + 8 + jsonLength + 8 + binLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true);
  out.set(bin, 28 + jsonLength);
  return out.buffer;
}
