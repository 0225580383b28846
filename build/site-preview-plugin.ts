import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import sirv from 'sirv';
import type { Plugin } from 'vite';

/** Where the dev server serves the built documentation site; the viewer's links point here under `npm run dev`. */
export const SITE_PREFIX = '/site/';

/** What `/site/…` answers while the site is not built: how to build it (HTTP 404, so a link checker sees it). */
export const SITE_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sinew docs: not built</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40em; margin: 3em auto; padding: 0 1em">
<h1>The documentation site is not built</h1>
<p>Run <code>npm run docs</code> in the repository: it builds the site, with the examples gallery, into
<code>site/</code>, which this development server then serves here at <code>/site/</code>.</p>
<p><a href="/">Back to the viewer</a></p>
</body></html>
`;

/**
 * Serves the built documentation site (`npm run docs` → `site/`, with the gallery in `site/examples/`) at
 * {@link SITE_PREFIX} under `npm run dev`, so the viewer page's links to the docs and the gallery work there as
 * they do from the built site (where the viewer is `site/viewer/` and the links are relative). Each request
 * looks for the folder afresh, so a site built while the server runs is served without a restart; while there
 * is none, every `/site/…` request gets {@link SITE_NOT_BUILT_PAGE}. Files are served by sirv, uncached.
 * @param folder the built site (default: `site/` beside this build folder)
 */
export function sitePreview(folder = resolve(import.meta.dirname, '../site')): Plugin {
  let serve: ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | null = null;
  return {
    name: 'sinew-site-preview',
    configureServer(server) {
      server.middlewares.use(SITE_PREFIX.slice(0, -1), (req, res, next) => {
        if (!existsSync(folder) || !statSync(folder).isDirectory()) {
          serve = null;
          res.statusCode = 404;
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(SITE_NOT_BUILT_PAGE);
          return;
        }
        // `/site` alone: the folder's own address, with its slash, so the site's relative links resolve.
        if ((req.originalUrl ?? '').split('?')[0] === SITE_PREFIX.slice(0, -1)) {
          res.statusCode = 301;
          res.setHeader('Location', SITE_PREFIX);
          res.end();
          return;
        }
        serve ??= sirv(folder, { dev: true, extensions: ['html'] });
        serve(req, res, () => {
          res.statusCode = 404;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end(`not in site/: ${req.url ?? ''}`);
        });
      });
    },
  };
}
