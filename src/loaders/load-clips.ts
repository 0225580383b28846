import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { HumanoidMap } from '../asset/avatar-asset.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { LoadError, toLoadError } from './load-error.ts';
import { loadModel } from './load-model.ts';
import type { FetchCompanion, ModelFile } from './model-file.ts';
import { decodeMd5Text } from './md5/decode-md5-text.ts';
import { parseMd5Anim } from './md5/parse-md5-anim.ts';
import { md5AnimToModelAsset } from './md5/md5-anim-library.ts';
import { requirePositiveBytes } from './require-positive-bytes.ts';
import { loadGltfModel } from './gltf/load-gltf-model.ts';
import { splitGltfContainer } from './gltf/gltf-container.ts';
import { parseVrmaClips } from './vrma/vrma-clips.ts';

/**
 * The clips of a file, with the skeleton and rest pose they were made for: what {@link loadClips} reads and
 * `retargetClipLibrary` plays on another model (docs/guide/clips-from-files.md).
 * - `name`: the file's name (e.g. `Walk.glb`), as messages name it;
 * - `skeleton`, `restPose`: glTF every node and its TRS (a `.vrma`: its T-pose); `.md5anim` its hierarchy and
 *   baseframe;
 * - `clips`: in file order (an `.md5anim`: one, named after the file; a `.vrma`'s with their expression and look-at
 *   tracks, src/loaders/vrma/vrma-clips.ts);
 * - `warnings`: the loader's, one line per kind, each starting with the file's name;
 * - `upAxis`: the model-space up axis: `'y'` for glTF, `'z'` for MD5 (absent: `'y'`);
 * - `humanoid`: the humanoid bones of `skeleton` when the file names them (a VRM's or a VRMA's humanoid map);
 *   absent, `retargetClipLibrary` finds them by joint names (`matchHumanoid`).
 */
export interface ClipLibrary {
  readonly name: string;
  readonly skeleton: Skeleton;
  readonly restPose: LocalPose;
  readonly clips: readonly AnimationClip[];
  readonly warnings: readonly string[];
  readonly upAxis?: 'y' | 'z';
  readonly humanoid?: HumanoidMap;
}

/** Extensions of the files {@link loadClips} reads. */
export const CLIP_EXTENSIONS: readonly string[] = ['.glb', '.gltf', '.md5anim', '.vrma'];

/**
 * Reads the clips of a file for playing on another model: an animation-only glTF / GLB (a skeleton with
 * clips and no mesh), any glTF (its clips; its meshes are read and dropped), an `.md5anim` (its hierarchy
 * and baseframe as skeleton and rest pose, md5-anim-library.ts), or a `.vrma` (VRM Animation: a glTF with
 * `VRMC_vrm_animation`, its humanoid, expression and look-at tracks, src/loaders/vrma/vrma-clips.ts). glTF companions come through
 * `fetchCompanion` as for loadModel. A file without clips loads, with a warning.
 * @param options.memoryBudgetBytes glTF: as loadModel's (default 512 MiB)
 * @throws LoadError as loadModel: the parsers' own, a `.vrma`'s malformed extension (at its JSON pointer),
 *   `UNSUPPORTED_FILE_TYPE` for another extension, and
 *   `FILE_NOT_FOUND` / `IO_ERROR` for companions, `INTERNAL` for anything unforeseen
 * @throws RangeError when `options.memoryBudgetBytes` is not a positive number
 */
export async function loadClips(file: ModelFile, fetchCompanion: FetchCompanion, options: { memoryBudgetBytes?: number } = {}): Promise<ClipLibrary> {
  const dot = file.name.lastIndexOf('.');
  const extension = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  if (!CLIP_EXTENSIONS.includes(extension)) {
    throw new LoadError(file.name, null, 'UNSUPPORTED_FILE_TYPE', `unsupported file type ${dot < 0 ? 'without extension' : JSON.stringify(file.name.slice(dot))} for clips (expected .glb, .gltf, .md5anim or .vrma)`);
  }
  if (options.memoryBudgetBytes !== undefined) requirePositiveBytes('memoryBudgetBytes', options.memoryBudgetBytes);
  let asset: ModelAsset;
  if (extension === '.md5anim') {
    try {
      asset = md5AnimToModelAsset(parseMd5Anim(file.name, decodeMd5Text(file.name, file.bytes)));
    } catch (error) {
      throw toLoadError(file.name, error);
    }
  } else if (extension === '.vrma') {
    return loadVrmaClips(file, fetchCompanion, options.memoryBudgetBytes);
  } else {
    asset = await loadModel(file, fetchCompanion, { memoryBudgetBytes: options.memoryBudgetBytes });
  }
  return clipLibraryOf(asset);
}

/** A `.vrma` as a ClipLibrary: read as glTF (loadModel's glTF reader), then its extension (parseVrmaClips). */
async function loadVrmaClips(file: ModelFile, fetchCompanion: FetchCompanion, memoryBudgetBytes: number | undefined): Promise<ClipLibrary> {
  try {
    const asset = await loadGltfModel(file, fetchCompanion, { memoryBudgetBytes });
    const vrma = parseVrmaClips(asset, splitGltfContainer(file.name, file.bytes).json);
    return { name: asset.name, skeleton: asset.skeleton, restPose: asset.restPose, clips: vrma.clips, warnings: vrma.warnings, upAxis: 'y', ...(vrma.humanoid ? { humanoid: vrma.humanoid } : {}) };
  } catch (error) {
    throw toLoadError(file.name, error);
  }
}

/**
 * A loaded model's clips as a {@link ClipLibrary} (its skeleton, rest pose, clips, warnings, up axis and, for a
 * VRM, its humanoid map; meshes dropped), with the warning `<file>: has no clips` when it has none: what {@link loadClips} returns,
 * for readers that load the file their own way (node's `loadClipsFromPath`).
 */
export function clipLibraryOf(asset: ModelAsset): ClipLibrary {
  const warnings = [...asset.warnings];
  if (asset.clips.length === 0) warnings.push(`${asset.name}: has no clips`);
  return { name: asset.name, skeleton: asset.skeleton, restPose: asset.restPose, clips: asset.clips, warnings, upAxis: asset.upAxis, humanoid: asset.avatar?.humanoid };
}
