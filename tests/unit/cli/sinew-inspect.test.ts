import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf, rawAccessor } from '../helpers/gltf-raw.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();

/**
 * The deepest node that is each of `nodes` or an ancestor of it, by depths: lift the deeper of two nodes until
 * both meet. Null when they lie in separate trees or `nodes` is empty.
 */
function commonAncestor(nodes: number[], parent: number[]): number | null {
  const depth = (n: number): number => (parent[n] < 0 ? 0 : 1 + depth(parent[n]));
  let common: number | null = nodes.length > 0 ? nodes[0] : null;
  for (const node of nodes.slice(1)) {
    if (common === null) break;
    let a: number = common, b = node;
    while (depth(a) > depth(b)) a = parent[a];
    while (depth(b) > depth(a)) b = parent[b];
    while (a !== b && a >= 0) [a, b] = [parent[a], parent[b]];
    common = a >= 0 ? a : null;
  }
  return common;
}

/** What `sinew inspect --json` must say about a glTF file, read from the file alone (warnings aside). */
function expectedGltf(path: string): object {
  const raw = readRawGltf(path);
  const json = raw.json;
  const nodes: any[] = json.nodes ?? [];
  const parent = nodes.map(() => -1);
  nodes.forEach((node, n) => (node.children ?? []).forEach((child: number) => (parent[child] = n)));
  const modeNames = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP', 'TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN'];
  return {
    file: basename(path),
    format: readFileSync(path).subarray(0, 4).toString('latin1') === 'glTF' ? 'glb' : 'gltf',
    upAxis: 'y',
    nodeCount: nodes.length,
    scene: json.scene ?? null,
    scenes: (json.scenes ?? []).map((scene: any) => ({ name: scene.name ?? '', nodes: scene.nodes ?? [] })),
    skins: (json.skins ?? []).map((skin: any) => {
      const root = commonAncestor(skin.joints, parent);
      return { name: skin.name ?? '', jointCount: skin.joints.length, root, rootName: root === null ? null : nodes[root].name ?? '', skeleton: skin.skeleton ?? null };
    }),
    meshes: (json.meshes ?? []).map((mesh: any) => ({
      name: mesh.name ?? '',
      primitives: mesh.primitives.map((primitive: any) => {
        const mode = primitive.mode ?? 4;
        const vertexCount = json.accessors[primitive.attributes.POSITION].count;
        const indexCount = primitive.indices === undefined ? null : json.accessors[primitive.indices].count;
        const n = indexCount ?? vertexCount;
        const sets = Object.keys(primitive.attributes).filter((semantic) => /^JOINTS_\d+$/.test(semantic)).length;
        // Influences the vertices use: per vertex, the non-zero weights over every WEIGHTS_n set; the most of any vertex.
        const used = new Array<number>(vertexCount).fill(0);
        for (let set = 0; set < sets; set++) {
          const weights = rawAccessor(raw, primitive.attributes[`WEIGHTS_${set}`]);
          weights.forEach((w, i) => { if (w !== 0) used[Math.floor(i / 4)]++; });
        }
        return {
          mode: modeNames[mode],
          vertexCount,
          indexCount,
          triangleCount: mode === 4 ? n / 3 : mode > 4 ? Math.max(0, n - 2) : 0,
          influencesPerVertex: Math.max(0, ...used),
          influenceSlots: 4 * sets,
          morphTargetCount: (primitive.targets ?? []).length,
          material: primitive.material === undefined ? null : json.materials[primitive.material].name ?? '',
        };
      }),
    })),
    // None of these files has MToon: every material is glTF's, in file order.
    materials: (json.materials ?? []).map((material: any) => ({ name: material.name ?? '', mtoon: false, outlineWidthMode: null })),
    clips: (json.animations ?? []).map((animation: any, a: number) => {
      let duration = 0;
      for (const channel of animation.channels) {
        // Sinew plays node translation, rotation, scale and (morph) weights; its duration is theirs.
        if (channel.target.node === undefined || !['translation', 'rotation', 'scale', 'weights'].includes(channel.target.path)) continue;
        const times = rawAccessor(raw, animation.samplers[channel.sampler].input);
        duration = Math.max(duration, times[times.length - 1]);
      }
      const interpolations = new Set<string>(animation.channels.map((channel: any) => animation.samplers[channel.sampler].interpolation ?? 'LINEAR'));
      return { name: animation.name ?? `animation ${a}`, duration, channelCount: animation.channels.length, interpolations: [...interpolations].sort() };
    }),
  };
}

/** What `sinew inspect --json` must say about an `.md5mesh` (and optional `.md5anim`), read from the text alone. */
function expectedMd5(meshPath: string, animPath?: string): object {
  const text = readFileSync(meshPath, 'utf8');
  const jointsBlock = /joints\s*\{([^}]*)\}/.exec(text)![1];
  const joints = [...jointsBlock.matchAll(/"([^"]*)"\s+(-?\d+)/g)].map((m) => ({ name: m[1], parent: Number(m[2]) }));
  const root = commonAncestor(joints.map((_, j) => j), joints.map((joint) => joint.parent));
  const meshes = [...text.matchAll(/mesh\s*\{([^}]*)\}/g)].map((m) => {
    const body = m[1];
    const weightCounts = [...body.matchAll(/vert\s+\d+\s+\([^)]*\)\s+\d+\s+(\d+)/g)].map((v) => Number(v[1]));
    const triangleCount = Number(/numtris\s+(\d+)/.exec(body)![1]);
    return {
      name: '',
      primitives: [{
        mode: 'TRIANGLES',
        vertexCount: Number(/numverts\s+(\d+)/.exec(body)![1]),
        indexCount: 3 * triangleCount,
        triangleCount,
        influencesPerVertex: Math.max(0, ...weightCounts),
        influenceSlots: Math.max(0, ...weightCounts),
        morphTargetCount: 0,
        material: /shader\s+"([^"]*)"/.exec(body)?.[1] ?? '',
      }],
    };
  });
  // One material per mesh, named by its shader (`mesh N` when empty).
  const materials = meshes.map((mesh, i) => {
    const shader = mesh.primitives[0].material;
    return { name: shader.length > 0 ? shader : `mesh ${i}`, mtoon: false, outlineWidthMode: null };
  });
  const clips = [];
  if (animPath) {
    const anim = readFileSync(animPath, 'utf8');
    const header = (key: string) => Number(new RegExp(`${key}\\s+(\\S+)`).exec(anim)![1]);
    clips.push({
      name: basename(animPath).replace(/\.md5anim$/i, ''),
      duration: (header('numFrames') - 1) / header('frameRate'),
      channelCount: 2 * header('numJoints'), // Sinew makes a translation and a rotation channel per joint
      interpolations: ['LINEAR'],
    });
  }
  return {
    file: basename(meshPath),
    format: 'md5mesh',
    upAxis: 'z',
    nodeCount: joints.length,
    scene: null,
    scenes: [],
    skins: [{ name: '', jointCount: joints.length, root, rootName: root === null ? null : joints[root].name, skeleton: null }],
    meshes,
    materials,
    clips,
  };
}

/** Runs `sinew inspect --json`, checks it succeeded quietly, and returns the report. */
async function inspectJson(...args: string[]): Promise<any> {
  const result = await sinew('inspect', ...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe.skipIf(!assets)('sinew inspect --json', () => {
  // Vitest collects a skipped suite's tests too: without the assets, list none.
  const gltfFolders = assets === null ? [] : [
    join(assets, 'gltf'),
    ...['Animation_Skin', 'Animation_SkinType', 'Animation_SamplerType', 'Animation_Node', 'Animation_NodeMisc']
      .map((folder) => join(assets, 'conformance', 'glTF-Asset-Generator', folder)),
  ];
  const gltfFiles = gltfFolders.flatMap((folder) =>
    readdirSync(folder).filter((name) => /\.(glb|gltf)$/.test(name)).map((name) => join(folder, name)));

  it('finds the shared models', () => {
    expect(gltfFiles.map((file) => basename(file))).toEqual(expect.arrayContaining(['Fox.glb', 'SimpleMorph.gltf', 'quad_skin.glb', 'Animation_Skin_00.gltf']));
  });

  for (const path of gltfFiles) {
    it(`${basename(path)}: equals the counts in the file's own JSON`, async () => {
      const report = await inspectJson(path);
      const { warnings, ...rest } = report;
      expect(rest).toEqual(expectedGltf(path));
      expect(Array.isArray(warnings)).toBe(true);
      for (const warning of warnings) expect(warning.startsWith(`${basename(path)}: `), warning).toBe(true);
    });
  }

  it('morph targets and every influence set are read, without a warning', async () => {
    const morph = await inspectJson(join(assets!, 'gltf', 'SimpleMorph.gltf'));
    expect(morph.meshes[0].primitives[0].morphTargetCount).toBe(2);
    expect(morph.warnings).toEqual([]);
    const quad = await inspectJson(join(assets!, 'gltf', 'quad_skin.glb'));
    // Three JOINTS/WEIGHTS sets: 12 slots; the vertices use 10, 5, 4 and 5 of them.
    expect(quad.meshes[0].primitives[0].influenceSlots).toBe(12);
    expect(quad.meshes[0].primitives[0].influencesPerVertex).toBe(10);
    expect(quad.warnings.filter((w: string) => /influence/.test(w))).toEqual([]);
  });

  // Without --anim, <name>.md5anim next to the mesh is loaded when present (Bob), else a warning (SimpleCube).
  for (const [name, anim, expectedWarnings] of [
    ['Bob.md5mesh', 'Bob.md5anim', []],
    ['SimpleCube.md5mesh', undefined, ['SimpleCube.md5mesh: no SimpleCube.md5anim next to it; showing the bind pose']],
  ] as const) {
    it(`${name}: equals the counts in the .md5mesh text`, async () => {
      const path = join(assets!, 'md5', name);
      const { warnings, ...rest } = await inspectJson(path);
      expect(rest).toEqual(expectedMd5(path, anim && join(assets!, 'md5', anim)));
      expect(warnings).toEqual(expectedWarnings);
    });
  }

  it('Bob.md5mesh --anim Bob.md5anim: adds the anim\'s clip', async () => {
    const mesh = join(assets!, 'md5', 'Bob.md5mesh'), anim = join(assets!, 'md5', 'Bob.md5anim');
    const { warnings: _, ...rest } = await inspectJson(mesh, '--anim', anim);
    expect(rest).toEqual(expectedMd5(mesh, anim));
  });
});

describe.skipIf(!assets)('sinew inspect (text)', () => {
  it('prints aligned tables of scenes, skins, primitives and clips', async () => {
    const result = await sinew('inspect', join(assets!, 'gltf', 'Fox.glb'));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const text = result.stdout;
    expect(text).toMatch(/^Fox\.glb: binary glTF, Y up, 26 nodes\n/);
    expect(text).toMatch(/^skins \(1\)\n#\s+name\s+joints\s+root\s+skeleton\n/m);
    expect(text).toMatch(/^ +0 +fox1 +0 +TRIANGLES +1728 +- +576 +4 +0 +fox_material$/m);
    expect(text).toMatch(/^1 +Walk +0\.708 +21 +LINEAR$/m);
    expect(text).toMatch(/^warnings \(0\)\n$/m);
    // Columns line up: names start under `name`, channel counts end under `channels`.
    const [heading, , ...rows] = text.split('\n\n').find((block) => block.startsWith('clips'))!.split('\n').slice(1);
    ['Survey', 'Walk', 'Run'].forEach((name, i) => expect(rows[i].indexOf(` ${name} `) + 1).toBe(heading.indexOf('name')));
    for (const row of rows) expect(row.indexOf(' 21 ') + 3).toBe(heading.indexOf('channels') + 'channels'.length);
  });

  it('lists an MD5 model\'s joints, meshes and warnings', async () => {
    const result = await sinew('inspect', join(assets!, 'md5', 'Bob.md5mesh'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Bob\.md5mesh: MD5 mesh, Z up, 33 joints\n/);
    expect(result.stdout).toMatch(/^meshes \(6, 6 primitives\)$/m);
  });
});
