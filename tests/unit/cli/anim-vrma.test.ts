import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadCommandModelAndClips } from '../../../src/cli/load-command-model.ts';
import { loadClipsFromPath } from '../../../src/node/load-clips-from-path.ts';
import { GltfBuilder } from '../helpers/gltf-builder.ts';
import { buildVrma } from '../loaders/vrma/vrma-builder.ts';

const folder = mkdtempSync(join(tmpdir(), 'sinew-vrma-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A nodes-only model whose names are the VRMA's (no avatar: joints match by name). */
function namedLikeTheVrma(): string {
  const b = new GltfBuilder();
  Object.assign(b.json, {
    scene: 0, scenes: [{ nodes: [0] }],
    nodes: [{ name: 'J_Hips', translation: [0, 0.8, 0], children: [1] }, { name: 'J_Spine', translation: [0, 0.2, 0] }],
  });
  const path = join(folder, 'Model.glb');
  writeFileSync(path, b.glb());
  return path;
}

describe('--anim X.vrma (sinew eval, inspect, render)', () => {
  it('reads a .vrma from disk as clips and retargets it, its expression tracks carried', async () => {
    const vrma = join(folder, 'dance.vrma');
    writeFileSync(vrma, buildVrma());
    const library = await loadClipsFromPath(vrma);
    expect(library.humanoid?.bones.hips).toBeTypeOf('number');
    const { retarget } = await loadCommandModelAndClips(namedLikeTheVrma(), { anim: vrma });
    expect(retarget?.file).toBe('dance.vrma');
    expect(retarget?.match.matched).toEqual(['J_Hips', 'J_Spine']);
    expect(retarget?.clips[0].expressionTracks?.map((t) => t.expression)).toEqual(['happy', 'wink']);
  });
});
