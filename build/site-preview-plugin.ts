import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, normalize, resolve } from 'node:path';
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
 *
 * VitePress writes root-absolute URLs (`/assets/…`, `/guide/….html`): a docs page opened at `/site/` asks for
 * them at the server's root. So a root request for a file the built site has and the project does not (in its
 * root or `public/`) is answered from the site too; `/` and everything of the project's stay the viewer's.
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
      server.middlewares.use((req, res, next) => {
        const path = sitePath(req.url);
        if (!path || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        const inSite = [path, `${path}.html`].some((p) => isFile(join(folder, p)));
        const inProject = [server.config.root, server.config.publicDir].some((dir) => dir && existsSync(join(dir, path)));
        if (!inSite || inProject) return next();
        serve ??= sirv(folder, { dev: true, extensions: ['html'] });
        serve(req, res, next);
      });
    },
  };
}

/** A request's path as a relative file path, or null for the viewer's own `/`, a malformed or an escaping one. */
function sitePath(url: string | undefined): string | null {
  let path: string;
  try {
    path = decodeURIComponent((url ?? '/').split(/[?#]/)[0]);
  } catch {
    return null;
  }
  const relative = normalize(path).replace(/^[/\\]+/, '');
  if (relative === '' || relative === 'index.html' || relative.startsWith('..')) return null;
  return relative;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
