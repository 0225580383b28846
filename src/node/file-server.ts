import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

/** URL path prefix (`/`, `/model/`) served from a folder; nothing outside the folder is reachable. */
export interface FolderRoute {
  readonly prefix: string;
  readonly folder: string;
}

/** A running {@link startFileServer}. */
export interface FileServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.map': 'application/json', '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json',
  '.bin': 'application/octet-stream', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
  '.webp': 'image/webp', '.svg': 'image/svg+xml', '.tga': 'image/x-tga',
};

function regularFileSize(path: string): number | null {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats.size : null;
  } catch {
    return null;
  }
}

/**
 * Node only: an HTTP server on 127.0.0.1 (a free port) for local pages, used by `sinew render` to show a model
 * in headless Chromium. `pages` answers exact paths with HTML; otherwise the routes are tried in order, the
 * first regular file found wins (`/` alone means `index.html`), and anything else is 404. Paths that climb out
 * of a route's folder (`..`, encoded or not) never match, and only regular files are read (no FIFOs or devices).
 */
export async function startFileServer(routes: readonly FolderRoute[], pages: Readonly<Record<string, string>> = {}): Promise<FileServer> {
  const server = createServer((request, response) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const page = pages[path];
    if (page !== undefined) {
      response.writeHead(200, { 'Content-Type': CONTENT_TYPES['.html'], 'Cache-Control': 'no-store' }).end(page);
      return;
    }
    for (const { prefix, folder } of routes) {
      if (!path.startsWith(prefix)) continue;
      const root = resolve(folder);
      const file = resolve(root, '.' + sep + path.slice(prefix.length) + (path.endsWith('/') ? 'index.html' : ''));
      if (!file.startsWith(root + sep)) continue;
      const size = regularFileSize(file);
      if (size === null) continue;
      response.writeHead(200, {
        'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': size,
        'Cache-Control': 'no-store',
      });
      createReadStream(file).pipe(response);
      return;
    }
    response.writeHead(404).end('not found');
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(0, '127.0.0.1', listening);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}
