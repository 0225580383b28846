import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOutputFile } from '../../../src/cli/output-file.ts';

describe('writeOutputFile: temporary file, then rename', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sinew-output-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('writes the file whole, replacing an old one, and leaves nothing else', async () => {
    const path = join(folder, 'out.bin');
    writeFileSync(path, 'old contents, longer than the new');
    await writeOutputFile(path, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(readdirSync(folder)).toEqual(['out.bin']);
  });

  it('a write that fails names the file asked for and leaves no temporary file; what was there stays', async () => {
    const sub = join(folder, 'taken');
    mkdirSync(join(sub, 'out.png'), { recursive: true }); // a folder where the file should go
    const error = await writeOutputFile(join(sub, 'out.png'), 'x').then(() => null, (e: NodeJS.ErrnoException) => e);
    expect(error).not.toBeNull();
    expect(error!.path).toBe(join(sub, 'out.png'));
    expect(readdirSync(sub)).toEqual(['out.png']);
  });

  it('a missing folder fails before anything is written', async () => {
    await expect(writeOutputFile(join(folder, 'no', 'such', 'x.txt'), 'x')).rejects.toThrow(`${join(folder, 'no', 'such')}: no such folder`);
  });
});
