import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.png': 'image/png',
  '.map': 'application/json', '.svg': 'image/svg+xml',
};

/** A static file server on 127.0.0.1 (a free port): `/path` is looked up in each root in turn. */
export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves files under `roots` (first match wins; `/` means `index.html`); nothing outside them. */
export async function serveStatic(roots: readonly string[]): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    for (const root of roots) {
      const file = resolve(root, '.' + path);
      if (!file.startsWith(resolve(root) + sep) || !existsSync(file) || !statSync(file).isFile()) continue;
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': statSync(file).size });
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}
