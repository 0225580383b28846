import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimationClip } from '../asset/animation-clip.ts';
import type { JointMatch } from '../animation/retarget-clip.ts';
import { LoadError } from '../loaders/load-error.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { retargetClipLibrary, type RetargetJoints } from '../loaders/clip-library.ts';
import { loadModelFromPath } from '../node/load-model-from-path.ts';
import { loadClipsFromPath } from '../node/load-clips-from-path.ts';

/** Options of {@link loadCommandModel}. */
export interface CommandModelOptions {
  /** The `--anim` path. */
  readonly anim?: string;
  /** `--max-memory`: the memory budget (src/asset/memory-budget.ts), also the largest file read; default 512 MiB. */
  readonly maxMemoryBytes?: number;
  /** The model file's bytes when the command has read them already. */
  readonly modelBytes?: Uint8Array;
}

/** The `--anim` clips played on the model by retargeting: the clips' file, its clips for the model, the match. */
export interface CommandRetarget {
  /** The clips' file name, without folders. */
  readonly file: string;
  readonly clips: AnimationClip[];
  readonly match: JointMatch;
  /** The model's joints the clips drive and those they do not (what the unmatched-joints warning counts). */
  readonly joints: RetargetJoints;
  /** The clips file's loader warnings, then retargetClipLibrary's. */
  readonly warnings: string[];
}

/**
 * Node only: the model of `sinew eval` / `sinew inspect` and, when `--anim` names clips to retarget, them
 * (docs/guide/cli.md, "Clips from other files"):
 * - `--anim X.md5anim` on an `.md5mesh`: the anim of the same skeleton, as loadModelFromPath's `anims` (no
 *   retargeting; a different skeleton fails with `MD5_ANIM_MISMATCH`); `retarget` null;
 * - `--anim X.md5anim` on a glTF, or `--anim X.glb` / `X.gltf` / `X.vrma` on any model: the file's clips through
 *   loadClipsFromPath and retargetClipLibrary (a `.vrma` onto an avatar by humanoid bone);
 * - `--anim` with another extension: `ANIM_NOT_APPLICABLE`, before reading anything.
 * @throws LoadError about `options.anim` as given, `ANIM_NOT_APPLICABLE`; any of loadModelFromPath's,
 *   loadClipsFromPath's and retargetClipLibrary's (`RETARGET_NO_MATCH`, `RETARGET_DEGENERATE_REST_POSE`)
 */
export async function loadCommandModelAndClips(path: string, options: CommandModelOptions = {}): Promise<{ asset: ModelAsset; retarget: CommandRetarget | null }> {
  const format = modelFormatOf(path);
  const anim = options.anim;
  const animKind = anim === undefined ? null : /\.md5anim$/i.test(anim) ? 'md5anim' : /\.(glb|gltf|vrma)$/i.test(anim) ? 'gltf' : 'other';
  if (anim !== undefined && animKind === 'other') {
    throw new LoadError(anim, null, 'ANIM_NOT_APPLICABLE', '--anim takes an .md5anim, .glb, .gltf or .vrma file');
  }
  const sameSkeleton = animKind === 'md5anim' && format === 'md5mesh';
  const limits = { memoryBudgetBytes: options.maxMemoryBytes };
  const asset = await loadModelFromPath(path, { ...limits, anims: sameSkeleton ? [anim!] : undefined, modelBytes: options.modelBytes });
  if (anim === undefined || sameSkeleton) return { asset, retarget: null };
  const library = await loadClipsFromPath(anim, limits);
  const { clips, match, joints, warnings } = retargetClipLibrary(library, asset);
  return { asset, retarget: { file: library.name, clips, match, joints, warnings: [...library.warnings, ...warnings] } };
}

/**
 * {@link loadCommandModelAndClips} as one model: with retargeted clips, they replace the model's own (so
 * `--clip` names them) and their warnings follow the model's.
 * @throws as loadCommandModelAndClips
 */
export async function loadCommandModel(path: string, options: CommandModelOptions = {}): Promise<ModelAsset> {
  const { asset, retarget } = await loadCommandModelAndClips(path, options);
  return retarget === null ? asset : { ...asset, clips: retarget.clips, warnings: [...asset.warnings, ...retarget.warnings] };
}
