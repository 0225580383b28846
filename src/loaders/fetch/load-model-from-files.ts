import type { ModelAsset } from '../../asset/model-asset.ts';
import { LoadError } from '../load-error.ts';
import { loadModel, MODEL_EXTENSIONS, modelFormatOf, type FetchCompanion, type LoadModelOptions } from '../load-model.ts';

/** The lower-case extension of a file name, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Options of {@link loadModelFromFiles}: `memoryBudgetBytes` as {@link loadModel}'s. */
export type LoadModelFromFilesOptions = Pick<LoadModelOptions, 'memoryBudgetBytes'>;

/**
 * Browser: loads a model from a set of local files (a drop or a file input) with {@link loadModel}: the first
 * file with a model extension is the model, every `.md5anim` among the others is an anim to play on an
 * `.md5mesh` (one clip each; none: the default `<name>.md5anim` rule), and the others are companions matched to
 * the names the model asks for by file name (folders in a uri are ignored, since a drop flattens them; the case is
 * ignored when no name matches exactly).
 * @throws LoadError naming the file: no model file among them (`UNSUPPORTED_FILE_TYPE`), or the loader's
 * @throws RangeError when `options.memoryBudgetBytes` is not a positive number
 */
export async function loadModelFromFiles(files: readonly File[], options: LoadModelFromFilesOptions = {}): Promise<ModelAsset> {
  const main = files.find((f) => modelFormatOf(f.name) !== null);
  if (!main) {
    const names = files.map((f) => f.name).join(', ') || 'nothing';
    throw new LoadError(names, null, 'UNSUPPORTED_FILE_TYPE', `no model file (expected ${MODEL_EXTENSIONS.join(', ')})`);
  }
  const fetchCompanion = companionsOf(files);
  const anims = files.filter((f) => f !== main && extensionOf(f.name) === 'md5anim').map((f) => f.name);
  const bytes = new Uint8Array(await main.arrayBuffer());
  return loadModel({ name: main.name, bytes }, fetchCompanion, {
    anims: modelFormatOf(main.name) === 'md5mesh' ? anims : undefined,
    memoryBudgetBytes: options.memoryBudgetBytes,
  });
}

/**
 * The {@link FetchCompanion} of a set of dropped or picked files: a name a file asks for (a glTF uri, an MD5 image)
 * is matched by file name (folders in it are ignored, since a drop flattens them; the case is ignored when no name
 * matches exactly); null when none matches.
 */
export function companionsOf(files: readonly File[]): FetchCompanion {
  const byName = new Map<string, File>();
  const byLowerName = new Map<string, File>();
  for (const f of files) {
    byName.set(f.name, f);
    if (!byLowerName.has(f.name.toLowerCase())) byLowerName.set(f.name.toLowerCase(), f);
  }
  return async (companion) => {
    const path = companion.split(/[?#]/)[0];
    let base = path.slice(path.lastIndexOf('/') + 1);
    try {
      base = decodeURIComponent(base);
    } catch {
      /* use as written */
    }
    const file = byName.get(base) ?? byLowerName.get(base.toLowerCase());
    return file ? new Uint8Array(await file.arrayBuffer()) : null;
  };
}
