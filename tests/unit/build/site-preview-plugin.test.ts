import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { sitePreview } from '../../../build/site-preview-plugin.ts';

// `npm run dev` serves the built docs site at /site/ (the viewer page links there); without one, it says how
// to build it. A real vite dev server on a loopback port, over a site folder made here.

const root = mkdtempSync(join(tmpdir(), 'sinew-site-preview-'));
const site = join(root, 'site');
let server: ViteDevServer;
let base = '';

beforeAll(async () => {
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>viewer</title>');
  server = await createServer({ configFile: false, root, logLevel: 'silent', plugins: [sitePreview(site)], server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  const address = server.httpServer!.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the dev server\'s /site/', () => {
  it('without a built site: a 404 page that says to run npm run docs', async () => {
    for (const path of ['/site/', '/site/examples/', '/site/guide/intro.html']) {
      const response = await fetch(base + path);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('npm run docs');
    }
  });

  it('with one: its pages (folders by their index.html, pages without .html), and a 404 for what it lacks', async () => {
    mkdirSync(join(site, 'examples'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>Sinew docs</title>');
    writeFileSync(join(site, 'examples', 'index.html'), '<!doctype html><title>Sinew examples</title>');
    writeFileSync(join(site, 'examples', 'embed.html'), '<!doctype html><title>Embed</title>');
    const text = async (path: string) => {
      const response = await fetch(base + path);
      return `${response.status} ${await response.text()}`;
    };
    expect(await text('/site/')).toBe('200 <!doctype html><title>Sinew docs</title>');
    expect(await text('/site/examples/')).toBe('200 <!doctype html><title>Sinew examples</title>');
    expect(await text('/site/examples/embed')).toBe('200 <!doctype html><title>Embed</title>');
    expect((await fetch(base + '/site/missing.html')).status).toBe(404);
    const bare = await fetch(base + '/site', { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/site/']);
  });

  it('answers the root-absolute URLs of the site\'s pages (VitePress\'s assets and links) unless the project has the path', async () => {
    mkdirSync(join(site, 'assets'), { recursive: true });
    mkdirSync(join(site, 'guide'), { recursive: true });
    writeFileSync(join(site, 'assets', 'style.css'), 'body{}');
    writeFileSync(join(site, 'guide', 'embedding.html'), '<!doctype html><title>Embed guide</title>');
    writeFileSync(join(site, 'shadowed.txt'), 'the site\'s');
    writeFileSync(join(root, 'shadowed.txt'), 'the project\'s');
    const text = async (path: string) => {
      const response = await fetch(base + path);
      return `${response.status} ${await response.text()}`;
    };
    expect(await text('/assets/style.css')).toBe('200 body{}');
    expect(await text('/guide/embedding.html')).toBe('200 <!doctype html><title>Embed guide</title>');
    expect(await text('/guide/embedding')).toBe('200 <!doctype html><title>Embed guide</title>');
    expect(await text('/shadowed.txt')).toBe("200 the project's");
    expect(await text('/')).toContain('<title>viewer</title>');
  });
});
