import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** bin/sinew.mjs, the file `npx sinew` runs (it loads dist/cli.js, which the vitest global setup builds). */
export const SINEW = join(import.meta.dirname, '../../../bin/sinew.mjs');

/** Output of one `sinew` run. */
export interface SinewRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real command line (as `npx sinew` does) in a child node process and returns exit code, stdout and stderr. */
export async function sinew(...args: string[]): Promise<SinewRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SINEW, ...args], { maxBuffer: 256 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}
