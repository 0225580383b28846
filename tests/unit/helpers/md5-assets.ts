import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** `../shared/assets/md5` relative to the repository root (never copied into the repo). */
export const MD5_DIR = fileURLToPath(new URL('../../../../shared/assets/md5/', import.meta.url));

/**
 * Whether the shared MD5 assets are present. Absent: tests that need them skip locally, but under CI
 * (`process.env.CI` set) this module throws, so every test file importing it fails.
 */
export const md5AssetsAvailable: boolean = (() => {
  if (existsSync(MD5_DIR)) return true;
  if (process.env.CI) throw new Error(`tests/unit/helpers/md5-assets.ts: shared MD5 assets missing at ${MD5_DIR} (required under CI)`);
  return false;
})();

/** Text of a file in the shared MD5 folder, e.g. `Bob.md5mesh` or `invalid/InvalidBoneIndex.md5mesh`. */
export function readMd5Text(name: string): string {
  return readFileSync(join(MD5_DIR, name), 'utf8');
}
