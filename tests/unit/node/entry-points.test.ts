import { describe, expect, it } from 'vitest';
import * as core from '../../../src/index.ts';
import * as node from '../../../src/node/index.ts';

describe('the load entry points a user needs, one naming rule: loadModel*(source, options)', () => {
  it('sinew: loadModel (any I/O), loadModelFromUrl and loadModelFromFiles (browser), the LoadError code registry', () => {
    expect([core.loadModel, core.loadModelFromUrl, core.loadModelFromFiles].map((f) => typeof f)).toEqual(['function', 'function', 'function']);
    expect(Object.keys(core.LOAD_ERROR_CODES)).toContain('FILE_NOT_FOUND');
  });

  it('sinew/node: loadModelFromPath; the names it replaced are gone (docs/guide/install.md)', () => {
    expect(typeof node.loadModelFromPath).toBe('function');
    for (const old of ['readGltfFile', 'readMd5Files', 'loadModelFile', 'readModelFile']) expect(old in node).toBe(false);
  });

  it('clips from other files (docs/guide/clips-from-files.md): sinew exports loadClips, retargetClipLibrary, retargetClip, matchJoints; sinew/node loadClipsFromPath', () => {
    const names = ['loadClips', 'retargetClipLibrary', 'retargetClip', 'matchJoints', 'bareJointName', 'RetargetError'] as const;
    expect(names.map((name) => typeof core[name])).toEqual(names.map(() => 'function'));
    expect(core.CLIP_EXTENSIONS).toEqual(['.glb', '.gltf', '.md5anim']);
    expect(core.RETARGET_RESAMPLE_RATE).toBe(60);
    expect(Object.keys(core.LOAD_ERROR_CODES)).toEqual(expect.arrayContaining(['RETARGET_NO_MATCH', 'RETARGET_DEGENERATE_REST_POSE']));
    expect(typeof node.loadClipsFromPath).toBe('function');
  });
});
