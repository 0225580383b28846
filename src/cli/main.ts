import { escapeControl } from './escape-control.ts';
import { CommanderError } from 'commander';
import { createProgram } from './commands.ts';
import { readSinewVersion } from './package-version.ts';
import { writeStandardOutput } from './standard-output.ts';
import { describeError } from './describe-error.ts';

/**
 * The `sinew` command line (bin/sinew.mjs sets `process.exitCode` to the result; docs/guide/cli.md;
 * the generated reference: {@link createProgram}). Runs one command of {@link createProgram} on `argv` (the arguments after `sinew`).
 *
 * @returns the exit code: 0 success (and `--help`, `--version`); 1 an unreadable or invalid model or an I/O
 *   error, after printing `sinew: message` (naming the file) to stderr; 2 a usage error, after printing
 *   `sinew: problem` and a hint to run `--help`
 */
export async function main(argv: string[]): Promise<number> {
  const helpWrites: Promise<boolean>[] = [];
  let code: number;
  try {
    const program = createProgram(readSinewVersion(), (text) => helpWrites.push(writeStandardOutput(text)));
    await program.parseAsync(argv, { from: 'user' });
    code = 0;
  } catch (error) {
    code = report(error);
  }
  try {
    await Promise.all(helpWrites);
  } catch (error) {
    if (code === 0) code = report(error);
  }
  return code;
}

/** Prints a failure (commander has already printed its own) and gives its exit code. */
function report(error: unknown): number {
  // Help and version end in a CommanderError with exit code 0; every other one is a usage mistake.
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  process.stderr.write(`sinew: ${escapeControl(describeError(error))}\n`); // a message may quote the file's text
  return 1;
}
