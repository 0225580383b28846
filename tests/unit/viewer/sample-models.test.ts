import { describe, expect, it } from 'vitest';
import { availableSamples, sampleModels } from '../../../src/viewer/sample-models.ts';
import { siteLinks } from '../../../src/viewer/site-links.ts';

describe('the viewer\'s sample list', () => {
  it('in development offers ../shared/assets at /shared/assets/, and says so', () => {
    const { candidates, source } = sampleModels(true);
    expect(candidates[0]).toEqual({ label: 'Octopus (built-in)', url: null });
    expect(candidates).toContainEqual({ label: 'Fox.glb', url: '/shared/assets/gltf/Fox.glb' });
    expect(candidates).toContainEqual({ label: 'Bob.md5mesh', url: '/shared/assets/md5/Bob.md5mesh' });
    expect(source).toContain('../shared/assets');
    expect(source).toContain('/shared/assets/');
  });

  it('in the built site offers the characters npm run docs copies into site/assets/', () => {
    const { candidates, source } = sampleModels(false);
    expect(candidates.map((s) => s.url)).toEqual([null, null, null, '../assets/CesiumMan.glb', '../assets/Fox.glb', '../assets/RiggedFigure.glb']);
    expect(source).toContain('npm run docs');
  });

  it('keeps the built-in model and the models a HEAD request finds, in order; a miss, an HTML fallback or a failure hides one', async () => {
    const asked: [string, string | undefined][] = [];
    const probe = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      asked.push([url, init?.method]);
      if (url.endsWith('CesiumMan.glb')) return new Response(null, { status: 200, headers: { 'content-type': 'model/gltf-binary' } });
      if (url.endsWith('Fox.glb')) return new Response(null, { status: 200, headers: { 'content-type': 'text/html' } });
      if (url.endsWith('Bob.md5mesh')) throw new TypeError('Failed to fetch');
      if (url.endsWith('RiggedFigure.glb')) return new Response(null, { status: 200 });
      return new Response(null, { status: 404 });
    }) as typeof fetch;
    const { candidates } = sampleModels(true);
    const found = await availableSamples(candidates, probe);
    expect(found.map((s) => s.label)).toEqual(['Octopus (built-in)', 'VRM avatar (generated)', 'VRM avatar, toon (generated)', 'CesiumMan.glb', 'RiggedFigure.glb']);
    // One HEAD per model with a URL; none for the three made in the page.
    expect(asked).toHaveLength(candidates.length - 3);
    expect(new Set(asked.map(([, method]) => method))).toEqual(new Set(['HEAD']));
  });
});

describe('the viewer\'s links to the docs site', () => {
  it('are relative in the built site (the viewer at site/viewer/), and at /site/ under npm run dev', () => {
    expect(siteLinks(false)).toEqual({ docs: '../', examples: '../examples/' });
    expect(siteLinks(true)).toEqual({ docs: '/site/', examples: '/site/examples/' });
    // From site/viewer/index.html the relative ones land on site/ and site/examples/.
    const page = 'https://example.org/sinew/site/viewer/index.html';
    expect(new URL(siteLinks(false).docs, page).href).toBe('https://example.org/sinew/site/');
    expect(new URL(siteLinks(false).examples, page).href).toBe('https://example.org/sinew/site/examples/');
  });
});
