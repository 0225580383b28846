import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

// One package build per test run, shared by both runners (vitest's `cli` project and Playwright load this file as
// their global setup): the tests that spawn the `sinew` command or serve dist/ run today's sources as the shipped
// JavaScript, never a stale build, and a run after `npm ci` (whose `prepare` has just built) builds nothing more.

const ROOT = resolve(import.meta.dirname, '../..');

/** What `npm run build` reads (vite.config.ts's modes lib, standalone and bench, tsconfig.build.json). */
const INPUTS = ['src', 'shaders', 'bench/pages', 'build', 'vite.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

/** What it writes, one file per mode and the declarations: the build is as old as the oldest of them. */
const OUTPUTS = ['dist/index.js', 'dist/cli.js', 'dist/standalone/sinew-viewer.js', 'dist/bench/crowd-bench.html', 'dist/types/index.d.ts'];

/** The newest modification time under `path` (a file or a folder, walked whole), ms; 0 when absent. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * Whether dist/ holds a build of the sources as they are: every output present and written after the last change
 * to any input (a change of branch rewrites the changed files, so their times move too).
 */
export function buildIsFresh(root = ROOT): boolean {
  const outputs = OUTPUTS.map((path) => join(root, path));
  if (!outputs.every((path) => existsSync(path))) return false;
  const built = Math.min(...outputs.map((path) => statSync(path).mtimeMs));
  return INPUTS.every((path) => newest(join(root, path)) <= built);
}

/**
 * Global setup of both test runners: `npm run build` unless {@link buildIsFresh}.
 * @throws Error when the build fails (its output is shown)
 */
export default function freshBuild(): void {
  if (buildIsFresh()) return;
  // NODE_ENV as a user's shell has it: vitest's 'test' would make import.meta.env.DEV true in the build.
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
