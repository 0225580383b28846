import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Logger, NodeIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshoptCompression } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { InvalidArgumentError, type Command } from 'commander';
import { parseLength } from '../compression/length-unit.ts';
import { formatMm, optimizeDocument, type ClipReport } from '../compression/optimize-document.ts';
import { LoadError } from '../loaders/load-error.ts';
import { carryUnknownExtensions, joinGlb, splitGlb } from './glb-json.ts';
import { checkOutputFolder } from './output-file.ts';
import { writeStandardOutput } from './standard-output.ts';
import { formatTable } from './text-table.ts';

/** Options of {@link optimizeFile} (`sinew optimize`'s flags). */
export interface OptimizeFileOptions {
  /** The error bound, metres (≥ 0). */
  readonly maxError: number;
  /** Virtual vertices' distance from each joint, metres; default 0.03. */
  readonly jointDistance?: number;
  /** Rotations as normalized 16-bit integers, their rounding within the bound. */
  readonly quantize?: boolean;
  /** EXT_meshopt_compression on every buffer view, lossless (meshopt's plain mode, no filters). */
  readonly meshopt?: boolean;
}

/** What {@link optimizeFile} wrote: the table's lines and the whole files' sizes. */
export interface OptimizeResult {
  readonly clips: ClipReport[];
  /** Bytes of IN as read (a .gltf: its JSON, buffers and images), and of OUT as written. */
  readonly fileBytesBefore: number;
  readonly fileBytesAfter: number;
}

/** glTF-Transform's node reader and writer with every extension it models and meshopt's codec (awaited ready). */
async function createIo(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.SILENT))
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
}

/**
 * The document's bytes as one file: GLB for .glb and .vrm, else glTF JSON with its buffers as data: URIs; the
 * source's extensions glTF-Transform does not model carried over (carryUnknownExtensions).
 */
async function documentBytes(io: NodeIO, document: Document, out: string, sourceJson: Record<string, unknown>): Promise<Uint8Array> {
  if (!/\.gltf$/i.test(out)) {
    const parts = splitGlb(await io.writeBinary(document))!;
    carryUnknownExtensions(sourceJson, parts.json);
    return joinGlb(parts);
  }
  const { json, resources } = await io.writeJSON(document);
  carryUnknownExtensions(sourceJson, json as unknown as Record<string, unknown>);
  for (const list of [json.buffers ?? [], json.images ?? []] as { uri?: string; mimeType?: string }[][]) {
    for (const item of list) {
      if (item.uri === undefined || !(item.uri in resources)) continue;
      const type = item.mimeType ?? 'application/octet-stream';
      item.uri = `data:${type};base64,${Buffer.from(resources[item.uri]).toString('base64')}`;
    }
  }
  return new TextEncoder().encode(JSON.stringify(json));
}

/**
 * Node only: `sinew optimize` — reads IN (.glb, .gltf, .vrm), removes animation keys and optionally quantises within
 * the bound (optimizeDocument), writes OUT through a temporary file beside it renamed into place, so OUT appears
 * whole or not at all. Extensions glTF-Transform does not model (a .vrm's VRMC_vrm, VRM, …) are carried over by index.
 * @throws LoadError `FILE_NOT_FOUND` / `IO_ERROR` / `INVALID_JSON` naming IN when it cannot be read as glTF;
 *   Error from checkOutputFolder for a missing folder; optimizeDocument's error for a bound `--quantize` cannot
 *   hold; node's error for an OUT that cannot be written — in every case no OUT and no temporary file remain
 */
export async function optimizeFile(input: string, out: string, options: OptimizeFileOptions): Promise<OptimizeResult> {
  checkOutputFolder(out);
  const io = await createIo();
  let document: Document, fileBytesBefore: number, sourceJson: Record<string, unknown>;
  try {
    const bytes = await readFile(input);
    sourceJson = splitGlb(bytes)?.json ?? JSON.parse(new TextDecoder().decode(bytes));
    document = /\.gltf$/i.test(input) ? await io.read(input) : await io.readBinary(bytes);
    fileBytesBefore = bytes.length;
    if (/\.gltf$/i.test(input)) for (const buffer of document.getRoot().listBuffers()) fileBytesBefore += buffer.getURI() && !buffer.getURI().startsWith('data:') ? (await readFile(join(dirname(input), decodeURIComponent(buffer.getURI())))).length : 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoadError(input, null, 'FILE_NOT_FOUND', 'no such file', { cause: error });
    if (code === 'EISDIR' || code === 'EACCES' || code === 'EPERM') throw new LoadError(input, null, 'IO_ERROR', 'cannot be read', { cause: error });
    throw new LoadError(input, null, 'INVALID_JSON', `not a glTF file glTF-Transform can read (${(error as Error).message})`, { cause: error });
  }
  const clips = await optimizeDocument(document, options);
  if (options.meshopt) {
    document.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
  }
  const bytes = await documentBytes(io, document, out, sourceJson);
  const temp = join(dirname(out), `.${basename(out)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, bytes);
    await rename(temp, out);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  return { clips, fileBytesBefore, fileBytesAfter: bytes.length };
}

/** `sinew optimize`'s table: one line per clip, then the whole file's bytes. */
export function formatOptimizeTable(result: OptimizeResult): string {
  const table = formatTable(
    [
      { heading: 'clip', align: 'left' }, { heading: 'keys before', align: 'right' }, { heading: 'keys after', align: 'right' },
      { heading: 'bytes before', align: 'right' }, { heading: 'bytes after', align: 'right' }, { heading: 'max error', align: 'right' },
      { heading: 'joint', align: 'left' }, { heading: 'time (s)', align: 'right' },
    ],
    result.clips.map((c) => [c.clip, String(c.keysBefore), String(c.keysAfter), String(c.bytesBefore), String(c.bytesAfter), formatMm(c.maxError), c.joint, c.time.toFixed(3)]),
  );
  return `${table}\nfile: ${result.fileBytesBefore} bytes -> ${result.fileBytesAfter} bytes\n`;
}

/** A length option (`--max-error`, `--joint-distance`) as commander parses it: metres. */
function lengthOption(option: string, positive = false): (value: string) => number {
  return (value) => {
    let metres: number;
    try {
      metres = parseLength(value, option);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    if (positive && metres === 0) throw new InvalidArgumentError(`${option}: must be more than 0`);
    return metres;
  };
}

/** `sinew optimize` options as commander hands them over. */
interface OptimizeCommandOptions {
  out: string;
  maxError: number;
  jointDistance: number;
  meshopt?: boolean;
  quantize?: boolean;
  json?: boolean;
}

/**
 * Adds `sinew optimize IN -o OUT --max-error 0.1mm [--joint-distance 3cm] [--meshopt] [--quantize] [--json]` to the
 * program (docs/guide/optimize.md): runs {@link optimizeFile}, prints {@link formatOptimizeTable} or, with
 * `--json`, the {@link OptimizeResult} as JSON (errors in metres).
 */
export function addOptimizeCommand(program: Command): void {
  program
    .command('optimize')
    .description('remove animation keys (and optionally quantise) while no skinned vertex and no virtual vertex near a joint moves more than --max-error; write the result')
    .argument('<in>', 'a .glb, .gltf or .vrm file')
    .requiredOption('-o, --out <file>', 'the file to write (.glb or .vrm: binary; .gltf: JSON with embedded buffers)')
    .option('--max-error <length>', 'the error bound, e.g. 0.1mm, 0.05cm, 0.0001 (metres): measured on virtual vertices near every joint through the hierarchy and on the skinned vertices (default: 0.1mm)', lengthOption('--max-error'), 0.0001)
    .option('--joint-distance <length>', 'distance of the virtual vertices from each joint, in model-space units (default: 3cm)', lengthOption('--joint-distance', true), 0.03)
    .option('--quantize', 'store rotation keys as normalized 16-bit integers; the rounding counts towards --max-error')
    .option('--meshopt', 'compress every buffer view with EXT_meshopt_compression (lossless mode)')
    .option('--json', 'print JSON instead of a table')
    .helpOption('-h, --help', 'print this help')
    .showHelpAfterError("run 'sinew optimize --help' for usage")
    .action(async (input: string, options: OptimizeCommandOptions) => {
      const result = await optimizeFile(input, options.out, options);
      await writeStandardOutput(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatOptimizeTable(result));
    });
}
