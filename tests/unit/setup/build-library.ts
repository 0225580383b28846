import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Vitest global setup: builds the package (`npm run build` → dist/) so tests that spawn the `sinew` command
 * run today's sources as the shipped JavaScript, never a stale build.
 */
export default function setup(): void {
  // NODE_ENV as a user's shell has it: vitest's 'test' would make import.meta.env.DEV true in the build.
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: resolve(import.meta.dirname, '../../..'), stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' },
  });
}
