import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { bakeIntoGltf, gltfFilePartsOf } from '../export/bake-into-gltf.ts';
import { nameBakedClips, selectBakeClips, type SourcedClip } from '../export/select-bake-clips.ts';
import type { GltfFileParts } from '../export/write-baked-gltf.ts';
import { humanoidForVrma, writeBakedVrma, type BakedClipCount } from '../export/write-baked-vrma.ts';
import { retargetClipLibrary } from '../loaders/clip-library.ts';
import { splitGltfContainer } from '../loaders/gltf/gltf-container.ts';
import { LoadError } from '../loaders/load-error.ts';
import { isInsideFolder } from '../node/is-inside-folder.ts';
import { loadClipsFromPath } from '../node/load-clips-from-path.ts';
import { DEFAULT_MAX_FILE_BYTES, loadModelFromPath, readGuardedFile } from '../node/load-model-from-path.ts';
import { escapeControl } from './escape-control.ts';
import { checkOutputFolder, writeOutputFile } from './output-file.ts';
import { parseMebibytes } from './number-options.ts';

/** `sinew bake` options as commander hands them over. */
interface BakeOptions {
  anim: string[];
  out: string;
  fps?: number;
  clip?: string[];
  maxMemory?: number;
}

/** What `sinew bake` writes, by OUT's extension. */
type BakeFormat = 'glb' | 'gltf' | 'vrma';

/**
 * Adds `sinew bake MODEL --anim FILE… -o OUT` to `program` (docs/guide/bake.md): the clips of each `--anim` file
 * retargeted onto MODEL (retargetClipLibrary, as `sinew eval --anim` plays them) and written as ordinary glTF
 * animations into a copy of MODEL's own file (writeBakedGltf: everything the file had kept), or as a VRM Animation
 * (`.vrma`, writeBakedVrma) of a humanoid model. OUT is written to a temporary file beside it, then renamed over
 * it (writeOutputFile): on any failure no OUT and no temporary file is left. A summary goes to stderr: the
 * clips, their channels and keys, the bytes written.
 */
export function addBakeCommand(program: Command): void {
  program
    .command('bake')
    .description('write a model with clips from other files retargeted onto it, as glTF animations (.glb, .gltf) or as a VRM Animation (.vrma)')
    .argument('<model>', 'a .glb, .gltf or .vrm file')
    .requiredOption('--anim <file>', 'clips to bake: a .glb/.gltf/.vrma/.md5anim whose clips are retargeted onto the model as `sinew eval --anim` plays them; repeat for more files', collect)
    .requiredOption('-o, --out <file>', 'the file to write: .glb or .gltf (the model with the clips added to its own animations) or .vrma (the clips as VRM Animation, for a humanoid model)', parseOut)
    .option('--fps <keys-per-second>', 'resample every clip at this many keys per second (default: the clip\'s own key times, the source\'s)', parseFps)
    .option('--clip <name>', 'bake only this clip of the --anim files (repeat for more; default: every clip)', collect)
    .option('--max-memory <MiB>', 'the memory budget: largest file read and most memory a file\'s data may decode to (default: 512)', parseMebibytes)
    .helpOption('-h, --help', 'print this help')
    .showHelpAfterError("run 'sinew bake --help' for usage")
    .action((model: string, options: BakeOptions) => runBake(model, options));
}

/** A repeatable option's values, in order (no default, so the reference shows none). */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `-o`: a path ending in .glb, .gltf or .vrma. */
function parseOut(value: string): string {
  if (!/\.(glb|gltf|vrma)$/i.test(value)) throw new InvalidArgumentError('It must end in .glb, .gltf or .vrma.');
  return value;
}

/** `--fps`: a number of keys per second in (0, 1000]. */
function parseFps(value: string): number {
  const fps = Number(value);
  if (value.trim() === '' || !Number.isFinite(fps) || fps <= 0 || fps > 1000) throw new InvalidArgumentError('It must be a number of keys per second greater than 0, at most 1000.');
  return fps;
}

async function runBake(model: string, options: BakeOptions): Promise<void> {
  const format = options.out.toLowerCase().replace(/^.*\./, '') as BakeFormat;
  checkOutputFolder(options.out);
  if (!/\.(glb|gltf|vrm)$/i.test(model)) {
    throw new Error(`${model}: bake writes glTF models (.glb, .gltf, .vrm); ${basename(model)} is not one`);
  }
  const limit = options.maxMemory ?? DEFAULT_MAX_FILE_BYTES;
  const modelBytes = await readGuardedFile(model, limit);
  const asset = await loadModelFromPath(model, { memoryBudgetBytes: options.maxMemory, modelBytes });
  for (const warning of asset.warnings) process.stderr.write(`sinew: warning: ${escapeControl(warning)}\n`);
  if (format === 'vrma') humanoidForVrma(asset); // a non-humanoid model fails before the clips are read

  const clips: SourcedClip[] = [];
  for (const anim of options.anim) {
    if (!/\.(glb|gltf|vrma|md5anim)$/i.test(anim)) throw new LoadError(anim, null, 'ANIM_NOT_APPLICABLE', '--anim takes an .md5anim, .glb, .gltf or .vrma file');
    const library = await loadClipsFromPath(anim, { memoryBudgetBytes: options.maxMemory });
    const retarget = retargetClipLibrary(library, asset);
    for (const warning of [...library.warnings, ...retarget.warnings]) process.stderr.write(`sinew: warning: ${escapeControl(warning)}\n`);
    for (const clip of retarget.clips) clips.push({ clip, file: library.name });
  }
  const selected = new Set(selectBakeClips(clips.map((c) => c.clip), options.clip, options.anim.map((a) => basename(a)).join(', ')));
  const chosen = nameBakedClips(format === 'vrma' ? [] : asset.clips.map((c) => c.name), clips.filter((c) => selected.has(c.clip)));

  let bytes: Uint8Array;
  let summary: BakedClipCount[];
  if (format === 'vrma') {
    ({ bytes, clips: summary } = await writeBakedVrma(asset, chosen, { fps: options.fps }));
  } else {
    const parts = await readGltfFileParts(model, modelBytes, limit);
    const written = await bakeIntoGltf(parts, asset, chosen, { container: format, fps: options.fps });
    bytes = written.bytes;
    summary = written.clips.map((clip) => ({ name: clip.name, channels: clip.channels.length, keys: clip.channels.reduce((n, c) => n + c.times.length, 0) }));
  }
  await writeOutputFile(options.out, bytes);
  for (const clip of summary) process.stderr.write(`sinew: baked ${escapeControl(JSON.stringify(clip.name))}: ${clip.channels} channels, ${clip.keys} keys\n`);
  process.stderr.write(`sinew: wrote ${escapeControl(options.out)}: ${summary.length} clip${summary.length === 1 ? '' : 's'}, ${bytes.length} bytes\n`);
}

/**
 * Node only: the model file split into JSON and the bytes of its buffers and external images (gltfFilePartsOf).
 * External files (a `.gltf`'s buffers and images) are read from the model's own folder only, as loadModelFromPath
 * reads them (no URI scheme, no absolute path, nothing outside the folder).
 * @throws LoadError as gltfFilePartsOf; `INVALID_URI` for a refused companion name
 */
async function readGltfFileParts(path: string, bytes: Uint8Array, limit: number): Promise<GltfFileParts> {
  const name = basename(path);
  const { json } = splitGltfContainer(name, bytes);
  const folder = resolve(dirname(path));
  const resources: Record<string, Uint8Array> = {};
  const uris = [...(json.buffers ?? []), ...(json.images ?? [])].map((item) => item.uri).filter((uri): uri is string => typeof uri === 'string' && !/^data:/i.test(uri));
  for (const uri of uris) {
    let decoded = uri;
    try { decoded = decodeURIComponent(uri); } catch { /* as written */ }
    const target = resolve(folder, decoded);
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || isAbsolute(decoded) || !isInsideFolder(folder, target)) {
      throw new LoadError(name, null, 'INVALID_URI', `companion file ${JSON.stringify(uri)} is outside the model's folder: it is not read`);
    }
    try {
      resources[uri] = await readGuardedFile(target, limit);
    } catch {
      // A missing external image keeps its uri (the loader's neutral stand-in is not written); a missing buffer
      // fails in gltfFilePartsOf, as the loader fails.
    }
  }
  return gltfFilePartsOf(name, bytes, resources);
}
