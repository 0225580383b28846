import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { evaluateModel, resolveClip } from './evaluate-model.ts';
import { loadModelFile } from './load-model-file.ts';

const USAGE = `usage: sinew eval MODEL [--clip NAME|INDEX] [--time SECONDS] [--anim FILE.md5anim] [--out FILE]

  MODEL     a .glb, .gltf or .md5mesh file
  --clip    clip to apply, by name or index (default 0)
  --anim    .md5anim to apply to an .md5mesh (default: bind pose)
  --time    seconds into the clip (default 0)
  --out     write the JSON here instead of standard output`;

/** Thrown for command-line mistakes: printed with the usage text, exit code 2. */
class UsageError extends Error {}

/**
 * `sinew` command line. Returns the process exit code: 0 success, 1 a model or I/O error, 2 a usage
 * error. Messages go to stderr; the evaluation JSON to stdout or `--out`.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h') {
      process.stdout.write(USAGE + '\n');
      return command === undefined ? 2 : 0;
    }
    if (command !== 'eval') throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { clip: { type: 'string' }, time: { type: 'string' }, out: { type: 'string' }, anim: { type: 'string' } },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing MODEL' : `one MODEL expected, got ${positionals.length}`);
    const time = values.time === undefined ? 0 : Number(values.time);
    if (!Number.isFinite(time)) throw new UsageError(`--time must be a number of seconds, got ${JSON.stringify(values.time)}`);
    const asset = await loadModelFile(positionals[0], { anim: values.anim });
    for (const warning of asset.warnings) process.stderr.write(`sinew: warning: ${warning}\n`);
    const clipIndex = resolveClip(asset, values.clip);
    const json = JSON.stringify(evaluateModel(asset, clipIndex, time));
    if (values.out) writeFileSync(values.out, json + '\n');
    else process.stdout.write(json + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sinew: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    const { code, path, message } = error as NodeJS.ErrnoException;
    // Node's I/O errors say `ENOENT: …, open 'x'`; say it the way the rest of Sinew's messages read.
    const text = code === 'ENOENT' ? `${path}: no such file` : code === 'EISDIR' ? `${path}: is a directory` : message;
    process.stderr.write(`sinew: ${text}\n`);
    return 1;
  }
}
