/**
 * A static file server of the built site (`site/`, `npm run docs`) for the gallery's browser tests
 * (tests/browser/gallery/), started by playwright.config.ts beside the development server:
 * `node --import tsx tests/browser/helpers/static-site-server.ts DIR PORT`. It serves files only (a folder gives
 * its index.html), 404 for anything else, and answers even when DIR does not exist, so that a missing site fails
 * the gallery's specs with their own message rather than every spec's server start.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.bin': 'application/octet-stream', '.hdr': 'image/vnd.radiance',
  '.txt': 'text/plain; charset=utf-8', '.woff2': 'font/woff2',
};

const [dir, port] = process.argv.slice(2);
if (!dir || !/^\d+$/.test(port ?? '')) {
  console.error('usage: node --import tsx tests/browser/helpers/static-site-server.ts DIR PORT');
  process.exit(2);
}
const root = resolve(dir);

/** What playwright.config.ts polls to know the server is up (its readiness check takes no 404). */
const READY_PATH = '/.server-ready';

createServer((req, res) => {
  if (req.url === READY_PATH) {
    res.writeHead(204).end();
    return;
  }
  let path: string;
  try {
    path = resolve(root, '.' + decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
  } catch {
    res.writeHead(400).end();
    return;
  }
  if (path !== root && !path.startsWith(root + sep)) {
    res.writeHead(403).end();
    return;
  }
  if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
  if (!existsSync(path) || !statSync(path).isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${req.url}`);
    return;
  }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': statSync(path).size,
    'Cache-Control': 'no-store',
  });
  createReadStream(path).pipe(res);
}).listen(Number(port), '127.0.0.1');
