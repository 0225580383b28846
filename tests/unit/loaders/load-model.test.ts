import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { loadModel, type FetchCompanion } from '../../../src/loaders/load-model.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { MD5_DIR, md5AssetsAvailable } from '../helpers/md5-assets.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';

/** A fetchCompanion over the shared MD5 folder, recording what it was asked for. */
function md5Folder(asked: string[] = []): FetchCompanion {
  return async (name) => {
    asked.push(name);
    try {
      return new Uint8Array(readFileSync(join(MD5_DIR, name)));
    } catch {
      return null;
    }
  };
}

const md5File = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(join(MD5_DIR, name))) });

describe('loadModel: glTF companions', () => {
  it('fetches an external buffer by its uri as written; a missing one names the JSON place', async () => {
    const builder = skinnedQuad();
    const asked: string[] = [];
    const asset = await loadModel({ name: 'quad.gltf', bytes: builder.gltf('quad%20data.bin') }, async (name) => {
      asked.push(name);
      return builder.bin();
    });
    expect(asked).toEqual(['quad%20data.bin']);
    expect(asset.meshes).toHaveLength(1);

    const error = await loadErrorOf(loadModel({ name: 'quad.gltf', bytes: builder.gltf('quad.bin') }, async () => null));
    expect([error.file, error.where, error.code]).toEqual(['quad.gltf', '/buffers/0', 'FILE_NOT_FOUND']);
  });

  it('a fetch failure other than "absent" is an IO_ERROR naming the companion', async () => {
    const error = await loadErrorOf(loadModel({ name: 'quad.gltf', bytes: skinnedQuad().gltf('quad.bin') }, async (name) => {
      throw new Error(`${name}: HTTP 500 Internal Server Error`);
    }));
    expect([error.file, error.where, error.code, error.message]).toEqual(['quad.bin', null, 'IO_ERROR', 'quad.bin: HTTP 500 Internal Server Error']);
  });

  it('anims given for a glTF are ignored with a warning; an unknown extension fails before any fetch', async () => {
    const asset = await loadModel({ name: 'quad.glb', bytes: skinnedQuad().glb() }, async () => null, { anims: ['x.md5anim'] });
    expect(asset.warnings).toContain('quad.glb: anim x.md5anim ignored (only an .md5mesh takes an .md5anim)');
    const asked: string[] = [];
    const error = await loadErrorOf(loadModel({ name: 'notes.txt', bytes: new Uint8Array(1) }, async (name) => (asked.push(name), null)));
    expect([error.file, error.code, error.message]).toEqual(['notes.txt', 'UNSUPPORTED_FILE_TYPE', 'notes.txt: unsupported file type ".txt" (expected .glb, .gltf, .vrm or .md5mesh)']);
    expect(asked).toEqual([]);
  });
});

describe.skipIf(!md5AssetsAvailable)('loadModel: MD5 companions', () => {
  it('by default plays <name>.md5anim and finds the shaders\' images next to the mesh', async () => {
    const asked: string[] = [];
    const asset = await loadModel(md5File('Bob.md5mesh'), md5Folder(asked));
    expect(asked[0]).toBe('Bob.md5anim');
    expect(asset.clips.map((c) => c.name)).toEqual(['Bob']);
    expect(asset.images.length).toBeGreaterThan(0);
    expect(asset.warnings).toEqual([]);
  });

  it('an absent <name>.md5anim gives the bind pose with a warning', async () => {
    const asset = await loadModel(md5File('SimpleCube.md5mesh'), md5Folder());
    expect(asset.clips).toEqual([]);
    expect(asset.warnings).toContain('SimpleCube.md5mesh: no SimpleCube.md5anim next to it; showing the bind pose');
  });

  it('any other failure to fetch it (server error, network) is reported, not taken for "absent"', async () => {
    const error = await loadErrorOf(loadModel(md5File('SimpleCube.md5mesh'), async (name) => {
      throw new Error(`${name}: HTTP 500 Internal Server Error`);
    }));
    expect([error.file, error.code, error.message]).toEqual(['SimpleCube.md5anim', 'IO_ERROR', 'SimpleCube.md5anim: HTTP 500 Internal Server Error']);
  });

  it('explicit anims: one clip each, in order; a missing one fails naming it', async () => {
    const twice = await loadModel(md5File('Bob.md5mesh'), async (name) => md5Folder()(name === 'Again.md5anim' ? 'Bob.md5anim' : name), {
      anims: ['Bob.md5anim', 'Again.md5anim'],
    });
    expect(twice.clips.map((c) => c.name)).toEqual(['Bob', 'Again']);
    const error = await loadErrorOf(loadModel(md5File('Bob.md5mesh'), md5Folder(), { anims: ['Walk.md5anim'] }));
    expect([error.file, error.where, error.code]).toEqual(['Walk.md5anim', null, 'FILE_NOT_FOUND']);
  });

  it('an anim that does not fit the mesh is MD5_ANIM_MISMATCH about the anim', async () => {
    const error = await loadErrorOf(loadModel(md5File('SimpleCube.md5mesh'), md5Folder(), { anims: ['Bob.md5anim'] }));
    expect([error.file, error.where, error.code]).toEqual(['Bob.md5anim', '10', 'MD5_ANIM_MISMATCH']);
  });

  it('loadModelFromPath (node): the same rules, companions read next to the model; a missing model is FILE_NOT_FOUND', async () => {
    const asset = await loadModelFromPath(join(MD5_DIR, 'Bob.md5mesh'));
    expect(asset.clips.map((c) => c.name)).toEqual(['Bob']);
    const missing = join(MD5_DIR, 'Nobody.md5mesh');
    const error = await loadErrorOf(loadModelFromPath(missing));
    expect([error.file, error.code, error.message]).toEqual([missing, 'FILE_NOT_FOUND', `${missing}: no such file`]);
  });
});
