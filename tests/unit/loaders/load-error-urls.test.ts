import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchFile } from '../../../src/loaders/fetch/load-model-from-url.ts';
import { LoadError, quoteUrl } from '../../../src/loaders/load-error.ts';
import { messageOf } from '../../../src/errors/message-of.ts';

// A signed CDN URL is several hundred characters long, and its end (the signature, the file) is the part that
// tells two apart: a load error names it whole.
const LONG = `https://cdn.example.org/models/characters/${'fox-'.repeat(60)}Fox.glb?X-Signature=${'0123456789abcdef'.repeat(8)}&expires=1799999999`;

describe('a load error names its URL whole', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('quoteUrl keeps every character of a URL or path, as a JSON string', () => {
    expect(LONG.length).toBeGreaterThan(400);
    expect(quoteUrl(LONG)).toBe(`"${LONG}"`);
    expect(quoteUrl('tex/a "b".png')).toBe('"tex/a \\"b\\".png"');
    // A data: URI is a file's contents, not an address: its header and length.
    const data = `data:application/octet-stream;base64,${'A'.repeat(4000)}`;
    expect(quoteUrl(data)).toBe('"data:application/octet-stream;base64,…" (4037 characters)');
    expect(quoteUrl('data:,hi')).toBe('"data:,hi"');
  });

  it('an HTTP error, a missing file, a network failure and a failed download each name the URL whole', async () => {
    const answer = (response: () => Response | Promise<Response>) => vi.stubGlobal('fetch', vi.fn(async () => response()));

    answer(() => new Response('no', { status: 500, statusText: 'Internal Server Error' }));
    const failed = await fetchFile(LONG, 'Fox.glb', null).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LoadError);
    expect(messageOf(failed)).toBe(`Fox.glb: HTTP 500 Internal Server Error for "${LONG}"`);

    answer(() => new Response('no', { status: 404, statusText: 'Not Found' }));
    expect(await fetchFile(LONG, 'Fox.glb', null)).toEqual({ missing: `HTTP 404 Not Found for "${LONG}"` });

    answer(() => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(await fetchFile(LONG, 'Fox.glb', null)).toEqual({ missing: `not found at "${LONG}" (the server answered with an HTML page)` });

    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(messageOf(await fetchFile(LONG, 'Fox.glb', null).catch((e: unknown) => e))).toBe(`Fox.glb: could not fetch "${LONG}" (Failed to fetch)`);
  });
});
