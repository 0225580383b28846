import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SINEW } from './run-sinew.ts';

/** One `sinew` run whose output is too large to keep: its size, its ends, and the process's peak memory. */
export interface MeasuredRun {
  code: number;
  stderr: string;
  /** Bytes written to standard output. */
  stdoutBytes: number;
  /** The first `keep` characters of standard output. */
  head: string;
  /** The last `keep` characters of standard output. */
  tail: string;
  /** Peak resident memory of the `sinew` process (VmHWM), bytes. */
  peakBytes: number;
}

const PRELOAD = join(import.meta.dirname, 'peak-memory-preload.mjs');

/**
 * Runs the real command line in a child node process (as `npx sinew` does), reading its standard output as it
 * comes (so the child meets a pipe's backpressure, and the test never holds the whole output), with
 * peak-memory-preload.mjs reporting the child's VmHWM when it exits. Linux only (/proc).
 * @param keep characters of standard output kept from its start and from its end
 */
export function sinewMeasured(args: string[], keep: number): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, SINEW, ...args], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let head = '', tail = '', stderr = '', peak = '', stdoutBytes = 0;
    const [stdout, errors, peakOut] = [child.stdio[1], child.stdio[2], child.stdio[3]] as NodeJS.ReadableStream[];
    stdout.setEncoding('latin1'); // the JSON is ASCII here; one character a byte
    stdout.on('data', (chunk: string) => {
      stdoutBytes += chunk.length;
      if (head.length < keep) head += chunk.slice(0, keep - head.length);
      tail = (tail + chunk).slice(-keep);
    });
    errors.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    peakOut.setEncoding('utf8').on('data', (chunk: string) => (peak += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr, stdoutBytes, head, tail, peakBytes: 1024 * Number(peak) }));
  });
}
