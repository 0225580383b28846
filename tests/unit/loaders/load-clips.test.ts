import { describe, expect, it } from 'vitest';
import { GltfBuilder, skinnedQuad } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { loadClips, type ClipLibrary } from '../../../src/loaders/load-clips.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';

const none = async () => null;

/**
 * An animation-only GLB: nodes `names[0]` (root, at `rootY` up) and `names[1]` (its child, 1 up), no mesh, no
 * skin; one clip "wave" rotating the child by 90° about Z over 1 s, and, with `moveRoot`, moving the root.
 */
function animationOnly(names: [string, string], options: { rootY?: number; moveRoot?: boolean } = {}): Uint8Array {
  const b = new GltfBuilder();
  const times = b.accessor(new Float32Array([0, 1]), 'SCALAR', { min: [0], max: [1] });
  const rotations = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2]), 'VEC4');
  const samplers: object[] = [{ input: times, output: rotations }];
  const channels: object[] = [{ sampler: 0, target: { node: 1, path: 'rotation' } }];
  const rootY = options.rootY ?? 0;
  if (options.moveRoot) {
    samplers.push({ input: times, output: b.accessor(new Float32Array([0, rootY, 0, 1, rootY, 0]), 'VEC3') });
    channels.push({ sampler: 1, target: { node: 0, path: 'translation' } });
  }
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: names[0], translation: [0, rootY, 0], children: [1] }, { name: names[1], translation: [0, 1, 0] }],
    animations: [{ name: 'wave', samplers, channels }],
  });
  return b.glb();
}

async function quad() {
  return loadModel({ name: 'quad.glb', bytes: skinnedQuad().glb() }, none);
}

describe('loadClips', () => {
  it('reads an animation-only GLB (no mesh, no skin), which loadModel loads too', async () => {
    const bytes = animationOnly(['mixamorig:joint0', 'mixamorig:joint1']);
    const asset = await loadModel({ name: 'Wave.glb', bytes }, none);
    expect(asset.meshes).toHaveLength(0);
    const library = await loadClips({ name: 'Wave.glb', bytes }, none);
    expect(library.name).toBe('Wave.glb');
    expect(library.skeleton.names).toEqual(['mixamorig:joint0', 'mixamorig:joint1']);
    expect(library.clips.map((c) => c.name)).toEqual(['wave']);
    expect(library.warnings).toEqual([]);
  });

  it('a glTF without animations loads as an empty library, with one warning', async () => {
    const b = skinnedQuad();
    delete b.json.animations;
    const library = await loadClips({ name: 'still.glb', bytes: b.glb() }, none);
    expect(library.clips).toEqual([]);
    expect(library.warnings).toEqual(['still.glb: has no clips']);
  });

  it('refuses a file that is not .glb, .gltf, .md5anim or .vrma (UNSUPPORTED_FILE_TYPE)', async () => {
    const error = await loadErrorOf(loadClips({ name: 'walk.fbx', bytes: new Uint8Array(4) }, none));
    expect(error.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(error.message).toBe('walk.fbx: unsupported file type ".fbx" for clips (expected .glb, .gltf, .md5anim or .vrma)');
  });

  it('reports a broken .md5anim as the MD5 parser does, naming the file', async () => {
    const error = await loadErrorOf(loadClips({ name: 'Bad.md5anim', bytes: new TextEncoder().encode('MD5Version 11') }, none));
    expect(error.file).toBe('Bad.md5anim');
    expect(error.code).toBe('MD5_UNSUPPORTED_VERSION');
  });
});

describe('retargetClipLibrary', () => {
  it('plays a namespaced library on the quad: the vertices equal the quad\'s own clip', async () => {
    const target = await quad();
    const library = await loadClips({ name: 'Wave.glb', bytes: animationOnly(['mixamorig:joint0', 'mixamorig:joint1']) }, none);
    const { clips, match, warnings } = retargetClipLibrary(library, target);
    expect(warnings).toEqual([]);
    expect(match.matched).toEqual(['joint0', 'joint1']);
    const own = evaluateModel(target, 0, 0.5).primitives[0].positions;
    const played = evaluateModel({ ...target, clips }, 0, 0.5).primitives[0].positions;
    let worst = 0;
    own.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - played[i]))));
    expect(worst).toBeLessThan(1e-6);
  });

  it('no joint in common: RETARGET_NO_MATCH naming both files', async () => {
    const library = await loadClips({ name: 'Wave.glb', bytes: animationOnly(['foo', 'bar']) }, none);
    const target = await quad();
    expect(() => retargetClipLibrary(library, target)).toThrow(expect.objectContaining({ code: 'RETARGET_NO_MATCH', file: 'Wave.glb' }));
    expect(() => retargetClipLibrary(library, target)).toThrow(/^Wave\.glb: no joint of quad\.glb matches a joint of Wave\.glb by name/);
    // A map makes the match.
    expect(retargetClipLibrary(library, target, { map: { joint0: 'foo', joint1: 'bar' } }).match.matched).toEqual(['joint0', 'joint1']);
  });

  it('a partial match: one warning naming the unmatched skin joints', async () => {
    const library = await loadClips({ name: 'Wave.glb', bytes: animationOnly(['hips', 'joint1']) }, none);
    const { warnings, match } = retargetClipLibrary(library, await quad());
    expect(match.unmatched).toEqual(['quad', 'joint0']);
    expect(warnings).toEqual(['quad.glb: 1 joint matches no joint of Wave.glb and keeps its rest pose: joint0']);
  });

  it('hips at rest height 0: RETARGET_DEGENERATE_REST_POSE, never NaN', async () => {
    const library: ClipLibrary = await loadClips({ name: 'Wave.glb', bytes: animationOnly(['joint0', 'joint1'], { moveRoot: true }) }, none);
    expect(() => retargetClipLibrary(library, quadAt0)).toThrow(expect.objectContaining({ code: 'RETARGET_DEGENERATE_REST_POSE', file: 'Wave.glb' }));
    expect(() => retargetClipLibrary(library, quadAt0)).toThrow(/cannot play on quad\.glb: hips rest heights/);
    // Lifted above the ground on both sides, it plays.
    const lifted = await loadClips({ name: 'Wave.glb', bytes: animationOnly(['joint0', 'joint1'], { rootY: 2, moveRoot: true }) }, none);
    const target = { ...quadAt0, restPose: { ...quadAt0.restPose, translations: quadAt0.restPose.translations.slice() } };
    target.restPose.translations[3 * quadAt0.skeleton.names.indexOf('joint0') + 1] = 1;
    const { clips } = retargetClipLibrary(lifted, target);
    for (const channel of clips[0].channels) expect(channel.values.every(Number.isFinite)).toBe(true);
  });
});

const quadAt0 = await quad();
