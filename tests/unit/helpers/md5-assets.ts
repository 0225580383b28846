import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_ASSETS, sharedAssets } from '../../helpers/shared-assets.ts';

/** `../shared/assets/md5` relative to the repository root (never copied into the repo). */
export const MD5_DIR = join(SHARED_ASSETS, 'md5/');

/**
 * Whether the shared MD5 assets are present. Absent: tests that need them skip locally, but under CI
 * (`process.env.CI` set) this module throws ({@link sharedAssets}), so every test file importing it fails.
 */
export const md5AssetsAvailable: boolean = sharedAssets() !== null;

/** Text of a file in the shared MD5 folder, e.g. `Bob.md5mesh` or `invalid/InvalidBoneIndex.md5mesh`. */
export function readMd5Text(name: string): string {
  return readFileSync(join(MD5_DIR, name), 'utf8');
}
