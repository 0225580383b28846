// The examples gallery's sources (docs/examples/) and the models its build makes (build/docs/).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../../build/docs/build-examples.ts';
import { galleryAvatarFiles, twistCylinderGlb } from '../../../build/docs/gallery-models.ts';
import { AnimatedModel, loadClips, loadModel, retargetClipLibrary, skinVertices } from '../../../src/index.ts';

const EXAMPLES = 'docs/examples';
const pages = readdirSync(EXAMPLES).filter((f) => f.endsWith('.html'));

describe('docs/examples', () => {
  it('has at least 20 pages, each listed once in manifest.json with a title and a description', () => {
    const entries = readManifest();
    expect(entries.length).toBeGreaterThanOrEqual(20);
    expect(entries.map((e) => e.page).sort()).toEqual([...pages].sort());
  });

  it('names the page that the manifest misses, and the page it names that is not there', () => {
    const folder = mkdtempSync(join(tmpdir(), 'sinew-gallery-'));
    writeFileSync(join(folder, 'a.html'), '<body></body>');
    writeFileSync(join(folder, 'manifest.json'), '[]');
    expect(() => readManifest(folder)).toThrow(/a\.html has no entry/);
    writeFileSync(join(folder, 'manifest.json'), JSON.stringify([{ page: 'b.html', title: 'B', description: 'b' }]));
    expect(() => readManifest(folder)).toThrow(/names b\.html, which is not in/);
  });

  it.each(pages)('%s imports only the package entry points and uses no deprecated name', (page) => {
    const source = readFileSync(join(EXAMPLES, page), 'utf8');
    const imports = [...source.matchAll(/(?:from\s+|import\s*\(?\s*)'([^']+)'/g)].map((m) => m[1]);
    for (const specifier of imports) expect(['sinew-gl', 'sinew-gl/element', 'sinew-gl/testing']).toContain(specifier);
    // README's deprecated aliases: the clip / fade / yaw / pitch / distance attributes and the sinew-load,
    // sinew-error and sinew-progress events (load, error, progress are today's names).
    expect(source).not.toMatch(/\s(clip|fade|yaw|pitch|distance)="/);
    expect(source).not.toMatch(/sinew-(load|error|progress)\b/);
  });
});

describe('twistCylinderGlb', () => {
  it('is the twist cylinder: at 1 s LBS pinches the middle ring to 0.25·cos 85°, as README says', async () => {
    const asset = await loadModel({ name: 'twist-cylinder.glb', bytes: twistCylinderGlb() }, async () => null);
    expect(asset.skins[0].joints.length).toBe(2);
    expect(asset.clips.map((c) => [c.name, c.duration])).toEqual([['twist', 2]]);
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(0).at(1));
    const primitive = asset.meshes[0].primitives[0];
    const out = new Float32Array(3 * primitive.vertexCount);
    skinVertices(out, null, primitive, model.skinMatrices[0], model.skinningContexts[0]);
    // Ring 12 of 25 lies at y = 1, where both joints weigh 0.5.
    const v = 12 * 24;
    expect(Math.hypot(out[3 * v], out[3 * v + 2])).toBeCloseTo(0.25 * Math.cos((85 * Math.PI) / 180), 4);
  });
});

describe('galleryAvatarFiles', () => {
  it('gives the VRM pages what they promise: an avatar with bone look-at, one with expression look-at, one in MToon with outlines, and a walk matching all 55 humanoid bones', async () => {
    const files = await galleryAvatarFiles();
    expect(files.map((f) => f.name)).toEqual(['avatar.vrm', 'avatar-look-expression.vrm', 'avatar-toon.vrm', 'walk.vrma']);
    const [bone, expression, toon] = await Promise.all(files.slice(0, 3).map((f) => loadModel({ name: f.name, bytes: f.bytes }, async () => null)));
    // vrm-mtoon.html: MToon materials, outlines in both width modes, and angry's MToon colour binds.
    expect(bone.materials.some((m) => m.mtoon)).toBe(false);
    const modes = new Set(toon.materials.map((m) => m.mtoon?.outlineWidthMode ?? 'pbr'));
    expect([...modes]).toEqual(expect.arrayContaining(['worldCoordinates', 'screenCoordinates']));
    const angry = toon.avatar!.expressions.find((e) => e.name === 'angry')!;
    expect(angry.materialColorBinds.map((b) => b.type)).toEqual(expect.arrayContaining(['shadeColor', 'rimColor']));
    expect(bone.avatar?.specVersion).toBe('1.0');
    expect(bone.avatar?.lookAt?.type).toBe('bone');
    expect(expression.avatar?.lookAt?.type).toBe('expression');
    // vrm-expressions.html's sliders (the gallery spec counts them): 17 presets, then the custom cheekPuff.
    const names = bone.avatar!.expressions.map((e) => e.name);
    expect([names.length, names[0], names.at(-1)]).toEqual([18, 'happy', 'cheekPuff']);
    // vrm-avatar-vrma.html's licence line.
    expect(bone.avatar!.meta).toMatchObject({ name: 'Sinew generated avatar', authors: ['Sinew'], licenseUrl: 'https://vrm.dev/licenses/1.0/', otherLicenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/' });
    const library = await loadClips({ name: 'walk.vrma', bytes: files[3].bytes }, async () => null);
    const { clips, joints } = retargetClipLibrary(library, bone);
    expect(clips.map((c) => c.name)).toEqual(['walk']);
    expect(clips[0].expressionTracks?.length).toBe(3);
    expect(joints.matched.length).toBe(55);
  });
});
