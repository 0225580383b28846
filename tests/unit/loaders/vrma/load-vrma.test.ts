import { describe, expect, it } from 'vitest';
import { loadClips, CLIP_EXTENSIONS } from '../../../../src/loaders/load-clips.ts';
import { loadErrorOf } from '../../helpers/load-error-of.ts';
import { buildVrma, VRMA_KEYS, VRMA_NODES } from './vrma-builder.ts';

const none = async () => null;
const load = (bytes: Uint8Array, name = 'dance.vrma') => loadClips({ name, bytes }, none);

describe('loadClips: .vrma (VRMC_vrm_animation 1.0)', () => {
  it('is a clips extension', () => {
    expect(CLIP_EXTENSIONS).toContain('.vrma');
  });

  it('reads the skeleton, rest pose, humanoid, clips, expression and look-at tracks', async () => {
    const library = await load(buildVrma());
    expect(library.name).toBe('dance.vrma');
    expect(library.warnings).toEqual([]);
    expect(library.upAxis).toBe('y');
    const { skeleton } = library;
    const joint = (node: number) => Array.from(skeleton.sourceIndices).indexOf(node);
    expect(skeleton.names[joint(VRMA_NODES.hips)]).toBe('J_Hips');
    expect(Array.from(library.restPose.translations.subarray(3 * joint(VRMA_NODES.hips), 3 * joint(VRMA_NODES.hips) + 3))).toEqual([0, 1, 0]);
    expect(library.humanoid?.bones).toEqual({
      hips: joint(VRMA_NODES.hips), spine: joint(VRMA_NODES.spine), head: joint(VRMA_NODES.head), leftUpperLeg: joint(VRMA_NODES.leftUpperLeg),
    });

    expect(library.clips).toHaveLength(1);
    const clip = library.clips[0];
    expect(clip.name).toBe('dance');
    expect(clip.duration).toBe(1);
    // Only the humanoid channels stay joint channels.
    const driven = clip.channels.map((c) => `${skeleton.names[c.joint]} ${c.path}`).sort();
    expect(driven).toEqual(['J_Head rotation', 'J_Hips translation', 'J_LeftUpperLeg rotation', 'J_Spine rotation']);

    const tracks = clip.expressionTracks ?? [];
    expect(tracks.map((t) => t.expression)).toEqual(['happy', 'wink']);
    expect(tracks[0].interpolation).toBe('LINEAR');
    expect(Array.from(tracks[0].times)).toEqual([0, 1]);
    expect(Array.from(tracks[0].values)).toEqual(VRMA_KEYS.happy);
    expect(tracks[1].interpolation).toBe('STEP');
    expect(Array.from(tracks[1].times)).toEqual([0, 0.5, 1]);
    expect(Array.from(tracks[1].values)).toEqual(VRMA_KEYS.wink);

    const lookAt = clip.lookAtTrack!;
    expect(lookAt.interpolation).toBe('LINEAR');
    expect(Array.from(lookAt.times)).toEqual([0, 1]);
    const expected = VRMA_KEYS.lookAt.flat();
    Array.from(lookAt.values).forEach((v, i) => expect(v).toBeCloseTo(expected[i], 6));
  });

  it('takes a CUBICSPLINE expression channel\'s x of in-tangent, value and out-tangent', async () => {
    const library = await load(buildVrma((json, builder) => {
      // Sampler 4 (happy) as CUBICSPLINE: 2 keys × (in, value, out) × 3 components.
      const values = new Float32Array([0.5, 9, 9, 0, 9, 9, -0.5, 9, 9, 2, 9, 9, 1, 9, 9, 3, 9, 9]);
      json.animations[0].samplers[4].interpolation = 'CUBICSPLINE';
      json.animations[0].samplers[4].output = builder.accessor(values, 'VEC3');
    }));
    const happy = library.clips[0].expressionTracks![0];
    expect(happy.interpolation).toBe('CUBICSPLINE');
    expect(Array.from(happy.values)).toEqual([0.5, 0, -0.5, 2, 1, 3]);
  });

  it('drops translation channels of humanoid bones other than the hips, with one warning', async () => {
    const library = await load(buildVrma((json) => {
      json.animations[0].channels.push({ sampler: 0, target: { node: VRMA_NODES.spine, path: 'translation' } });
    }));
    expect(library.clips[0].channels.filter((c) => c.path === 'translation')).toHaveLength(1);
    expect(library.warnings).toEqual(['dance.vrma: 1 translation channels of humanoid bones other than the hips dropped (VRMC_vrm_animation animates only the hips\' translation)']);
  });

  it('keeps other ignored extensions in the parser\'s warning, without VRMC_vrm_animation', async () => {
    const library = await load(buildVrma((json) => { json.extensionsUsed.push('EXT_other'); }));
    expect(library.warnings).toEqual(['dance.vrma: uses extension "EXT_other", not required; ignored']);
  });

  it('refuses a .vrma without the extension, naming its JSON pointer', async () => {
    const error = await loadErrorOf(load(buildVrma((json) => { delete json.extensions; })));
    expect(error.code).toBe('UNDEFINED_PROPERTY');
    expect(error.where).toBe('/extensions/VRMC_vrm_animation');
    expect(error.file).toBe('dance.vrma');
  });

  it('refuses a humanoid bone naming a node the file does not have (UNRESOLVED_REFERENCE)', async () => {
    const error = await loadErrorOf(load(buildVrma((json) => { json.extensions.VRMC_vrm_animation.humanoid.humanBones.spine.node = 99; })));
    expect(error.code).toBe('UNRESOLVED_REFERENCE');
    expect(error.where).toBe('/extensions/VRMC_vrm_animation/humanoid/humanBones/spine/node');
    expect(error.message).toContain('node 99');
  });

  it('refuses a node index that is not an integer, an unknown specVersion and a non-object expression', async () => {
    const notInteger = await loadErrorOf(load(buildVrma((json) => { json.extensions.VRMC_vrm_animation.lookAt.node = 1.5; })));
    expect([notInteger.code, notInteger.where]).toEqual(['INVALID_INDEX', '/extensions/VRMC_vrm_animation/lookAt/node']);
    const version = await loadErrorOf(load(buildVrma((json) => { json.extensions.VRMC_vrm_animation.specVersion = '2.0'; })));
    expect([version.code, version.where]).toEqual(['VALUE_NOT_IN_LIST', '/extensions/VRMC_vrm_animation/specVersion']);
    const expression = await loadErrorOf(load(buildVrma((json) => { json.extensions.VRMC_vrm_animation.expressions.custom['a/b'] = 3; })));
    expect([expression.code, expression.where]).toEqual(['TYPE_MISMATCH', '/extensions/VRMC_vrm_animation/expressions/custom/a~1b']);
  });

  it('drops an unknown humanoid bone name with a warning, and reads a missing specVersion as 1.0', async () => {
    const library = await load(buildVrma((json) => {
      const ext = json.extensions.VRMC_vrm_animation;
      delete ext.specVersion;
      ext.humanoid.humanBones.tail = { node: VRMA_NODES.root };
    }));
    expect(library.humanoid?.bones).not.toHaveProperty('tail');
    expect(library.warnings).toEqual([
      'dance.vrma: VRMC_vrm_animation has no specVersion; read as 1.0',
      'dance.vrma: 1 humanoid bone names that VRM 1.0 does not have dropped: "tail"',
    ]);
  });
});
