/**
 * KHR_draco_mesh_compression primitives: their extension objects checked, decoded by gltf-transform's
 * KHRDracoMeshCompression with draco3dgltf's decoder, and every decoded mesh checked against the JSON.
 * gltf-compression.ts reaches this file only through a dynamic import: with draco-decoder-module.ts it is a
 * chunk of its own that only a file with Draco data loads.
 */
import type { GLTF } from '@gltf-transform/core';
import type { WebIO } from '@gltf-transform/core';
import type { Attribute, Decoder, DecoderBuffer, DecoderModule, Mesh, Status } from 'draco3d';
import { LoadError, quoteValue } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';
import { TYPE_COMPONENTS } from './validate-gltf-json.ts';
import { createDracoDecoderModule, KHRDracoMeshCompression } from './draco-decoder-module.ts';
import { messageOf } from '../../errors/message-of.ts';

/** A primitive whose geometry is Draco-compressed (KHR_draco_mesh_compression). */
interface DracoPrimitive {
  /** `/meshes/m/primitives/p/extensions/KHR_draco_mesh_compression` */
  readonly place: string;
  readonly bufferView: number;
  /** semantic → Draco attribute unique id */
  readonly ids: Readonly<Record<string, number>>;
  readonly json: GLTF.IMeshPrimitive;
}

/**
 * The file's Draco-compressed primitives, their extension objects checked (glTF KHR_draco_mesh_compression:
 * `bufferView` an index, `attributes` semantic → integer id, each semantic also among the primitive's
 * `attributes`, the primitive TRIANGLES). Runs after validateGltfJson, so indices into the file are valid.
 * @throws LoadError at `/meshes/m/primitives/p/extensions/KHR_draco_mesh_compression…` for a malformed extension
 */
export function findDracoPrimitives(fileName: string, json: GLTF.IGLTF): DracoPrimitive[] {
  const found: DracoPrimitive[] = [];
  (json.meshes ?? []).forEach((mesh, m) => mesh.primitives.forEach((primitive, p) => {
    const extension = primitive.extensions?.KHR_draco_mesh_compression as Record<string, unknown> | undefined;
    if (extension === undefined) return;
    const place = `/meshes/${m}/primitives/${p}/extensions/KHR_draco_mesh_compression`;
    const fail = (where: string, code: LoadErrorCode, problem: string): never => {
      throw new LoadError(fileName, `${place}${where}`, code, problem);
    };
    if (typeof extension !== 'object' || extension === null || Array.isArray(extension)) fail('', 'TYPE_MISMATCH', 'is not an object');
    const bufferView = extension.bufferView;
    const views = json.bufferViews?.length ?? 0;
    if (!Number.isInteger(bufferView) || (bufferView as number) < 0 || (bufferView as number) >= views) {
      fail('/bufferView', 'UNRESOLVED_REFERENCE', `is ${quoteValue(bufferView)}, not a bufferView (of ${views})`);
    }
    const attributes = extension.attributes;
    if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) fail('/attributes', 'TYPE_MISMATCH', 'is not an object');
    const ids: Record<string, number> = {};
    for (const [semantic, id] of Object.entries(attributes as Record<string, unknown>)) {
      if (!Number.isInteger(id) || (id as number) < 0) fail(`/attributes/${semantic}`, 'VALUE_NOT_IN_RANGE', `is ${quoteValue(id)}, not a Draco attribute id`);
      if (primitive.attributes[semantic] === undefined) {
        fail(`/attributes/${semantic}`, 'UNRESOLVED_REFERENCE', `names ${quoteValue(semantic)}, which the primitive's attributes do not have`);
      }
      ids[semantic] = id as number;
    }
    if ((primitive.mode ?? 4) !== 4) {
      throw new LoadError(fileName, `/meshes/${m}/primitives/${p}/mode`, 'VALUE_NOT_IN_LIST', `is ${primitive.mode}; a Draco-compressed primitive is TRIANGLES (4)`);
    }
    found.push({ place, bufferView: bufferView as number, ids, json: primitive });
  }));
  return found;
}

/**
 * Checks what gltf-transform's KHRDracoMeshCompression decodes, as it decodes it, and names the primitive at
 * fault: `module()` hands gltf-transform a view of the Draco module whose Decoder checks each decoded mesh
 * against the JSON before any attribute is copied out of the WebAssembly heap — every attribute id exists with
 * the accessor's component count, the point count equals each attribute accessor's `count` and 3 × the face
 * count the indices accessor's `count` (so the accessors' counts, which the memory budget holds, bound what is
 * decoded) — and {@link describe} turns any other decoder failure into a LoadError at the primitive being decoded.
 *
 * gltf-transform (KHRDracoMeshCompression.preread) decodes each distinct `bufferView` once, in the order of the
 * primitives in `/meshes`: the n-th stream handed to `DecoderBuffer.Init` is the n-th distinct bufferView.
 */
export class DracoDecodeCheck {
  private readonly order: number[] = [];
  private next = 0;
  /** The bufferView being decoded, −1 before the first. */
  private current = -1;

  constructor(private readonly fileName: string, private readonly json: GLTF.IGLTF, private readonly primitives: readonly DracoPrimitive[]) {
    for (const primitive of primitives) if (!this.order.includes(primitive.bufferView)) this.order.push(primitive.bufferView);
  }

  /** `module` with the checks above; the module itself is not changed. */
  module(module: DecoderModule): DecoderModule {
    const check = this;
    const checked = Object.create(module) as DecoderModule & { DecoderBuffer: new () => DecoderBuffer; Decoder: new () => Decoder };
    const BaseBuffer = module.DecoderBuffer, BaseDecoder = module.Decoder;
    checked.DecoderBuffer = class extends (BaseBuffer as unknown as new () => DecoderBuffer) {
      override Init(array: Int8Array, byteLength: number): void {
        check.current = check.order[check.next++] ?? -1;
        super.Init(array, byteLength);
      }
    };
    checked.Decoder = class extends (BaseDecoder as unknown as new () => Decoder) {
      override DecodeBufferToMesh(buffer: DecoderBuffer, mesh: Mesh): Status {
        const status = super.DecodeBufferToMesh(buffer, mesh);
        if (!status.ok()) throw check.fail(`could not be decoded (Draco: ${status.error_msg()})`);
        if (mesh.ptr === 0) throw check.fail('could not be decoded (Draco: no mesh)');
        check.checkMesh(this, mesh);
        return status;
      }
    };
    return checked;
  }

  /** `error` (thrown while gltf-transform read the file) as the LoadError of the primitive being decoded, or null when none was. */
  describe(error: unknown): LoadError | null {
    if (error instanceof LoadError) return error;
    // gltf-transform's own Draco errors carry the extension's name; the decoder's are WebAssembly aborts.
    const fromDraco = error instanceof WebAssembly.RuntimeError || (error instanceof Error && error.message.startsWith('[KHR_draco_mesh_compression]'));
    if (this.current < 0 || !fromDraco) return null;
    const message = messageOf(error).replace(/^\[KHR_draco_mesh_compression\]\s*/, '');
    return this.fail(`could not be decoded (Draco: ${message.length > 120 ? `${message.slice(0, 120)}…` : message})`);
  }

  private fail(problem: string): LoadError {
    const primitive = this.primitives.find((p) => p.bufferView === this.current) ?? this.primitives[0];
    return new LoadError(this.fileName, primitive.place, 'COMPRESSED_DATA_INVALID', problem);
  }

  private checkMesh(decoder: Decoder, mesh: Mesh): void {
    const points = mesh.num_points(), indexCount = 3 * mesh.num_faces();
    const accessors = this.json.accessors ?? [];
    for (const primitive of this.primitives) {
      if (primitive.bufferView !== this.current) continue;
      for (const [semantic, id] of Object.entries(primitive.ids)) {
        const accessor = accessors[primitive.json.attributes[semantic]];
        const attribute: Attribute & { ptr?: number } = decoder.GetAttributeByUniqueId(mesh, id);
        if (!attribute || attribute.ptr === 0) throw this.fail(`names Draco attribute ${id} for ${semantic}, which the stream does not have`);
        const components = TYPE_COMPONENTS[accessor.type] ?? 1;
        if (attribute.num_components() !== components) {
          throw this.fail(`decodes ${semantic} with ${attribute.num_components()} components; its accessor is ${accessor.type}`);
        }
        if (points !== accessor.count) throw this.fail(`decodes ${points} vertices; the ${semantic} accessor has count ${accessor.count}`);
      }
      if (primitive.json.indices !== undefined && accessors[primitive.json.indices].count !== indexCount) {
        throw this.fail(`decodes ${indexCount / 3} triangles (${indexCount} indices); the indices accessor has count ${accessors[primitive.json.indices].count}`);
      }
    }
  }
}

/** The Draco decoder module, instantiated on first need and kept while it works. */
let decoderModule: Promise<DecoderModule> | null = null;

function loadDracoDecoder(): Promise<DecoderModule> {
  decoderModule ??= createDracoDecoderModule();
  decoderModule.catch(() => { decoderModule = null; });
  return decoderModule;
}

/** The last Draco read begun: each waits for the one before (see {@link readDracoDocument}). */
let lastRead: Promise<unknown> = Promise.resolve();

/**
 * Reads the file with `read` (gltf-transform's `io.readJSON`) after registering KHRDracoMeshCompression on `io`
 * with draco3dgltf's decoder behind {@link DracoDecodeCheck}. Draco reads run one at a time: gltf-transform keeps
 * the decoder module of the last registration in a variable of its own, so two files read at once would decode
 * through one file's checks.
 * @returns what `read` returns
 * @throws LoadError `COMPRESSED_DATA_INVALID` at the primitive whose stream failed; a malformed extension object
 *   ({@link findDracoPrimitives}); `INTERNAL` when the decoder cannot be loaded; or what `read` throws for
 *   anything else. The decoder module is dropped after a Draco failure: one that aborted cannot be used again,
 *   and a stream that claimed a huge mesh has grown its WebAssembly memory, which only dropping the module frees.
 */
export async function readDracoDocument<T>(fileName: string, json: GLTF.IGLTF, io: WebIO, read: () => Promise<T>): Promise<T> {
  const primitives = findDracoPrimitives(fileName, json);
  const before = lastRead;
  let done!: () => void;
  lastRead = new Promise<void>((resolve) => { done = resolve; });
  try {
    await before.catch(() => {});
    const check = new DracoDecodeCheck(fileName, json, primitives);
    io.registerExtensions([KHRDracoMeshCompression]).registerDependencies({ 'draco3d.decoder': check.module(await loadDracoDecoder()) });
    try {
      return await read();
    } catch (error) {
      const described = check.describe(error);
      if (described) decoderModule = null;
      throw described ?? error;
    }
  } finally {
    done();
  }
}
