import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `../shared/assets` relative to the repository root: third-party models, never copied into the repo. */
export const SHARED_ASSETS_DIR = fileURLToPath(new URL('../../../../shared/assets/', import.meta.url));

/**
 * The path of the shared assets folder (with a trailing slash), or null when it is absent so tests that
 * need it can skip locally.
 * @throws Error when the folder is absent and `process.env.CI` is set: under CI those tests must fail
 */
export function sharedAssets(): string | null {
  if (existsSync(SHARED_ASSETS_DIR)) return SHARED_ASSETS_DIR;
  if (process.env.CI) throw new Error(`tests/unit/helpers/shared-assets.ts: shared assets missing at ${SHARED_ASSETS_DIR} (required under CI)`);
  return null;
}
