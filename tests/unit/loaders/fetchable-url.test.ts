import { describe, expect, it } from 'vitest';
import { fetchableRequestUrl, fetchableUrl, fetchBaseUrl } from '../../../src/loaders/fetch/fetchable-url.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';

describe('fetchableUrl: what the viewer fetches for a model and its companion files', () => {
  const base = 'https://example.org/models/fox/Fox.gltf';

  it('resolves relative references against the model, and keeps http(s), data and blob URLs', () => {
    expect(fetchableUrl('Fox.bin', base, 'Fox.gltf').href).toBe('https://example.org/models/fox/Fox.bin');
    expect(fetchableUrl('../tex/skin%20a.png', base, 'Fox.gltf').href).toBe('https://example.org/models/tex/skin%20a.png');
    expect(fetchableUrl('http://cdn.example.org/a.bin', base, 'Fox.gltf').protocol).toBe('http:');
    expect(fetchableUrl('data:application/octet-stream;base64,AAAA', base, 'Fox.gltf').protocol).toBe('data:');
    expect(fetchableUrl('blob:https://example.org/0b1f', base, 'Fox.gltf').protocol).toBe('blob:');
  });

  it('refuses javascript:, file: and other schemes before any request, naming the model', () => {
    for (const [reference, scheme] of [['javascript:alert(1)', 'javascript:'], ['file:///etc/passwd', 'file:'], ['ftp://x/y.bin', 'ftp:'], ['chrome://settings', 'chrome:']]) {
      let error: unknown;
      try {
        fetchableUrl(reference, base, 'Fox.gltf');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LoadError);
      expect((error as LoadError).code).toBe('INVALID_URI');
      expect((error as LoadError).message).toBe(`Fox.gltf: ${JSON.stringify(reference)} has the URI scheme ${scheme} (only http, https, data and blob URLs are fetched)`);
    }
  });

  it('quotes a long reference whole: a message never cuts the URL it names (quoteUrl)', () => {
    const reference = `javascript:${'x'.repeat(500)}`;
    expect(() => fetchableUrl(reference, base, 'Fox.gltf')).toThrow(`Fox.gltf: "javascript:${'x'.repeat(500)}" has the URI scheme javascript: (only`);
  });
});

describe('fetchableRequestUrl: a fetch loader\'s URL against its baseUrl option, else the base fetch itself uses', () => {
  it('resolves against baseUrl when given (a page passes document.baseURI)', () => {
    expect(fetchableRequestUrl('models/Fox.glb', 'https://example.org/app/index.html', 'Fox.glb').href).toBe('https://example.org/app/models/Fox.glb');
    expect(fetchableRequestUrl('https://cdn.example.org/Fox.glb', 'https://example.org/app/', 'Fox.glb').href).toBe('https://cdn.example.org/Fox.glb');
  });

  it('in node, where Request has no base, takes absolute URLs and refuses relative ones as INVALID_URI naming the file', () => {
    expect(fetchBaseUrl()).toBeNull();
    expect(fetchableRequestUrl('https://example.org/Fox.glb', undefined, 'Fox.glb').href).toBe('https://example.org/Fox.glb');
    let error: unknown;
    try {
      fetchableRequestUrl('Fox.glb', undefined, 'Fox.glb');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LoadError);
    expect((error as LoadError).code).toBe('INVALID_URI');
    expect((error as LoadError).message).toBe('Fox.glb: "Fox.glb" is not a valid URL');
  });
});
