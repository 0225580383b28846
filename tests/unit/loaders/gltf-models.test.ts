import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { mat4, quat, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { rawAccessor, readRawGltf, type RawGltf } from '../helpers/gltf-raw.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// Every real model: the loader's ModelAsset against the file's own JSON and bytes, read independently.
const assets = sharedAssets();
const generator = assets && join(assets, 'conformance/glTF-Asset-Generator');
const files: string[] = !assets ? [] : [
  ...readdirSync(join(assets, 'gltf')).filter((f) => /\.(glb|gltf)$/.test(f)).map((f) => join(assets, 'gltf', f)),
  ...['Animation_Skin', 'Animation_SkinType', 'Animation_Node', 'Animation_NodeMisc', 'Animation_SamplerType'].flatMap((folder) =>
    readdirSync(join(generator!, folder)).filter((f) => f.endsWith('.gltf')).map((f) => join(generator!, folder, f))),
];

describe.skipIf(!assets)('parseGltf on real models', () => {
  it('finds the models', () => {
    expect(files.length).toBeGreaterThanOrEqual(8 + 12 + 4);
  });

  for (const path of files) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    describe(name, () => {
      let asset: ModelAsset;
      let raw: RawGltf;
      it('loads', async () => {
        raw = readRawGltf(path);
        asset = await loadModelFromPath(path);
        expect(asset.name).toBe(name);
        expect(asset.upAxis).toBe('y');
        for (const warning of asset.warnings) expect(warning.startsWith(`${name}: `)).toBe(true);
      });

      it('holds every node, parents before children, with the file\'s hierarchy', () => {
        const nodes = raw.json.nodes as { name?: string; children?: number[] }[];
        const { skeleton } = asset;
        expect(skeleton.jointCount).toBe(nodes.length);
        expect([...skeleton.sourceIndices].sort((a, b) => a - b)).toEqual(nodes.map((_, i) => i));
        const parentOfNode = new Map<number, number>();
        nodes.forEach((node, i) => node.children?.forEach((child) => parentOfNode.set(child, i)));
        for (let j = 0; j < skeleton.jointCount; j++) {
          const node = skeleton.sourceIndices[j];
          const parent = skeleton.parents[j];
          expect(parent).toBeLessThan(j);
          expect(parent === -1 ? -1 : skeleton.sourceIndices[parent]).toBe(parentOfNode.get(node) ?? -1);
          expect(skeleton.names[j]).toBe(nodes[node].name ?? '');
        }
      });

      it('rest pose reproduces each node\'s TRS or matrix', () => {
        const { skeleton, restPose } = asset;
        for (let j = 0; j < skeleton.jointCount; j++) {
          const node = raw.json.nodes[skeleton.sourceIndices[j]];
          const t = restPose.translations.subarray(3 * j, 3 * j + 3);
          const r = restPose.rotations.subarray(4 * j, 4 * j + 4);
          const s = restPose.scales.subarray(3 * j, 3 * j + 3);
          if (node.matrix) {
            const m = mat4.fromRotationTranslationScale(mat4.create(), r as unknown as quat, t as unknown as vec3, s as unknown as vec3);
            const scale = Math.max(1, ...node.matrix.map(Math.abs));
            for (let k = 0; k < 16; k++) expect(Math.abs(m[k] - node.matrix[k])).toBeLessThan(1e-5 * scale);
          } else {
            expect([...t]).toEqual(toF32(node.translation ?? [0, 0, 0]));
            expect([...r]).toEqual(toF32(node.rotation ?? [0, 0, 0, 1]));
            expect([...s]).toEqual(toF32(node.scale ?? [1, 1, 1]));
          }
        }
      });

      it('has one primitive per triangle primitive with the file\'s vertex and index counts', () => {
        const meshes = raw.json.meshes as { primitives: { attributes: Record<string, number>; indices?: number; mode?: number }[] }[];
        expect(asset.meshes.length).toBe(meshes.length);
        meshes.forEach((mesh, m) => {
          const triangles = mesh.primitives.filter((p) => (p.mode ?? 4) === 4);
          expect(asset.meshes[m].primitives.length).toBe(triangles.length);
          triangles.forEach((p, k) => {
            const primitive = asset.meshes[m].primitives[k];
            const vertexCount = raw.json.accessors[p.attributes.POSITION].count;
            expect(primitive.vertexCount).toBe(vertexCount);
            expect(primitive.positions).toEqual(new Float32Array(rawAccessor(raw, p.attributes.POSITION)));
            expect(primitive.normals.length).toBe(3 * vertexCount);
            expect(primitive.indices.length).toBe(p.indices === undefined ? vertexCount : raw.json.accessors[p.indices].count);
            expect(primitive.indices).toBeInstanceOf(vertexCount <= 65536 ? Uint16Array : Uint32Array);
            if (p.indices !== undefined) expect([...primitive.indices]).toEqual(rawAccessor(raw, p.indices));
            expect(primitive.uvs === null).toBe(p.attributes.TEXCOORD_0 === undefined);
            expect(primitive.joints === null).toBe(p.attributes.JOINTS_0 === undefined);
            // Every JOINTS_n/WEIGHTS_n set is kept: 4 slots per set.
            let sets = 0;
            while (p.attributes[`WEIGHTS_${sets}`] !== undefined) sets++;
            expect(primitive.weights?.length ?? 0).toBe(4 * sets * vertexCount);
            expect(primitive.influenceCount ?? 4).toBe(Math.max(4, 4 * sets));
            expect(primitive.material).toBeLessThan(asset.materials.length);
            for (let i = 0; i < primitive.normals.length; i += 3) {
              expect(Math.hypot(primitive.normals[i], primitive.normals[i + 1], primitive.normals[i + 2])).toBeCloseTo(1, 3);
            }
          });
        });
      });

      it('skins name the file\'s joints and inverse bind matrices', () => {
        const skins = (raw.json.skins ?? []) as { joints: number[]; inverseBindMatrices?: number }[];
        expect(asset.skins.length).toBe(skins.length);
        skins.forEach((skin, s) => {
          const loaded = asset.skins[s];
          expect(loaded.joints.length).toBe(skin.joints.length);
          expect([...loaded.joints].map((j) => asset.skeleton.sourceIndices[j])).toEqual(skin.joints);
          const expected = skin.inverseBindMatrices === undefined
            ? skin.joints.flatMap(() => [...mat4.create()])
            : rawAccessor(raw, skin.inverseBindMatrices).slice(0, 16 * skin.joints.length);
          expect(loaded.inverseBindMatrices).toEqual(new Float32Array(expected));
        });
      });

      it('has one mesh instance per mesh node, in node order, with its skin', () => {
        const nodes = raw.json.nodes as { mesh?: number; skin?: number }[];
        const expected = nodes.flatMap((node, i) => node.mesh === undefined ? [] : [{ node: i, mesh: node.mesh, skin: node.skin ?? -1 }]);
        expect(asset.meshInstances.map((instance) => ({
          node: asset.skeleton.sourceIndices[instance.node], mesh: instance.mesh, skin: instance.skin,
        }))).toEqual(expected);
        expect(asset.meshInstances.map((instance) => instance.sourceNode)).toEqual(expected.map((e) => e.node));
      });

      it('has one clip per animation with the file\'s channels, keys and duration', () => {
        const animations = (raw.json.animations ?? []) as {
          name?: string;
          channels: { sampler: number; target: { node?: number; path: string } }[];
          samplers: { input: number; output: number; interpolation?: string }[];
        }[];
        expect(asset.clips.length).toBe(animations.length);
        animations.forEach((animation, a) => {
          const clip = asset.clips[a];
          expect(clip.name).toBe(animation.name ?? `animation ${a}`);
          const played = animation.channels.filter((c) => c.target.node !== undefined && ['translation', 'rotation', 'scale', 'weights'].includes(c.target.path));
          expect(clip.channels.length).toBe(played.length);
          let duration = 0;
          played.forEach((channel, c) => {
            const loaded = clip.channels[c];
            const sampler = animation.samplers[channel.sampler];
            const input = raw.json.accessors[sampler.input];
            expect(asset.skeleton.sourceIndices[loaded.joint]).toBe(channel.target.node);
            expect(loaded.path).toBe(channel.target.path);
            expect(loaded.interpolation).toBe(sampler.interpolation ?? 'LINEAR');
            expect(loaded.times).toEqual(new Float32Array(rawAccessor(raw, sampler.input)));
            const targetCount = raw.json.meshes[raw.json.nodes[channel.target.node!].mesh]?.primitives[0].targets?.length;
            const width = channel.target.path === 'rotation' ? 4 : channel.target.path === 'weights' ? targetCount : 3;
            const perKey = loaded.interpolation === 'CUBICSPLINE' ? 3 : 1;
            expect(loaded.values.length).toBe(perKey * width * input.count);
            duration = Math.max(duration, Math.fround(input.max[0]));
          });
          expect(clip.duration).toBe(duration);
        });
      });

      it('has the file\'s materials (plus a default one when a primitive has none) and images', () => {
        const materials = (raw.json.materials ?? []) as { pbrMetallicRoughness?: { baseColorFactor?: number[]; baseColorTexture?: { index: number } }; doubleSided?: boolean }[];
        const needsDefault = (raw.json.meshes as { primitives: { material?: number }[] }[]).some((m) => m.primitives.some((p) => p.material === undefined));
        expect(asset.materials.length).toBe(materials.length + (needsDefault ? 1 : 0));
        materials.forEach((material, m) => {
          const pbr = material.pbrMetallicRoughness ?? {};
          expect(asset.materials[m].baseColorFactor).toEqual(pbr.baseColorFactor ?? [1, 1, 1, 1]);
          expect(asset.materials[m].doubleSided).toBe(material.doubleSided ?? false);
          const texture = pbr.baseColorTexture === undefined ? -1 : raw.json.textures[pbr.baseColorTexture.index].source;
          expect(asset.materials[m].baseColorTexture).toBe(texture);
        });
        expect(asset.images.length).toBe(raw.json.images?.length ?? 0);
        for (const image of asset.images) {
          expect(image.mimeType).toMatch(/^image\/(png|jpeg)$/);
          const signature = image.mimeType === 'image/png' ? [0x89, 0x50, 0x4e, 0x47] : [0xff, 0xd8];
          expect([...image.data.subarray(0, signature.length)]).toEqual(signature);
        }
      });
    });
  }
});

function toF32(values: number[]): number[] {
  return values.map((v) => Math.fround(v));
}
