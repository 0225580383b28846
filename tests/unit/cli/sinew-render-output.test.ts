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

  it('render usage mistakes exit 2 with one `sinew:` line and a --help hint, before any browser starts', async () => {
    const cases: [string[], string][] = [
      [['render', 'x.glb', '-o', 'x.png', '--out-dir', '.'], "sinew: give either --out FILE (one model) or --out-dir FOLDER\nrun 'sinew render --help' for usage\n"],
      [['render', 'a.glb', 'b.glb', '-o', 'x.png'], "sinew: 2 models need --out-dir FOLDER, not --out\nrun 'sinew render --help' for usage\n"],
      [['render', 'x.glb', '-o', 'x.avi'], "sinew: x.avi: unknown format \".avi\"; use .png, .apng, .gif, .webm, .mp4 or --format\nrun 'sinew render --help' for usage\n"],
      [['render', 'x.glb', '-o', 'x', '--format', 'avi'], "sinew: option '--format <format>' argument 'avi' is invalid. It must be one of png, apng, gif, webm, mp4.\nrun 'sinew render --help' for usage\n"],
      [['render', 'x.glb', '-o', 'x.webm', '--time', '1'], "sinew: --time applies to a png still; a webm starts at 0 s\nrun 'sinew render --help' for usage\n"],
      [['render', 'x.glb', '-o', 'x.png', '--fps', '10'], "sinew: --fps applies to an animated format (apng, gif, webm, mp4), not png\nrun 'sinew render --help' for usage\n"],
      [['render', 'x.glb', '-o', 'x.gif', '--fps', '0'], "sinew: option '--fps <n>' argument '0' is invalid. It must be a number of frames per second, more than 0 and at most 240.\nrun 'sinew render --help' for usage\n"],
      [['render', 'a/x.glb', 'b/x.glb', '--out-dir', '.'], "sinew: two models would be written to x.png\nrun 'sinew render --help' for usage\n"],
    ];
    // In parallel: each is a node start, and the machine may be loaded.
    const results = await Promise.all(cases.map(([args]) => sinew(...args)));
    cases.forEach(([args, stderr], i) => expect({ args, ...results[i] }).toEqual({ args, code: 2, stdout: '', stderr }));
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
