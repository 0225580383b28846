import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../../..');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

describe('the package is sinew-gl, the command sinew', () => {
  it('package.json names the package sinew-gl (the npm name sinew is another package) and its command sinew', () => {
    expect(packageJson.name).toBe('sinew-gl');
    expect(packageJson.bin).toEqual({ sinew: 'bin/sinew.mjs' });
  });

  it('`npx sinew` in the checkout runs this checkout\'s command (--no: never the registry\'s unrelated sinew)', async () => {
    // `npm ci` does not link a package's own bin, so npx links the checkout into npm's npx cache, which runs its
    // `prepare` (a whole `npm run build`, emptying dist/ under the other command tests) unless scripts are off. The
    // cli project's global setup has built dist/ already: what is proven is which command npx runs, not the build.
    const { stdout } = await promisify(execFile)('npx', ['--no', '--', 'sinew', '--version'], {
      cwd: ROOT, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true' },
    });
    expect(stdout).toBe(`${packageJson.version}\n`);
  });
});
