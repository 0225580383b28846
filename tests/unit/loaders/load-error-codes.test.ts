import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOAD_ERROR_CODES, type LoadErrorCode } from '../../../src/loaders/load-error-codes.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';

const ROOT = join(import.meta.dirname, '../../..');

/** The rows `| \`CODE\` | meaning |` of docs/explanation/load-errors.md, in order. */
function documentedCodes(): [string, string][] {
  const text = readFileSync(join(ROOT, 'docs/explanation/load-errors.md'), 'utf8');
  return [...text.matchAll(/^\| `([A-Z0-9_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]]);
}

/** Text of every .ts file under src/ except the registry itself. */
function sourceText(): string {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('load-error-codes.ts'));
  return files.map((path) => readFileSync(join(ROOT, 'src', path), 'utf8')).join('\n');
}

describe('LoadError codes: one registry, documented, used', () => {
  it('docs/explanation/load-errors.md lists exactly the registered codes, with the same meanings, in the same order', () => {
    expect(documentedCodes()).toEqual(Object.entries(LOAD_ERROR_CODES));
  });

  it('every registered code is used in src/ (as a quoted literal), or its meaning says it is reserved', () => {
    const source = sourceText();
    const unused = (Object.keys(LOAD_ERROR_CODES) as LoadErrorCode[])
      .filter((code) => !source.includes(`'${code}'`) && !LOAD_ERROR_CODES[code].startsWith('reserved'));
    expect(unused).toEqual([]);
  });

  it('a code outside the registry does not compile (tsc checks this file)', () => {
    // @ts-expect-error 'MD5_SYNTAXX' is not a LoadErrorCode
    const error = new LoadError('Bob.md5mesh', '1', 'MD5_SYNTAXX', 'a typo');
    expect(error.code in LOAD_ERROR_CODES).toBe(false);
  });

  it('codes are UPPER_SNAKE and meanings one line', () => {
    for (const [code, meaning] of Object.entries(LOAD_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(meaning).not.toMatch(/[\n|]/);
    }
  });
});
