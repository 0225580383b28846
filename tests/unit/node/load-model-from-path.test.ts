import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';

// A model file may come from anyone: its uris must not read outside its folder, block, or exhaust memory.
// Every refused target below is a FIFO: had the reader opened it, the read would block and the test time out,
// so a passing test also proves nothing was read.
let root = '';
let modelDir = '';
const quad = skinnedQuad();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sinew-read-'));
  modelDir = join(root, 'model');
  mkdirSync(modelDir);
  writeFileSync(join(modelDir, 'quad.bin'), quad.bin());
  execFileSync('mkfifo', [join(root, 'secret.bin'), join(modelDir, 'pipe.bin')]);
  symlinkSync(join(root, 'secret.bin'), join(modelDir, 'link.bin'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes `name` in the model folder with its buffer at `uri` and reads it. */
function readWithUri(uri: string, options: { maxFileBytes?: number; memoryBudgetBytes?: number } = {}, name = 'model.gltf') {
  writeFileSync(join(modelDir, name), quad.gltf(uri));
  return loadModelFromPath(join(modelDir, name), options);
}

describe('loadModelFromPath: companion files stay inside the model folder', () => {
  it('reads a buffer next to the model (also percent-encoded, also in another case)', async () => {
    expect((await readWithUri('quad.bin')).meshes).toHaveLength(1);
    expect((await readWithUri('qu%61d.bin')).meshes).toHaveLength(1);
    expect((await readWithUri('QUAD.BIN')).meshes).toHaveLength(1);
  });

  const refusals: [string, string][] = [
    ['../secret.bin', `model.gltf: companion file "../secret.bin" is outside the model's folder: it is not read`],
    ['..%2Fsecret.bin', `model.gltf: companion file "..%2Fsecret.bin" is outside the model's folder: it is not read`],
    ['sub/../../secret.bin', `model.gltf: companion file "sub/../../secret.bin" is outside the model's folder: it is not read`],
    ['/dev/zero', 'model.gltf: companion file "/dev/zero" is an absolute path: it is not read'],
    ['%2Fdev%2Fzero', 'model.gltf: companion file "%2Fdev%2Fzero" is an absolute path: it is not read'],
    ['file:///dev/zero', 'model.gltf: companion file "file:///dev/zero" has the URI scheme file:: it is not read'],
    ['http://127.0.0.1:9/quad.bin', 'model.gltf: companion file "http://127.0.0.1:9/quad.bin" is a network URI (node readers do not fetch): it is not read'],
    ['link.bin', `model.gltf: companion file "link.bin" links to a file outside the model's folder: it is not read`],
  ];
  for (const [uri, message] of refusals) {
    it(`refuses ${uri}`, async () => {
      const error = await loadErrorOf(readWithUri(uri));
      expect(error.message).toBe(message);
      expect(error.code).toBe('INVALID_URI');
      expect(error.file).toBe('model.gltf');
    });
  }

  it('refuses a FIFO, a folder and a file over the size limit inside the folder, before reading', async () => {
    expect((await loadErrorOf(readWithUri('pipe.bin'))).message).toBe('model.gltf: companion file "pipe.bin" is not a regular file (a device, FIFO or socket)');
    mkdirSync(join(modelDir, 'folder.bin'), { recursive: true });
    expect((await loadErrorOf(readWithUri('folder.bin'))).message).toBe('model.gltf: companion file "folder.bin" is a folder, not a file');
    writeFileSync(join(modelDir, 'big.bin'), new Uint8Array(5000));
    expect((await loadErrorOf(readWithUri('big.bin', { maxFileBytes: 4999 }))).message).toBe('model.gltf: companion file "big.bin" is 5000 bytes, over the limit of 4999');
    // One memory budget: without maxFileBytes, a file is read only if it fits the budget too.
    expect((await loadErrorOf(readWithUri('big.bin', { memoryBudgetBytes: 4999 }))).message).toBe('model.gltf: companion file "big.bin" is 5000 bytes, over the limit of 4999');
  });

  it('a uri component longer than the file system allows is refused, named whole, no path of node in it', async () => {
    const uri = `${'a'.repeat(300)}.bin`;
    const error = await loadErrorOf(readWithUri(uri));
    expect(error.code).toBe('INVALID_URI');
    expect(error.file).toBe('model.gltf');
    expect(error.message).toBe(`model.gltf: companion file "${'a'.repeat(300)}.bin" has a name too long for the file system: it is not read`);
    expect(error.message).not.toContain(root);
  });

  it('a link loop is refused; an unreadable companion is "permission denied" without node\'s message', async () => {
    symlinkSync('loop-b.bin', join(modelDir, 'loop-a.bin'));
    symlinkSync('loop-a.bin', join(modelDir, 'loop-b.bin'));
    const loop = await loadErrorOf(readWithUri('loop-a.bin'));
    expect(loop.code).toBe('INVALID_URI');
    expect(loop.message).toBe('model.gltf: companion file "loop-a.bin" is a loop of symbolic links: it is not read');
    if (process.getuid?.() === 0) return; // root reads anything
    writeFileSync(join(modelDir, 'locked.bin'), quad.bin(), { mode: 0o000 });
    const locked = await loadErrorOf(readWithUri('locked.bin'));
    expect(locked.code).toBe('IO_ERROR');
    expect(locked.message).toBe('model.gltf: companion file "locked.bin" permission denied');
  });

  it('a NaN, zero or negative byte limit is a RangeError, not a disabled limit', async () => {
    for (const bad of [NaN, 0, -1]) {
      await expect(readWithUri('quad.bin', { maxFileBytes: bad })).rejects.toThrow(RangeError);
      await expect(loadModelFromPath(join(modelDir, 'model.gltf'), { memoryBudgetBytes: bad })).rejects.toThrow(RangeError);
    }
  });

  it('refuses a model path that is a FIFO or a device, or over the limit', async () => {
    execFileSync('mkfifo', [join(modelDir, 'fifo.glb')]);
    expect((await loadErrorOf(loadModelFromPath(join(modelDir, 'fifo.glb')))).message).toBe(`${join(modelDir, 'fifo.glb')}: is not a regular file (a device, FIFO or socket)`);
    symlinkSync('/dev/zero', join(modelDir, 'zero.glb'));
    expect((await loadErrorOf(loadModelFromPath(join(modelDir, 'zero.glb')))).code).toBe('IO_ERROR');
    writeFileSync(join(modelDir, 'big.gltf'), quad.gltf('quad.bin'));
    expect((await loadErrorOf(loadModelFromPath(join(modelDir, 'big.gltf'), { maxFileBytes: 10 }))).message).toMatch(/big\.gltf: is \d+ bytes, over the limit of 10$/);
  });
});
