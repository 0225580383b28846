import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { malformedCorpus, writeCorpus } from '../../fixtures/malformed-corpus.ts';

// Every file of the generated corpus, read from disk as `sinew eval` reads it, ends in one LoadError with its
// expected code, a message naming a file in under 300 characters (besides the URLs it names, whole), within seconds.
const folder = mkdtempSync(join(tmpdir(), 'sinew-corpus-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const models = writeCorpus(folder);
const corpus = malformedCorpus();

describe(`malformed corpus (${corpus.length} files)`, () => {
  it('holds at least 300 files across every category', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.map((e) => e.category))).toEqual(new Set(['glb-truncation', 'reference', 'accessor', 'non-finite', 'node-range', 'memory-bomb', 'compressed', 'path-trick', 'encoding', 'md5-number', 'md5-count']));
    expect(new Set(corpus.map((e) => e.name)).size).toBe(corpus.length);
  });

  it('each file ends in its LoadError code, one short line, quickly', async () => {
    const wrong: string[] = [];
    let slowest = { name: '', ms: 0 };
    for (const entry of corpus) {
      const started = performance.now();
      let error: unknown = null;
      try {
        await loadModelFromPath(join(models, entry.name));
      } catch (e) {
        error = e;
      }
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { name: entry.name, ms };
      if (!(error instanceof LoadError)) wrong.push(`${entry.name}: ${error === null ? 'loaded' : `threw ${String(error)}`}`);
      else if (error.code !== entry.code) wrong.push(`${entry.name}: ${error.code} (expected ${entry.code}): ${error.message}`);
      // A URL or file name the message quotes is quoted whole (quoteUrl: a cut address cannot be looked up), so a
      // long one does not count; the rest of the message stays short.
      else if (error.message.replace(/"(?:[^"\\]|\\.){41,}"/g, '"…"').length >= 300) wrong.push(`${entry.name}: message of ${error.message.length} characters`);
    }
    console.log(`malformed corpus: ${corpus.length} files, slowest ${slowest.name} in ${slowest.ms.toFixed(1)} ms`);
    expect(wrong).toEqual([]);
    expect(slowest.ms).toBeLessThan(10_000); // generous: a loaded 2-core machine must not flake
  });
});
