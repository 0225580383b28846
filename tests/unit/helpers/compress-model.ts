import { Logger, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRDracoMeshCompression, KHRMeshQuantization, KHRTextureBasisu } from '@gltf-transform/extensions';
import { draco, meshopt, quantize } from '@gltf-transform/functions';
import draco3d from 'draco3dgltf';
import { MeshoptEncoder } from 'meshoptimizer';

/** How a test compresses a model: KHR_draco_mesh_compression, EXT_meshopt_compression (with its quantisation) or KHR_mesh_quantization. */
export type Codec = 'draco' | 'meshopt' | 'quantize';
export const CODECS: readonly Codec[] = ['draco', 'meshopt', 'quantize'];

let io: Promise<NodeIO> | null = null;

function writer(): Promise<NodeIO> {
  io ??= (async () => {
    await MeshoptEncoder.ready;
    return new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.SILENT))
      .registerExtensions([EXTMeshoptCompression, KHRDracoMeshCompression, KHRMeshQuantization, KHRTextureBasisu])
      .registerDependencies({ 'draco3d.encoder': await draco3d.createEncoderModule(), 'meshopt.encoder': MeshoptEncoder });
  })();
  return io;
}

/**
 * The `.glb` at `path` (or its bytes) compressed with `codec` by the exporters' own tools — gltf-transform's `draco()` (Google's
 * encoder from draco3dgltf, edgebreaker, default quantisation), `meshopt()` (meshoptimizer's MeshoptEncoder,
 * which quantises first) or `quantize()` — as `.glb` bytes. Test code: made in the test, never stored.
 */
export async function compressModel(path: string | Uint8Array, codec: Codec): Promise<Uint8Array> {
  const io = await writer();
  const document = typeof path === 'string' ? await io.read(path) : await io.readBinary(path);
  await document.transform(codec === 'draco' ? draco() : codec === 'meshopt' ? meshopt({ encoder: MeshoptEncoder }) : quantize());
  return io.writeBinary(document);
}
