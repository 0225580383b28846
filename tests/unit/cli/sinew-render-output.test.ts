import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceOutputFile } from '../../../src/cli/replace-output-file.ts';
import { renderFormatOfPath } from '../../../src/node/render-format.ts';
import { sinew } from './run-sinew.ts';

// What `sinew render` checks before a browser starts, and how it writes: temp file beside OUT, then rename.
let folder = '';
beforeAll(() => { folder = mkdtempSync(join(tmpdir(), 'sinew-render-output-')); });
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sinew render output', () => {
  it('the format comes from the extension, case-insensitive; anything else is none', () => {
    expect(['a.png', 'b.APNG', 'c.gif', 'd.webm', 'e.Mp4', 'f.jpg', 'g', 'h.png.tmp'].map(renderFormatOfPath))
      .toEqual(['png', 'apng', 'gif', 'webm', 'mp4', null, null, null]);
  });

  it('replaceOutputFile replaces the file whole and leaves no temporary file', async () => {
    const out = join(folder, 'replace', 'x.webm');
    mkdirSync(join(folder, 'replace'));
    writeFileSync(out, 'old');
    await replaceOutputFile(out, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(out)]).toEqual([1, 2, 3]);
    expect(readdirSync(join(folder, 'replace'))).toEqual(['x.webm']);
  });

  it('replaceOutputFile into a folder it cannot write: node\'s error names OUT, and nothing is left', async () => {
    if (process.getuid?.() === 0) return; // root writes anywhere: the permission case cannot happen
    const locked = join(folder, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    try {
      await expect(replaceOutputFile(join(locked, 'x.png'), 'data')).rejects.toMatchObject({ code: 'EACCES', path: join(locked, 'x.png') });
      expect(readdirSync(locked)).toEqual([]);
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  it('an output in a missing folder or onto a folder: exit 1 naming it, before any browser starts; no file', async () => {
    const missing = join(folder, 'missing', 'x.webm');
    expect(await sinew('render', 'model.glb', '-o', missing)).toEqual({ code: 1, stdout: '', stderr: `sinew: ${join(folder, 'missing')}: no such folder\n` });
    const onto = join(folder, 'a-folder.png');
    mkdirSync(onto);
    expect(await sinew('render', 'model.glb', '-o', onto)).toEqual({ code: 1, stdout: '', stderr: `sinew: ${onto}: is a folder, not a file\n` });
    expect(await sinew('render', 'a.glb', 'b.glb', '--out-dir', join(folder, 'nowhere'))).toEqual({ code: 1, stdout: '', stderr: `sinew: ${join(folder, 'nowhere')}: no such folder\n` });
    // Only what this file's tests made: no output, no temporary file.
    expect(readdirSync(folder).filter((name) => !['a-folder.png', 'replace', 'locked'].includes(name))).toEqual([]);
  });
});
