import { requirePositiveBytes } from './require-positive-bytes.ts';
import { collapseWarnings } from './collapse-warnings.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { loadGltfModel } from './gltf/load-gltf-model.ts';
import { LoadError, toLoadError } from './load-error.ts';
import { loadMd5Model } from './md5/load-md5-model.ts';
import type { FetchCompanion, ModelFile } from './model-file.ts';
import { messageOf } from '../errors/message-of.ts';
import { DEFAULT_MEMORY_BUDGET_BYTES, formatMebibytes } from '../asset/memory-budget.ts';
import { modelWorkingMemory } from '../pose/model-working-memory.ts';

export type { FetchCompanion, ModelFile } from './model-file.ts';

/** Options of {@link loadModel}. */
export interface LoadModelOptions {
  /**
   * For an `.md5mesh`: the `.md5anim` files to apply, by the names `fetchCompanion` knows them under, one clip
   * each (named after its file, in this order). Default: `<mesh name>.md5anim` when it exists, else no clip
   * (the bind pose) and a warning. For other formats they are ignored, with a warning.
   */
  readonly anims?: readonly string[];
  /**
   * The memory budget (src/asset/memory-budget.ts): for glTF, the most bytes the accessors may decode to,
   * checked before anything is allocated (`MEMORY_BUDGET_EXCEEDED`); for every format, what posing and skinning
   * the loaded model makes (`modelWorkingMemory`, `WORKING_MEMORY_EXCEEDED`); default `DEFAULT_MEMORY_BUDGET_BYTES`
   * (512 MiB).
   */
  readonly memoryBudgetBytes?: number;
  /** glTF: told the share of the parse done after each of its long steps (`GltfParseOptions.onParseProgress`). */
  readonly onParseProgress?: (fraction: number) => void;
}

/** The model formats Sinew reads, by the lower-case extension of the main file. */
export type ModelFormat = 'glb' | 'gltf' | 'vrm' | 'md5mesh';

/** Extensions of the main files {@link loadModel} reads, for messages and file pickers (a `.vrm` is a GLB with a VRM avatar). */
export const MODEL_EXTENSIONS: readonly string[] = ['.glb', '.gltf', '.vrm', '.md5mesh'];

/** The format of a main file by its name's extension (case-insensitive), or null for any other file. */
export function modelFormatOf(name: string): ModelFormat | null {
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot).toLowerCase();
  return MODEL_EXTENSIONS.includes(extension) ? (extension.slice(1) as ModelFormat) : null;
}

/**
 * {@link modelFormatOf}, failing for a file Sinew does not read: callers check before fetching anything.
 * @throws LoadError `UNSUPPORTED_FILE_TYPE`: `notes.txt: unsupported file type ".txt" (expected .glb, .gltf, .vrm or .md5mesh)`
 */
export function requireModelFormat(name: string): ModelFormat {
  const format = modelFormatOf(name);
  if (format !== null) return format;
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? 'without extension' : JSON.stringify(name.slice(dot));
  throw new LoadError(name, null, 'UNSUPPORTED_FILE_TYPE', `unsupported file type ${extension} (expected .glb, .gltf, .vrm or .md5mesh)`);
}

/**
 * Sinew's one front door for loading a model: the main file plus whatever companion files it needs, through
 * `fetchCompanion`, with the same rules for the viewer (URL and drop), `<sinew-viewer>`, the CLI and the node
 * readers:
 * - `.glb` / `.gltf` / `.vrm` (a GLB whose avatar becomes `ModelAsset.avatar`): every buffer and image uri that is not a `data:` URI is fetched by the uri as written; a
 *   missing one fails with the JSON place that names it (`FILE_NOT_FOUND`, see parseGltf).
 * - `.md5mesh`: the anims of `options.anims`, or by default `<name>.md5anim`; each mesh shader's image,
 *   tried by candidate names and extensions (md5-shader-images.ts) until one exists. A missing explicit anim
 *   fails; a missing default anim or image is not an error.
 *
 * Warnings come one line per kind of deviation (collapseWarnings; parseGltf does the same for glTF).
 *
 * Companions are fetched one at a time for MD5 (each image's candidates stop at the first found) and all at
 * once for glTF.
 *
 * @throws LoadError for every failure: the loaders' own (naming the file at fault, which may be a companion,
 *   e.g. `Bob.md5anim:16: …`), `UNSUPPORTED_FILE_TYPE` for the main file's extension, `FILE_NOT_FOUND` for a
 *   required companion that does not exist, `IO_ERROR` (about the companion) when `fetchCompanion` rejects,
 *   `INTERNAL` for anything unforeseen, `WORKING_MEMORY_EXCEEDED` when posing and skinning the model would need
 *   more than the memory budget
 * @throws RangeError when `options.memoryBudgetBytes` is not a positive number
 */
export async function loadModel(mainFile: ModelFile, fetchCompanion: FetchCompanion, options: LoadModelOptions = {}): Promise<ModelAsset> {
  const format = requireModelFormat(mainFile.name);
  if (options.memoryBudgetBytes !== undefined) requirePositiveBytes('memoryBudgetBytes', options.memoryBudgetBytes);
  const fetch = reportingFetch(fetchCompanion);
  try {
    if (format === 'md5mesh') {
      const asset = await loadMd5Model(mainFile, fetch, options.anims);
      return requireWorkingMemory({ ...asset, warnings: collapseWarnings(asset.warnings) }, options.memoryBudgetBytes);
    }
    const asset = requireWorkingMemory(
      await loadGltfModel(mainFile, fetch, { memoryBudgetBytes: options.memoryBudgetBytes, onParseProgress: options.onParseProgress }),
      options.memoryBudgetBytes,
    );
    if (!options.anims?.length) return asset;
    const ignored = options.anims.map((name) => `${mainFile.name}: anim ${name} ignored (only an .md5mesh takes an .md5anim)`);
    return { ...asset, warnings: [...asset.warnings, ...ignored] };
  } catch (error) {
    throw toLoadError(mainFile.name, error);
  }
}

/**
 * `asset`, when what posing and skinning it makes (`modelWorkingMemory`: made once per skin and skinned mesh, not
 * per instance) fits the memory budget; checked here, before any of it is made, so every reader refuses alike.
 * @throws LoadError `WORKING_MEMORY_EXCEEDED` naming the file, the bytes and what they are made of
 */
function requireWorkingMemory(asset: ModelAsset, memoryBudgetBytes = DEFAULT_MEMORY_BUDGET_BYTES): ModelAsset {
  const working = modelWorkingMemory(asset);
  if (working.bytes <= memoryBudgetBytes) return asset;
  const shared = working.skinnedInstances > working.skinnedPrimitives ? `, shared by ${working.skinnedInstances} skinned mesh instances` : '';
  throw new LoadError(asset.name, null, 'WORKING_MEMORY_EXCEEDED', `posing and skinning it needs ${formatMebibytes(working.bytes)} `
    + `(${working.jointCount} nodes, ${working.skinnedPrimitives} skinned primitive${working.skinnedPrimitives === 1 ? '' : 's'}${shared}), `
    + `more than the memory budget of ${formatMebibytes(memoryBudgetBytes)}`);
}

/** `fetchCompanion` whose failures are LoadErrors about the companion (`IO_ERROR`), never raw. */
function reportingFetch(fetchCompanion: FetchCompanion): FetchCompanion {
  return async (name) => {
    try {
      return await fetchCompanion(name);
    } catch (error) {
      if (error instanceof LoadError) throw error;
      let problem = messageOf(error);
      if (problem.startsWith(`${name}: `)) problem = problem.slice(name.length + 2);
      throw new LoadError(name, null, 'IO_ERROR', problem, { cause: error });
    }
  };
}
