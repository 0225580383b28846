/**
 * STUB (site branch): the examples gallery is built by the `gallery` branch's version of this module, which
 * replaces this file at merge. It only writes site/examples/index.html and site/examples/credits.html, so the
 * site's links to the gallery and its credits resolve while the gallery is not merged.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const page = (title: string, body: string): string =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body><h1>${title}</h1>${body}</body>\n</html>\n`;

/** Builds the examples gallery into `siteDir`/examples/ (here: a placeholder page and an empty credits page). */
export async function buildExamples(siteDir: string): Promise<void> {
  const dir = join(siteDir, 'examples');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.html'), page('Sinew examples', '<p>The gallery is built by the gallery branch.</p><p><a href="../">Back to the docs</a></p>'));
  await writeFile(join(dir, 'credits.html'), page('Credits', '<p>Models used by the examples, with their licences.</p><p><a href="./">Examples</a></p>'));
}
