// Test-only hooks stay out of what ships: the package's bundles (dist/, which this project builds first,
// tests/helpers/fresh-build.ts) and the demo viewer app (built here into a temporary folder).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Names only the development test hooks use (src/viewer/test-hooks.ts, src/viewer/skin-matrices-tamper.ts). */
const TEST_ONLY = ['skinMatricesTamper', 'tamperedSkinMatrices', 'setSkinMatricesTamper', 'injectPaletteError', 'installTestHooks'];

/** Every JavaScript file (no source maps: they carry the sources as written) under `folder`. */
function scripts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).map((f) => join(folder, f));
}

/** The test-only names each script contains, for the scripts containing any. */
function hooksIn(files: string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const names = TEST_ONLY.filter((name) => text.includes(name));
    if (names.length > 0) found[file] = names;
  }
  return found;
}

describe('shipped bundles carry no test-only hooks', () => {
  let app = '';
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), 'sinew-app-'));
    // NODE_ENV as a user's shell has it: vitest's 'test' would make import.meta.env.DEV true in the build.
    execFileSync('npx', ['vite', 'build', '--outDir', app, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: ROOT, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' },
    });
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it('the package (dist/ minus the app and bench pages)', () => {
    const files = scripts(join(ROOT, 'dist')).filter((f) => !/[\\/]dist[\\/](app|bench)[\\/]/.test(f));
    expect(files.some((f) => f.endsWith(join('standalone', 'sinew-viewer.js')))).toBe(true);
    expect(hooksIn(files)).toEqual({});
  });

  it('the demo viewer app, whose GPU-vs-CPU readout the hooks reach in development', () => {
    const files = scripts(app);
    // The readout itself ships (the class that compares GPU with CPU)…
    expect(files.some((f) => readFileSync(f, 'utf8').includes('captureAsync'))).toBe(true);
    // …its wrong-palette hook does not.
    expect(hooksIn(files)).toEqual({});
  });
});
