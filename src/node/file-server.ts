import { createServer, type ServerResponse } from 'node:http';
import { constants, createReadStream, fstatSync, openSync, closeSync, realpathSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
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
  '.json': 'application/json', '.map': 'application/json', '.glb': 'model/gltf-binary', '.vrm': 'model/gltf-binary', '.gltf': 'model/gltf+json',
  '.bin': 'application/octet-stream', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
  '.webp': 'image/webp', '.svg': 'image/svg+xml', '.tga': 'image/x-tga',
};

/** Whether `path` is `folder` or inside it (works for a filesystem root too). */
function isInside(folder: string, path: string): boolean {
  const r = relative(folder, path);
  return r !== '' && !r.startsWith('..') && !isAbsolute(r);
}

/**
 * Opens `file` for streaming when it is a regular file whose real path (links followed) is inside `realRoot`:
 * opened without blocking (a FIFO swapped in cannot stall the server) and checked on the open descriptor, so
 * what is checked is what is read. Null for anything else.
 */
function openInside(realRoot: string, file: string): { fd: number; size: number } | null {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return null;
  }
  if (!isInside(realRoot, real)) return null;
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    return null;
  }
  return { fd, size: stats.size };
}

function send(response: ServerResponse, status: number, text: string): void {
  if (!response.headersSent) response.writeHead(status, { 'Content-Type': 'text/plain' });
  response.end(text);
}

/**
 * Node only: an HTTP server on 127.0.0.1 (a free port) for local pages, used by `sinew render` to show a model
 * in headless Chromium. `pages` answers exact paths with HTML; otherwise the routes are tried in order, the
 * first regular file found wins (`/` alone means `index.html`), and anything else is 404. Paths that climb out
 * of a route's folder (`..`, encoded or not) never match, nor do links whose target lies outside it, and only
 * regular files are read (no FIFOs or devices), checked on the opened file. Any process on this machine can
 * reach the port while the server runs.
 */
export async function startFileServer(routes: readonly FolderRoute[], pages: Readonly<Record<string, string>> = {}): Promise<FileServer> {
  const resolvedRoutes = routes.map(({ prefix, folder }) => {
    let realFolder: string | null;
    try {
      realFolder = realpathSync(folder);
    } catch {
      realFolder = null;
    }
    return { prefix, folder: resolve(folder), realFolder };
  });
  const server = createServer((request, response) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      send(response, 400, 'bad request');
      return;
    }
    const page = pages[path];
    if (page !== undefined) {
      response.writeHead(200, { 'Content-Type': CONTENT_TYPES['.html'], 'Cache-Control': 'no-store' }).end(page);
      return;
    }
    for (const { prefix, folder, realFolder } of resolvedRoutes) {
      if (!path.startsWith(prefix)) continue;
      const file = resolve(folder, '.' + '/' + path.slice(prefix.length) + (path.endsWith('/') ? 'index.html' : ''));
      if (!isInside(folder, file) || realFolder === null) continue;
      const opened = openInside(realFolder, file);
      if (opened === null) continue;
      response.writeHead(200, {
        'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': opened.size,
        'Cache-Control': 'no-store',
      });
      createReadStream('', { fd: opened.fd }).on('error', () => response.destroy()).pipe(response);
      return;
    }
    send(response, 404, 'not found');
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
