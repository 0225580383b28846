import { basename, extname } from 'node:path';
import type { GLTF } from '@gltf-transform/core';
import type { MaterialAsset, ModelAsset } from '../asset/model-asset.ts';
import type { OutlineWidthMode } from '../asset/mtoon-material-asset.ts';
import { isGlb, splitGltfContainer } from '../loaders/gltf/gltf-container.ts';
import { parseMd5Mesh, type Md5Mesh } from '../loaders/md5/parse-md5-mesh.ts';
import { decodeMd5Text } from '../loaders/md5/decode-md5-text.ts';
import { DEFAULT_MAX_FILE_BYTES, readGuardedFile } from '../node/load-model-from-path.ts';
import { requireModelFormat } from '../loaders/load-model.ts';
import { loadCommandModelAndClips } from './load-command-model.ts';
import type { AnimationClip } from '../asset/animation-clip.ts';
import { influenceCountOf, type PrimitiveAsset } from '../asset/model-asset.ts';
import { inspectAvatar, inspectSecondaryMotion, type AvatarInspection, type SecondaryMotionInspection } from './inspect-avatar.ts';

/**
 * What `sinew inspect --json` prints (docs/guide/cli.md): a model's structure as its file states
 * it, after Sinew has loaded it (so the file is known to be valid). A contract scripts rely on: fields may be
 * added, existing ones keep their names and meaning. Indices are positions in the file's arrays (glTF
 * `nodes`, `scenes`, …; MD5: the file's joint list).
 */
export interface ModelInspection {
  /** The model's file name, without folders. */
  file: string;
  /** `glb` (binary glTF), `gltf` (JSON glTF) or `md5mesh`, by the file's contents. */
  format: 'glb' | 'gltf' | 'md5mesh';
  /** The data's up axis: `y` for glTF, `z` for MD5 (Sinew keeps the file's axes). */
  upAxis: 'y' | 'z';
  /** glTF: `nodes.length`; MD5: the number of joints. */
  nodeCount: number;
  /** The glTF default scene (`scene`), or null when the file names none (always for MD5). */
  scene: number | null;
  /** The glTF scenes in file order; empty for MD5. */
  scenes: SceneInspection[];
  skins: SkinInspection[];
  meshes: MeshInspection[];
  clips: ClipInspection[];
  /**
   * The materials as Sinew shades them, in file order (glTF `materials`; MD5: one per mesh):
   * which are MToon (VRMC_materials_mtoon, or VRM 0.x MToon converted at load) and their outline.
   */
  materials: MaterialInspection[];
  /** Sinew's loader warnings, each starting with the file name (what it skips, ignores or reduces); with `--anim` clips to retarget, theirs and the retargeting's after. */
  warnings: string[];
  /** Only with `--anim` clips played by retargeting (a glTF's, or an `.md5anim` on a glTF): how they match. */
  retarget?: RetargetInspection;
  /** Only for a VRM avatar (`.vrm`, VRM 1.0 or 0.x): its meta, humanoid, expressions, look-at and first person. */
  avatar?: AvatarInspection;
  /** Only for a glTF with spring bones or node constraints (a VRM or not): a summary of them. */
  secondaryMotion?: SecondaryMotionInspection;
}

/** `sinew inspect MODEL --anim CLIPS`: the clips' file, joint by joint (docs/guide/clips-from-files.md). */
export interface RetargetInspection {
  /** The clips' file name, without folders. */
  file: string;
  /**
   * Names of the model's joints a joint of the file drives, in the model's parent-first order: its skins'
   * joints (every node for a model without skins; MD5: every joint), never a non-joint node such as an
   * `Armature` or a mesh node; `#i` for an unnamed one.
   */
  matched: string[];
  /**
   * Names of the model's joints nothing drives (they keep their rest pose), same order and rule: as many as the
   * unmatched-joints warning of `sinew eval --anim` counts.
   */
  unmatched: string[];
  /** The file's clips as the model plays them (the names `sinew eval --anim … --clip` takes). */
  clips: ClipInspection[];
}

/** One glTF scene. */
export interface SceneInspection {
  /** The scene's name, `""` when it has none. */
  name: string;
  /** The scene's root node indices (`scenes[i].nodes`), in file order. */
  nodes: number[];
}

/** One skin (glTF `skins[i]`; MD5: one skin over every joint). */
export interface SkinInspection {
  /** The skin's name, `""` when it has none (always for MD5). */
  name: string;
  /** Number of joints (`joints.length`; MD5: `numJoints`). */
  jointCount: number;
  /**
   * The joints' common root: the deepest node that is every joint or an ancestor of it (glTF 2.0 §3.7.3),
   * usually the root joint; null when the joints lie in separate trees or there are none.
   */
  root: number | null;
  /** The root node's name (`""` when it has none), or null when `root` is null. */
  rootName: string | null;
  /** The skin's `skeleton` node as the file gives it, or null when absent (always for MD5). */
  skeleton: number | null;
}

/** One mesh (glTF `meshes[i]`; MD5: one `mesh` block). */
export interface MeshInspection {
  /** The mesh's name, `""` when it has none (always for MD5, whose meshes have only a shader). */
  name: string;
  /** Every primitive of the file's mesh, in file order, including ones Sinew skips (points and lines). */
  primitives: PrimitiveInspection[];
}

/** One mesh primitive (MD5: the mesh block itself). */
export interface PrimitiveInspection {
  /** The glTF primitive mode: `TRIANGLES`, `TRIANGLE_STRIP`, `TRIANGLE_FAN`, `POINTS`, `LINES`, `LINE_LOOP` or `LINE_STRIP`. */
  mode: string;
  /** Vertices: the POSITION accessor's `count`, 0 when there is none (a point or line primitive Sinew skips); MD5: `numverts`. */
  vertexCount: number;
  /** Indices: the `indices` accessor's `count`, or null for a non-indexed primitive (MD5: 3 · `numtris`). */
  indexCount: number | null;
  /**
   * Triangles drawn: n / 3 for TRIANGLES, max(0, n − 2) for strips and fans, where n is `indexCount` or, when
   * null, `vertexCount`; 0 for points and lines.
   */
  triangleCount: number;
  /**
   * Influences the vertices use: the most non-zero weights of any vertex (0 for a rigid primitive, or one Sinew
   * skips); MD5: the most weights any vertex has. Sinew skins every one of them (none is dropped).
   */
  influencesPerVertex: number;
  /**
   * Influence slots the file stores per vertex: 4 · the number of JOINTS_n / WEIGHTS_n sets (0 for a rigid
   * primitive); MD5: the same as `influencesPerVertex`. Exporters pad to whole sets, so this may exceed it.
   */
  influenceSlots: number;
  /** Morph targets (`targets.length`; 0 for MD5), applied before skinning at the pose's weights. */
  morphTargetCount: number;
  /** The material's name (`""` when it has none; MD5: the `shader` string), or null when there is no material. */
  material: string | null;
}

/** One material of {@link ModelInspection.materials}. */
export interface MaterialInspection {
  /** The material's name (`""` when it has none; MD5: the mesh's shader, `mesh N` when empty). */
  name: string;
  /** True when Sinew shades it as MToon (`MaterialAsset.mtoon`); false for glTF metallic-roughness or unlit. */
  mtoon: boolean;
  /** The MToon outline: `none`, `worldCoordinates` or `screenCoordinates`; null when the material is not MToon. */
  outlineWidthMode: OutlineWidthMode | null;
}

/** The {@link MaterialInspection}s of loaded materials. */
function inspectMaterials(materials: readonly MaterialAsset[]): MaterialInspection[] {
  return materials.map((m) => ({ name: m.name, mtoon: m.mtoon !== undefined, outlineWidthMode: m.mtoon?.outlineWidthMode ?? null }));
}

/** One animation clip, as `sinew eval --clip` names it. */
export interface ClipInspection {
  /** Sinew's clip name: the animation's name, `animation N` when it has none; MD5: the anim file's base name. */
  name: string;
  /** Seconds: the last key time of the channels Sinew plays, which `sinew eval --time` clamps to (0 when none). */
  duration: number;
  /** glTF: the file's `channels.length`, including channels Sinew skips (no target node); MD5: 2 per joint. */
  channelCount: number;
  /** The interpolations the clip's channels use, each once, sorted (`CUBICSPLINE`, `LINEAR`, `STEP`). */
  interpolations: string[];
}

/** glTF primitive mode names by number (glTF 2.0 §3.7.2.1). */
const MODE_NAMES = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP', 'TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN'];

/**
 * Node only: loads `path` with loadCommandModelAndClips (which validates it and yields clips and warnings), then
 * reads the counts the ModelAsset does not keep (influence sets, morph targets, scenes, non-triangle
 * primitives, MD5 weights per vertex) from the file itself with the loaders' own parsers, and reports both.
 * @param options.anim for an `.md5mesh`, an `.md5anim` whose clip to include (default: `<name>.md5anim` next to
 *   the mesh, if present); a `.glb` / `.gltf` (or an `.md5anim` for a glTF) whose clips to retarget: the
 *   report gains `retarget` (the model's own clips stay in `clips`)
 * @throws LoadError naming the file, as loadCommandModelAndClips does
 */
export async function inspectModelFile(path: string, options: { anim?: string; maxMemoryBytes?: number } = {}): Promise<ModelInspection> {
  requireModelFormat(basename(path)); // an unsupported file is said so before any read
  // Read once, under the loader's rules (size limit, regular files only): the structure below describes the
  // very bytes that were loaded, not a second read the file may have changed under.
  const bytes = await readGuardedFile(path, options.maxMemoryBytes ?? DEFAULT_MAX_FILE_BYTES);
  const { asset, retarget } = await loadCommandModelAndClips(path, { ...options, modelBytes: bytes });
  const fileName = basename(path);
  const report = extname(path).toLowerCase() === '.md5mesh'
    ? inspectMd5(asset, parseMd5Mesh(fileName, decodeMd5Text(fileName, bytes)))
    : inspectGltf(asset, splitGltfContainer(fileName, bytes).json, isGlb(bytes) ? 'glb' : 'gltf');
  if (retarget === null) return report;
  return {
    ...report,
    warnings: [...report.warnings, ...retarget.warnings],
    retarget: {
      file: retarget.file,
      matched: [...retarget.joints.matched],
      unmatched: [...retarget.joints.unmatched],
      clips: retarget.clips.map(inspectClip),
    },
  };
}

/** A clip's row as Sinew holds it (MD5 and retargeted clips; glTF's own count the file's channels). */
function inspectClip(clip: AnimationClip): ClipInspection {
  return {
    name: clip.name,
    duration: clip.duration,
    channelCount: clip.channels.length,
    interpolations: uniqueSorted(clip.channels.map((channel) => channel.interpolation)),
  };
}

/**
 * The report for a loaded glTF model: structure from the file's JSON `json` (already validated by the loader
 * that built `asset`), clip names and durations and the warnings from `asset`.
 */
export function inspectGltf(asset: ModelAsset, json: GLTF.IGLTF, format: 'glb' | 'gltf'): ModelInspection {
  const nodes = json.nodes ?? [];
  const parentOf = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, n) => {
    for (const child of node.children ?? []) parentOf[child] = n;
  });
  const accessors = json.accessors ?? [];
  const materials = json.materials ?? [];

  const skins = (json.skins ?? []).map((skin): SkinInspection => {
    const root = commonRoot(skin.joints, parentOf);
    return {
      name: skin.name ?? '',
      jointCount: skin.joints.length,
      root,
      rootName: root === null ? null : nodes[root].name ?? '',
      skeleton: skin.skeleton ?? null,
    };
  });

  const meshes = (json.meshes ?? []).map((mesh, m): MeshInspection => ({
    name: mesh.name ?? '',
    primitives: mesh.primitives.map((primitive, p): PrimitiveInspection => {
      const mode = primitive.mode ?? 4;
      const position = primitive.attributes.POSITION;
      // The loader skips a point or line primitive without POSITION (with a warning); it still gets its row.
      const vertexCount = position === undefined ? 0 : accessors[position].count;
      const indexCount = primitive.indices === undefined ? null : accessors[primitive.indices].count;
      let sets = 0;
      while (primitive.attributes[`JOINTS_${sets}`] !== undefined) sets++;
      return {
        mode: MODE_NAMES[mode],
        vertexCount,
        indexCount,
        triangleCount: triangleCount(mode, indexCount ?? vertexCount),
        influencesPerVertex: usedInfluences(asset.meshes[m]?.primitives.find((loaded, i) => (loaded.sourceIndex ?? i) === p)),
        influenceSlots: 4 * sets,
        morphTargetCount: primitive.targets?.length ?? 0,
        material: primitive.material === undefined ? null : materials[primitive.material].name ?? '',
      };
    }),
  }));

  // The loader makes exactly one clip per animation, in file order.
  const clips = (json.animations ?? []).map((animation, a): ClipInspection => {
    const used = animation.channels.map((channel) => animation.samplers[channel.sampler].interpolation ?? 'LINEAR');
    const { name, duration } = asset.clips[a];
    return { name, duration, channelCount: animation.channels.length, interpolations: uniqueSorted(used) };
  });

  return {
    file: asset.name,
    format,
    upAxis: asset.upAxis,
    nodeCount: nodes.length,
    scene: json.scene ?? null,
    scenes: (json.scenes ?? []).map((scene) => ({ name: scene.name ?? '', nodes: [...(scene.nodes ?? [])] })),
    skins,
    meshes,
    clips,
    // The loader appends glTF's default material after the file's when a primitive has none; it is not the file's.
    materials: inspectMaterials(asset.materials.slice(0, materials.length)),
    warnings: [...asset.warnings],
    ...(asset.avatar ? { avatar: inspectAvatar(asset.avatar, asset.skeleton, json) } : {}),
    ...(asset.secondaryMotion ? { secondaryMotion: inspectSecondaryMotion(asset.secondaryMotion, asset.skeleton) } : {}),
  };
}

/** The most influences with a weight > 0 of any vertex of `primitive`; 0 when it is rigid or absent (skipped). */
function usedInfluences(primitive: PrimitiveAsset | undefined): number {
  if (!primitive?.weights) return 0;
  const c = influenceCountOf(primitive), weights = primitive.weights;
  let most = 0;
  for (let v = 0; v < primitive.vertexCount && most < c; v++) {
    let used = 0;
    for (let k = 0; k < c; k++) if (weights[c * v + k] > 0) used++;
    if (used > most) most = used;
  }
  return most;
}

/**
 * The report for a loaded MD5 model: joints and meshes from the parsed `.md5mesh` (`mesh`), the clip (from
 * an `.md5anim`, if one was loaded) and the warnings from `asset`.
 */
export function inspectMd5(asset: ModelAsset, mesh: Md5Mesh): ModelInspection {
  const parentOf = Int32Array.from(mesh.joints, (joint) => joint.parent);
  const root = commonRoot(mesh.joints.map((_, j) => j), parentOf);
  return {
    file: asset.name,
    format: 'md5mesh',
    upAxis: asset.upAxis,
    nodeCount: mesh.joints.length,
    scene: null,
    scenes: [],
    skins: [{ name: '', jointCount: mesh.joints.length, root, rootName: root === null ? null : mesh.joints[root].name, skeleton: null }],
    meshes: mesh.meshes.map((part): MeshInspection => {
      let most = 0;
      for (let v = 0; v < part.vertexCount; v++) most = Math.max(most, part.weightCounts[v]);
      return {
        name: '',
        primitives: [{
          mode: 'TRIANGLES',
          vertexCount: part.vertexCount,
          indexCount: 3 * part.triangleCount,
          triangleCount: part.triangleCount,
          influencesPerVertex: most,
          influenceSlots: most,
          morphTargetCount: 0,
          material: part.shader,
        }],
      };
    }),
    clips: asset.clips.map(inspectClip),
    materials: inspectMaterials(asset.materials),
    warnings: [...asset.warnings],
  };
}

/** Triangles a primitive of `mode` draws from n indices (or vertices). */
function triangleCount(mode: number, n: number): number {
  if (mode === 4) return Math.floor(n / 3);
  if (mode === 5 || mode === 6) return Math.max(0, n - 2);
  return 0;
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * The deepest node that is each of `nodes` or an ancestor of it, or null when they have none in common (or
 * `nodes` is empty). `parentOf[n]` is n's parent, −1 for a root; the hierarchy must be acyclic, which the
 * loaders have checked.
 */
function commonRoot(nodes: readonly number[], parentOf: Int32Array): number | null {
  if (nodes.length === 0) return null;
  const lineage = (node: number): number[] => {
    const chain: number[] = [];
    for (let n = node; n >= 0; n = parentOf[n]) chain.push(n);
    return chain;
  };
  // Candidates, deepest first: the first node and its ancestors; each further node cuts off the deeper ones
  // that are not among its own lineage.
  let candidates = lineage(nodes[0]);
  for (let i = 1; i < nodes.length && candidates.length > 0; i++) {
    const own = new Set(lineage(nodes[i]));
    const k = candidates.findIndex((n) => own.has(n));
    candidates = k < 0 ? [] : candidates.slice(k);
  }
  return candidates.length > 0 ? candidates[0] : null;
}
