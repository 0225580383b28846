import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Node only: the `version` of Sinew's own package.json, read at run time. The file is found by walking up
 * from this module's folder to the first package.json whose `name` is `sinew`, because the module runs both
 * from src/cli (in a checkout) and bundled into dist/cli.js or a chunk under dist/ (installed), at different
 * depths, and a consumer's own package.json may sit further up.
 * @throws Error when no such package.json is found above this module, or it has no string `version`
 */
export function readSinewVersion(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let folder = start; ; folder = dirname(folder)) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const { name, version } = (json ?? {}) as { name?: unknown; version?: unknown };
      if (name === 'sinew') {
        if (typeof version !== 'string') throw new Error(`${file}: no "version" string`);
        return version;
      }
    }
    if (dirname(folder) === folder) throw new Error(`no package.json named "sinew" above ${start}`);
  }
}
