import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../../../src/viewer/help-overlay.ts';

// The help dialog (and the docs generated from it) list SHORTCUTS; the viewer handles keys in viewer-shortcuts.ts's
// keydown switch. Read from the source, each `case` label is a key the viewer handles: every one must be listed,
// and every single key listed must be handled.

const source = readFileSync(resolve(import.meta.dirname, '../../../src/viewer/viewer-shortcuts.ts'), 'utf8');

/** The `e.key` values of the keydown switch in `attachShortcuts`. */
function handledKeys(): string[] {
  const start = source.indexOf('export function attachShortcuts(');
  expect(start).toBeGreaterThan(0);
  const body = source.slice(start, source.indexOf('\n}\n', start));
  expect(body).toContain("addEventListener('keydown'");
  return [...body.matchAll(/case '((?:[^'\\]|\\.)+)':/g)].map((m) => m[1]);
}

/** How the help names an `e.key` value: letters upper-case, the space bar `Space`, Escape `Esc`. */
function label(key: string): string {
  if (key === ' ') return 'Space';
  if (key === 'Escape') return 'Esc';
  return key.length === 1 ? key.toUpperCase() : key;
}

describe('the viewer\'s keyboard shortcuts', () => {
  const listed = SHORTCUTS.map(([key]) => key);

  it('lists every key the viewer handles', () => {
    const handled = handledKeys();
    expect(handled.length).toBeGreaterThanOrEqual(15);
    expect([...new Set(handled.map(label))].filter((key) => !listed.includes(key))).toEqual([]);
  });

  it('handles every single key it lists (mouse and drop gestures aside), each letter in both cases', () => {
    const handled = new Set(handledKeys());
    const keys = listed.filter((key) => !/ /.test(key));
    expect(keys).toEqual(expect.arrayContaining(['Space', 'F', 'K', 'Esc', '?']));
    for (const key of keys) {
      if (key === 'Space') expect(handled.has(' ')).toBe(true);
      else if (key === 'Esc') expect(handled.has('Escape')).toBe(true);
      else if (/^[A-Z]$/.test(key)) expect([handled.has(key), handled.has(key.toLowerCase())]).toEqual([true, true]);
      else expect(handled.has(key)).toBe(true);
    }
  });
});
