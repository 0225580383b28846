import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileServer, type FileServer } from '../../../src/node/file-server.ts';

// The loopback server `sinew render` opens for its browser: only regular files inside each route's folder.
let root = '';
let server: FileServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sinew-serve-'));
  mkdirSync(join(root, 'model'));
  writeFileSync(join(root, 'model', 'Fox.glb'), 'fox');
  writeFileSync(join(root, 'secret.txt'), 'secret');
  symlinkSync(join(root, 'secret.txt'), join(root, 'model', 'link.txt'));
  symlinkSync(join(root, 'model', 'Fox.glb'), join(root, 'model', 'inside-link.glb'));
  execFileSync('mkfifo', [join(root, 'model', 'pipe.bin')]);
  server = await startFileServer([{ prefix: '/model/', folder: join(root, 'model') }], { '/': '<p>page</p>' });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** GET `path` as sent (no URL normalisation by a client library). */
function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((done, failed) => {
    const url = new URL(server.url);
    request({ host: url.hostname, port: url.port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode!, body }));
    }).on('error', failed).end();
  });
}

describe('startFileServer', () => {
  it('serves the page and the files of a route, and links that stay inside', async () => {
    expect(await get('/')).toEqual({ status: 200, body: '<p>page</p>' });
    expect(await get('/model/Fox.glb')).toEqual({ status: 200, body: 'fox' });
    expect(await get('/model/inside-link.glb')).toEqual({ status: 200, body: 'fox' });
  });

  it('answers 404, without reading or blocking, for paths out of the folder, links out, FIFOs and folders', async () => {
    for (const path of ['/model/../secret.txt', '/model/%2e%2e/secret.txt', '/model/..%2Fsecret.txt', '/model/link.txt', '/model/pipe.bin', '/model/', '/secret.txt']) {
      expect(await get(path), path).toEqual({ status: 404, body: 'not found' });
    }
    expect((await get('/model/%E0%A4%A')).status).toBe(400);
  });
});
