import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The one guard for the read-only third-party models, used by the unit tests (vitest) and the browser tests
// (Playwright) alike: present, tests use them; absent, tests that need them skip, except under CI, where the
// absence is a failure (a CI run that skipped them would pass without having checked anything).

/** `../shared/assets` relative to the repository root (no trailing slash): third-party models, never copied into the repo. */
export const SHARED_ASSETS: string = fileURLToPath(new URL('../../../shared/assets', import.meta.url));

/**
 * The path of the shared assets folder with a trailing slash, or null when it is absent so tests that need it can
 * skip locally.
 * @throws Error when the folder is absent and `process.env.CI` is set: under CI those tests must fail
 */
export function sharedAssets(): string | null {
  if (existsSync(SHARED_ASSETS)) return `${SHARED_ASSETS}/`;
  if (process.env.CI) throw new Error(`tests/helpers/shared-assets.ts: shared assets missing at ${SHARED_ASSETS} (required under CI)`);
  return null;
}

/** The shared models with skins (glTF and MD5), relative to {@link sharedAssets}: the kernels' parity tests run on each. */
export const SHARED_SKINNED_MODELS: readonly string[] = [
  'gltf/Fox.glb', 'gltf/CesiumMan.glb', 'gltf/RiggedFigure.glb', 'gltf/RiggedSimple.glb', 'gltf/RecursiveSkeletons.glb',
  'gltf/SimpleSkin.gltf', 'gltf/quad_skin.glb', 'md5/Bob.md5mesh',
];
