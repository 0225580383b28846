import { describe, expect, it } from 'vitest';
import { isInsideFolder } from '../../../src/node/is-inside-folder.ts';

describe('isInsideFolder: where a companion file may be read from', () => {
  it('accepts files below the folder, also when the folder is the root', () => {
    expect(isInsideFolder('/models', '/models/a.bin')).toBe(true);
    expect(isInsideFolder('/models', '/models/sub/a.bin')).toBe(true);
    expect(isInsideFolder('/', '/a.bin')).toBe(true);
    expect(isInsideFolder('/models', '/models/..a.bin')).toBe(true);
  });

  it('refuses the folder itself, its parent, siblings sharing a prefix and other trees', () => {
    expect(isInsideFolder('/models', '/models')).toBe(false);
    expect(isInsideFolder('/models', '/')).toBe(false);
    expect(isInsideFolder('/models', '/models2/a.bin')).toBe(false);
    expect(isInsideFolder('/models', '/etc/passwd')).toBe(false);
  });
});
