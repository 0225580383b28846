import { Logger, WebIO, type GLTF } from '@gltf-transform/core';
import type { ModelAsset } from '../../asset/model-asset.ts';
import { collapseWarnings } from '../collapse-warnings.ts';
import { LoadError, toLoadError } from '../load-error.ts';
import { GltfAccessors } from './gltf-accessors.ts';
import type { GltfReading } from './gltf-reading.ts';
import { buildGltfClips, morphTargetsOfNodes } from './gltf-animations.ts';
import { checkGltfExtensions } from './gltf-extensions.ts';
import { normalizeRotations } from './gltf-rotations.ts';
import { noteSceneDeviations } from './gltf-scene-notes.ts';
import { splitGltfContainer } from './gltf-container.ts';
import { buildGltfMaterials } from './gltf-materials.ts';
import { buildGltfMeshInstances } from './gltf-mesh-instances.ts';
import { buildGltfMeshes } from './gltf-meshes.ts';
import { resolveGltfResources } from './gltf-resources.ts';
import { buildGltfSkeleton } from './gltf-skeleton.ts';
import { buildGltfSkins } from './gltf-skins.ts';
import { validateGltfJson } from './validate-gltf-json.ts';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../../asset/memory-budget.ts';
import { decodeMeshopt, readWithDraco } from './gltf-compression.ts';
import { requirePositiveBytes } from '../require-positive-bytes.ts';
import { yieldToPage } from '../../schedule/yield-to-page.ts';
import { slimForReader } from './slim-for-reader.ts';
import { readVrmAvatar } from '../vrm/read-vrm-avatar.ts';
import { turnVrm0ToFaceZ } from '../vrm/turn-vrm0-to-face-z.ts';
import { readSecondaryMotion } from '../vrm/read-secondary-motion.ts';

/** Options of {@link parseGltf}. */
export interface GltfParseOptions {
  /** Most bytes all accessors may decode to; default `DEFAULT_MEMORY_BUDGET_BYTES` (512 MiB). */
  readonly memoryBudgetBytes?: number;
  /**
   * Told after each long step of the parse, when the page has had a turn (validation, the reader, materials,
   * meshes): the share of the steps done, in (0, 1]. A page shows it as loading progress after the download.
   */
  readonly onParseProgress?: (fraction: number) => void;
}

/** The long steps of a parse, each followed by a turn of the page ({@link GltfParseOptions.onParseProgress}). */
const PARSE_STEPS = 4;

/**
 * Parses a glTF 2.0 model (`.glb` bytes, or `.gltf` JSON bytes whose buffers and images are data URIs or
 * external files given in `resources`) into a ModelAsset. Pure: no file or network access, so it runs in
 * node and in the browser (node callers may use read-gltf-file.ts to gather the resources).
 *
 * Steps: split the container (gltf-container.ts) → resolve buffer and image bytes (gltf-resources.ts) →
 * decode EXT_meshopt_compression buffer views (gltf-compression.ts) → validate the JSON's structure and references
 * (validate-gltf-json.ts) → read accessors and node TRS with gltf-transform, which decodes
 * KHR_draco_mesh_compression primitives (gltf-compression.ts) → map onto Sinew's types:
 * - skeleton: every node, parents before children, `sourceIndices` = node index (gltf-skeleton.ts);
 * - meshes: triangle lists, normals computed when absent, every influence kept (gltf-meshes.ts);
 * - skins: joints as skeleton indices, inverse bind matrices or identities (gltf-skins.ts);
 * - meshInstances: one per mesh node, in node order (gltf-mesh-instances.ts);
 * - materials and images (gltf-materials.ts); clips (gltf-animations.ts); `upAxis` 'y';
 * - a VRM file's avatar (`VRMC_vrm` 1.0 or `VRM` 0.x; src/loaders/vrm/read-vrm-avatar.ts) as `avatar`; a VRM 0.x
 *   model is turned half a turn about Y to face +Z, as three-vrm's `VRMUtils.rotateVRM0` (turn-vrm0-to-face-z.ts);
 * - spring bones (`VRMC_springBone`, or VRM 0.x `secondaryAnimation`) and node constraints (`VRMC_node_constraint`)
 *   as `secondaryMotion`, for any glTF that has them (src/loaders/vrm/read-secondary-motion.ts).
 * The meshopt and Draco decoders (WebAssembly) are imported on first need, so they are chunks of their own
 * that only a file with compressed data loads.
 * Non-fatal findings (skipped primitives or channels, ignored extensions, and the
 * deviations docs/explanation/compatibility.md tolerates: repeated key times, non-unit rotations, mixed skinned and
 * unskinned primitives, …) go to `warnings`, one per kind and file, each starting with `fileName:`.
 *
 * @param fileName the file's name, used in every message (e.g. `Fox.glb`)
 * @param bytes the whole `.glb` or `.gltf` file
 * @param resources uri → bytes for external buffers and images, keyed by the uri as written in the JSON (or
 *   its percent-decoded form)
 * @param options.memoryBudgetBytes most bytes the accessors may decode to, checked before any is read
 *   (`MEMORY_BUDGET_EXCEEDED`); default 512 MiB
 * @throws LoadError about `fileName` naming the place (`where`: a JSON pointer, a GLB byte offset, or null
 *   when the problem names a mesh / primitive / vertex in words) and the problem, for malformed containers,
 *   JSON, references, accessor data, compressed data that does not decode (`COMPRESSED_DATA_INVALID` at the
 *   extension's JSON pointer), a required extension Sinew does not read (`UNSUPPORTED_EXTENSION`), a missing
 *   buffer (`FILE_NOT_FOUND`; a missing external image is a warning and a neutral white texture), or a broken
 *   VRM humanoid (`HUMANOID_INVALID`); codes are the Khronos glTF-Validator's where one fits. Any other failure
 *   (inside gltf-transform, or unforeseen) is wrapped as code `INTERNAL`.
 * @throws RangeError when `options.memoryBudgetBytes` is not a positive number
 */
export async function parseGltf(fileName: string, bytes: Uint8Array, resources?: Record<string, Uint8Array>, options: GltfParseOptions = {}): Promise<ModelAsset> {
  // A caller's mistake, not the file's: thrown as it is, outside the LoadError wrapping below.
  if (options.memoryBudgetBytes !== undefined) requirePositiveBytes('memoryBudgetBytes', options.memoryBudgetBytes);
  try {
    return await parse(fileName, bytes, resources, options);
  } catch (error) {
    // A failure inside gltf-transform or an unforeseen case: still a LoadError naming the file.
    throw toLoadError(fileName, error);
  }
}

async function parse(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array> | undefined, options: GltfParseOptions): Promise<ModelAsset> {
  const container = splitGltfContainer(fileName, bytes);
  let json = container.json;
  // Warnings start here: a missing external image is one (a neutral texture stands in for it).
  const warnings: string[] = [];
  let resolved = resolveGltfResources(fileName, json, container.binChunk, resources, warnings);
  if (resolved.missingImages.length > 0) {
    // The neutral stand-in is a PNG whatever the file said the image was.
    const missing = new Set(resolved.missingImages);
    json = { ...json, images: json.images!.map((image, i) => (missing.has(i) ? { ...image, mimeType: 'image/png' } : image)) };
  }
  const memoryBudgetBytes = options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  ({ json, resources: resolved } = await decodeMeshopt(fileName, json, resolved, memoryBudgetBytes));
  validateGltfJson(fileName, json, resolved.buffers, memoryBudgetBytes);
  // Each step below is one long task on a large file; between them the page answers input.
  await yieldToPage();
  options.onParseProgress?.(1 / PARSE_STEPS);

  const extensions = checkGltfExtensions(fileName, json, warnings);

  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
  // gltf-transform types resources as ArrayBuffer-backed views; it only reads them.
  const read = (reader: GLTF.IGLTF) => () => io.readJSON({ json: reader, resources: resolved.byUri as Record<string, Uint8Array<ArrayBuffer>> });
  const document = await readWithDraco(fileName, json, io, read(extensions.jsonForReader), read(slimForReader(extensions.jsonForReader)));
  const root = document.getRoot();
  await yieldToPage();
  options.onParseProgress?.(2 / PARSE_STEPS);

  const nodesJson = json.nodes ?? [];
  const nodes = root.listNodes();
  const accessorList = root.listAccessors();
  // The slim reader sees the nodes up to the last `matrix` node only (slim-for-reader.ts).
  if (nodes.length > nodesJson.length || accessorList.length !== (json.accessors ?? []).length) {
    throw new LoadError(fileName, null, 'INTERNAL', `gltf-transform read ${nodes.length} nodes and ${accessorList.length} accessors, the JSON has at most ${nodesJson.length} and ${(json.accessors ?? []).length}`);
  }
  const accessors = new GltfAccessors(fileName, json.accessors ?? [], accessorList);

  const { skeleton, restPose, jointOfNode } = buildGltfSkeleton(fileName, nodesJson, nodes);
  const rotations = normalizeRotations(restPose.rotations, 0, 4, skeleton.jointCount);
  if (rotations.degenerate >= 0) {
    throw new LoadError(fileName, `/nodes/${skeleton.sourceIndices[rotations.degenerate]}/rotation`, 'ROTATION_NON_UNIT', 'has length 0 (or is not finite), which has no direction');
  }
  if (rotations.notUnit > 0) warnings.push(`${fileName}: ${rotations.notUnit} node rotations are not unit quaternions; normalised`);
  noteSceneDeviations(fileName, json, warnings);
  const { materials, images, materialOf } = buildGltfMaterials(fileName, json, root.listTextures(), warnings);
  await yieldToPage();
  options.onParseProgress?.(3 / PARSE_STEPS);
  const reading: GltfReading = { fileName, accessors, warnings };
  const meshes = buildGltfMeshes(reading, json.meshes ?? [], materialOf, {
    quantized: extensions.supported.has('KHR_mesh_quantization'),
  });
  await yieldToPage();
  options.onParseProgress?.(4 / PARSE_STEPS);
  const skins = buildGltfSkins(fileName, json.skins ?? [], accessors, jointOfNode);
  const { instances: meshInstances, morphWeights } = buildGltfMeshInstances(reading, nodesJson, skins, meshes, jointOfNode);
  const fileClips = buildGltfClips(reading, json.animations ?? [], jointOfNode, morphTargetsOfNodes(meshInstances, meshes.meshes, nodesJson.length));
  const avatar = readVrmAvatar({
    fileName, json, jointOfNode, meshInstances, warnings,
    morphTargetCountOf: (mesh) => meshes.meshes[mesh]?.morphTargetCount ?? 0,
  });
  // Read before the turn below: a VRM 0.x virtual tail comes from the file's own translation.
  const secondaryMotion = readSecondaryMotion({ fileName, json, jointOfNode, parents: skeleton.parents, restTranslations: restPose.translations, warnings });
  // VRM 0.x faces −Z: turned to face +Z in the data (turn-vrm0-to-face-z.ts), as three-vrm's rotateVRM0.
  const clips = avatar?.specVersion === '0.x' ? turnVrm0ToFaceZ(skeleton, restPose, fileClips) : fileClips;

  return {
    name: fileName,
    skeleton,
    restPose: { ...restPose, morphWeights },
    meshes: meshes.meshes,
    skins,
    meshInstances,
    materials,
    images,
    clips,
    upAxis: 'y',
    warnings: collapseWarnings(warnings),
    ...(avatar ? { avatar } : {}),
    ...(secondaryMotion ? { secondaryMotion } : {}),
  };
}
