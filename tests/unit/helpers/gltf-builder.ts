type Typed = Int8Array | Uint8Array | Int16Array | Uint16Array | Uint32Array | Float32Array;

const COMPONENT_TYPE = new Map<Function, number>([
  [Int8Array, 5120], [Uint8Array, 5121], [Int16Array, 5122], [Uint16Array, 5123], [Uint32Array, 5125], [Float32Array, 5126],
]);

/**
 * Builds small glTF 2.0 files for tests: typed arrays become accessors in one binary buffer (each in its own
 * 4-byte aligned buffer view), written out as `.gltf` with a base64 data URI, `.gltf` with an external
 * buffer, or `.glb`. `json` is public and plain, so tests can break it on purpose.
 */
export class GltfBuilder {
  // The document under construction, untyped so tests can write invalid values into it.
  json: any = { asset: { version: '2.0' }, buffers: [], bufferViews: [], accessors: [] };
  private chunks: Uint8Array[] = [];
  private length = 0;

  /** Appends `data` as an accessor of `type` (component type from the array class); returns its index. */
  accessor(data: Typed, type: string, options: { normalized?: boolean; byteStride?: number; min?: number[]; max?: number[] } = {}): number {
    const bufferView = this.bufferView(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), options.byteStride);
    const components = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[type]!;
    const count = options.byteStride ? data.byteLength / options.byteStride : data.length / components;
    const accessor: any = { bufferView, componentType: COMPONENT_TYPE.get(data.constructor)!, count, type };
    if (options.normalized) accessor.normalized = true;
    if (options.min) accessor.min = options.min;
    if (options.max) accessor.max = options.max;
    this.json.accessors.push(accessor);
    return this.json.accessors.length - 1;
  }

  /** Appends raw bytes as a buffer view; returns its index. */
  bufferView(bytes: Uint8Array, byteStride?: number): number {
    const padding = (4 - (this.length % 4)) % 4;
    if (padding) this.push(new Uint8Array(padding));
    const view: any = { buffer: 0, byteOffset: this.length, byteLength: bytes.byteLength };
    if (byteStride) view.byteStride = byteStride;
    this.push(bytes.slice());
    this.json.bufferViews.push(view);
    return this.json.bufferViews.length - 1;
  }

  /** The binary buffer built so far. */
  bin(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  /** `.gltf` bytes with the buffer embedded as a base64 data URI (or external under `uri`). */
  gltf(uri?: string): Uint8Array {
    const json = structuredClone(this.json);
    const bin = this.bin();
    json.buffers = [{ byteLength: bin.length, uri: uri ?? `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}` }];
    return new TextEncoder().encode(JSON.stringify(json));
  }

  /** `.glb` bytes: header, JSON chunk (space-padded), BIN chunk (zero-padded). */
  glb(): Uint8Array {
    const json = structuredClone(this.json);
    const bin = this.bin();
    json.buffers = [{ byteLength: bin.length }];
    const text = new TextEncoder().encode(JSON.stringify(json));
    const jsonPadded = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20);
    jsonPadded.set(text);
    const binPadded = new Uint8Array(Math.ceil(bin.length / 4) * 4);
    binPadded.set(bin);
    const total = 12 + 8 + jsonPadded.length + 8 + binPadded.length;
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    view.setUint32(0, 0x46546c67, true);
    view.setUint32(4, 2, true);
    view.setUint32(8, total, true);
    view.setUint32(12, jsonPadded.length, true);
    view.setUint32(16, 0x4e4f534a, true);
    out.set(jsonPadded, 20);
    const binAt = 20 + jsonPadded.length;
    view.setUint32(binAt, binPadded.length, true);
    view.setUint32(binAt + 4, 0x004e4942, true);
    out.set(binPadded, binAt + 8);
    return out;
  }

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
}

/**
 * A skinned quad whose nodes are stored child-first, so the loader must reorder them:
 * node 0 `joint1` (child of node 2), node 1 `quad` (mesh 0, skin 0), node 2 `joint0` (root, children [0]).
 * Skin 0 joints [2, 0] with inverse binds translating by (0, −y); 4 vertices, 2 triangles, JOINTS_0 u8,
 * WEIGHTS_0 float; animation 0 rotates node 0 (LINEAR, keys at 0 and 1 s).
 */
export function skinnedQuad(): GltfBuilder {
  const b = new GltfBuilder();
  const position = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]), 'VEC3', { min: [0, 0, 0], max: [1, 1, 0] });
  const indices = b.accessor(new Uint16Array([0, 1, 2, 2, 1, 3]), 'SCALAR');
  const joints = b.accessor(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]), 'VEC4');
  const weights = b.accessor(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0]), 'VEC4');
  const inverseBind = b.accessor(new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1]), 'MAT4');
  const times = b.accessor(new Float32Array([0, 1]), 'SCALAR', { min: [0], max: [1] });
  const rotations = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2]), 'VEC4');
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [1, 2] }],
    nodes: [
      { name: 'joint1', translation: [0, 1, 0] },
      { name: 'quad', mesh: 0, skin: 0 },
      { name: 'joint0', children: [0] },
    ],
    meshes: [{ name: 'quad', primitives: [{ attributes: { POSITION: position, JOINTS_0: joints, WEIGHTS_0: weights }, indices }] }],
    skins: [{ joints: [2, 0], inverseBindMatrices: inverseBind }],
    animations: [{ name: 'bend', samplers: [{ input: times, output: rotations }], channels: [{ sampler: 0, target: { node: 0, path: 'rotation' } }] }],
  });
  return b;
}

/** The quad with a translation channel on its root joint (node 2) over `times` / `values` (VEC3). */
export function quadWithTranslation(times: number[], values: number[], interpolation = 'LINEAR', extraSamplers = 0): GltfBuilder {
  const b = skinnedQuad();
  const input = b.accessor(Float32Array.from(times), 'SCALAR', { min: [Math.min(...times)], max: [Math.max(...times)] });
  const output = b.accessor(Float32Array.from(values), 'VEC3');
  const animation = b.json.animations[0];
  animation.samplers.push({ input, output, interpolation });
  animation.channels.push({ sampler: animation.samplers.length - 1, target: { node: 2, path: 'translation' } });
  for (let i = 0; i < extraSamplers; i++) {
    animation.samplers.push({ input, output, interpolation });
    animation.channels.push({ sampler: animation.samplers.length - 1, target: { node: 0, path: 'scale' } });
  }
  return b;
}
