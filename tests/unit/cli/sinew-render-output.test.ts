import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderFormatOfPath } from '../../../src/node/render-format.ts';
import { sinew } from './run-sinew.ts';

// What `sinew render` checks before a browser starts (writing temp-then-rename: output-file.test.ts).
let folder = '';
beforeAll(() => { folder = mkdtempSync(join(tmpdir(), 'sinew-render-output-')); });
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sinew render output', () => {
  it('the format comes from the extension, case-insensitive; anything else is none', () => {
    expect(['a.png', 'b.APNG', 'c.gif', 'd.webm', 'e.Mp4', 'f.jpg', 'g', 'h.png.tmp'].map(renderFormatOfPath))
      .toEqual(['png', 'apng', 'gif', 'webm', 'mp4', null, null, null]);
  });

  it('an output in a missing folder or onto a folder: exit 1 naming it, before any browser starts; no file', async () => {
    const missing = join(folder, 'missing', 'x.webm');
    expect(await sinew('render', 'model.glb', '-o', missing)).toEqual({ code: 1, stdout: '', stderr: `sinew: ${join(folder, 'missing')}: no such folder\n` });
    const onto = join(folder, 'a-folder.png');
    mkdirSync(onto);
    expect(await sinew('render', 'model.glb', '-o', onto)).toEqual({ code: 1, stdout: '', stderr: `sinew: ${onto}: is a folder, not a file\n` });
    expect(await sinew('render', 'a.glb', 'b.glb', '--out-dir', join(folder, 'nowhere'))).toEqual({ code: 1, stdout: '', stderr: `sinew: ${join(folder, 'nowhere')}: no such folder\n` });
    // Only what this file's tests made: no output, no temporary file.
    expect(readdirSync(folder).filter((name) => !['a-folder.png'].includes(name))).toEqual([]);
  });
});
