import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sinewPackageRoot } from '../node/package-root.ts';

/**
 * Node only: the `version` of Sinew's own package.json, read at run time (see `sinewPackageRoot` for how the
 * file is found from the sources and from the bundled dist/ files alike).
 * @throws Error when no package.json named `sinew-gl` is above this module, or it has no string `version`
 */
export function readSinewVersion(): string {
  const file = join(sinewPackageRoot(import.meta.url), 'package.json');
  const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error(`${file}: no "version" string`);
  return version;
}
