import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name Sinew is published under on npm (`npm install sinew-gl`; the name `sinew` belongs to another package). */
export const PACKAGE_NAME = 'sinew-gl';

/**
 * Node only: the folder of the installed `sinew-gl` package (or checkout), found by walking up from `fromUrl`
 * (a module's `import.meta.url`) to the first `package.json` named {@link PACKAGE_NAME}. Works the same from the
 * sources and from the bundled dist/ files, whose depth differs.
 * @throws Error when no such package.json is above `fromUrl`
 */
export function sinewPackageRoot(fromUrl: string): string {
  let folder = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no ${PACKAGE_NAME} package.json above ${fileURLToPath(fromUrl)}`);
    folder = parent;
  }
}
