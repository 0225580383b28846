import type { AnimationClip } from './animation-clip.ts';
import type { AvatarAsset } from './avatar-asset.ts';
import type { SecondaryMotionAsset } from './secondary-motion-asset.ts';
import type { MaterialTexture, TextureCoordinates, TextureSampler } from './material-texture.ts';
import type { MToonMaterialAsset } from './mtoon-material-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';

/**
 * Everything Sinew knows about a model, on the CPU only (typed arrays, no GL objects): what every loader
 * (glTF, MD5, procedural) produces and what the renderer, the CPU reference path and `sinew eval` consume.
 * Validated once by the loader; trusted on the hot path.
 */
export interface ModelAsset {
  /** File name (or a descriptive name for generated models), used in messages. */
  readonly name: string;
  /** The transform hierarchy, parents before children. */
  readonly skeleton: Skeleton;
  /**
   * The rest pose: the file's static local transforms of every joint (glTF node TRS; MD5 `.md5mesh` joints,
   * made parent-relative). Not necessarily the bind pose, which the skins' inverse bind matrices encode
   * (docs/explanation/skinning-formulas.md "Spaces and poses").
   */
  readonly restPose: LocalPose;
  readonly meshes: readonly MeshAsset[];
  readonly skins: readonly SkinAsset[];
  /** Where meshes are placed: one entry per mesh node (glTF) or per mesh (MD5). */
  readonly meshInstances: readonly MeshInstance[];
  readonly materials: readonly MaterialAsset[];
  /** Encoded images (PNG, JPEG, …) referenced by materials. */
  readonly images: readonly ImageAsset[];
  readonly clips: readonly AnimationClip[];
  /**
   * Axis convention of the data: `'y'` (glTF) or `'z'` (MD5 files are Z-up). The viewer may orient the
   * model for display; the data keeps the file's axes.
   */
  readonly upAxis: 'y' | 'z';
  /**
   * Non-fatal findings of the loader, each starting with the file name (e.g. morph targets ignored, a
   * repeated key time played as a step): one line per kind of deviation and file, however often it occurs
   * (docs/explanation/compatibility.md).
   */
  readonly warnings: readonly string[];
  /**
   * The avatar of a VRM file (`.vrm`, VRM 1.0 or 0.x): humanoid, expressions, look-at, first person and meta.
   * Absent on models that are not avatars.
   */
  readonly avatar?: AvatarAsset;
  /**
   * Spring bones and node constraints (VRMC_springBone, its extended colliders, VRM 0.x `secondaryAnimation`,
   * VRMC_node_constraint), run each frame after the clip and the avatar's expressions. Absent when the file has
   * neither.
   */
  readonly secondaryMotion?: SecondaryMotionAsset;
}

/** A mesh: one or more primitives drawn with the same transform (or skin). */
export interface MeshAsset {
  readonly name: string;
  readonly primitives: readonly PrimitiveAsset[];
  /**
   * Morph targets of each primitive (glTF 2.0 §3.7.2.2 "Morph Targets"): the same count n for every primitive
   * of the mesh (the loader checks it), each primitive's deltas in {@link PrimitiveAsset.morphTargets}.
   * Absent or 0: the mesh has none.
   */
  readonly morphTargetCount?: number;
  /**
   * `Float32Array(morphTargetCount)`: the mesh's default morph weights (glTF `mesh.weights`, zeros when the file
   * gives none). A node's own `weights` override them per instance (the rest pose's
   * {@link LocalPose.morphWeights}). Absent when the mesh has no morph targets.
   */
  readonly defaultMorphWeights?: Float32Array;
}

/**
 * A primitive's morph targets (glTF 2.0 §3.7.2.2): per target, per vertex, a displacement added to the
 * attribute before skinning, `a = a₀ + Σₜ wₜ·Δaₜ` (docs/explanation/skinning-formulas.md M0). Target-major: the delta of
 * target t, vertex v starts at `3·(t·vertexCount + v)`. A null array means no target of the primitive moves
 * that attribute (a target without it contributes 0; sparse accessors are already expanded).
 */
export interface MorphTargetsAsset {
  /** Number of targets n (the mesh's `morphTargetCount`). */
  readonly count: number;
  /** `Float32Array(3·n·vertexCount)`: POSITION deltas (x, y, z), or null. */
  readonly positions: Float32Array | null;
  /** `Float32Array(3·n·vertexCount)`: NORMAL deltas (x, y, z), or null. */
  readonly normals: Float32Array | null;
  /**
   * `Float32Array(3·n·vertexCount)`: TANGENT deltas (x, y, z; glTF target tangents have no w, the base
   * tangent's handedness is kept), or null. Ignored for a primitive without `tangents`.
   */
  readonly tangents: Float32Array | null;
}

/**
 * A triangle list with its vertex attributes, in bind pose for skinned meshes.
 * Every per-vertex array has `vertexCount` elements of the stated width.
 */
export interface PrimitiveAsset {
  readonly vertexCount: number;
  /** `Float32Array(3·vertexCount)`: bind-pose positions (x, y, z). */
  readonly positions: Float32Array;
  /**
   * `Float32Array(3·vertexCount)`: unit normals. Always present: loaders compute area-weighted vertex
   * normals when the file has none.
   */
  readonly normals: Float32Array;
  /**
   * `Float32Array(4·vertexCount)`: bind-pose tangents (x, y, z, w) as glTF TANGENT gives them (glTF 2.0
   * §3.7.2.1: xyz a unit vector, w = ±1 the bitangent's handedness), skinned next to the normals with the
   * blended matrix itself, w kept. Absent or null when the file gives none (none are computed).
   */
  readonly tangents?: Float32Array | null;
  /** `Float32Array(2·vertexCount)`: TEXCOORD_0 (u, v; glTF convention, v down), or null. */
  readonly uvs: Float32Array | null;
  /**
   * `Float32Array(2·vertexCount)`: TEXCOORD_1 (u, v), the set textures with `texCoord: 1` sample
   * ({@link MaterialTexture.texCoord}). Absent or null: none (such textures sample `uvs`).
   */
  readonly uvs1?: Float32Array | null;
  /**
   * `Float32Array(4·vertexCount)`: COLOR_0 as linear RGBA in [0, 1] (glTF 2.0 §3.7.2.1: VEC3 gets alpha 1,
   * unorm8/16 de-normalised), multiplied into the base colour. Absent or null: white.
   */
  readonly colors?: Float32Array | null;
  /**
   * Influence slots per vertex, c = {@link influenceCountOf}: a multiple of 4 (glTF: 4 · the number of
   * JOINTS_n/WEIGHTS_n sets; MD5: the most weights of any vertex, rounded up to 4). Absent: 4. Every slot is
   * skinned (none is dropped); unused slots have weight 0.
   */
  readonly influenceCount?: number;
  /**
   * Joint indices of each vertex's c influences (vertex-major: slot k of vertex v at `c·v + k`), into the
   * owning skin's `joints` list (not the skeleton): `Uint8Array(c·vertexCount)` or `Uint16Array(c·vertexCount)`;
   * null for rigid primitives.
   */
  readonly joints: Uint8Array | Uint16Array | null;
  /**
   * `Float32Array(c·vertexCount)`: influence weights matching `joints`, de-normalised from unorm8/16, as
   * stored (not renormalised: skinning divides by their sum, docs/explanation/skinning-formulas.md S0). Null for rigid primitives.
   */
  readonly weights: Float32Array | null;
  /**
   * Triangle list indices (3 per triangle): `Uint16Array` when vertexCount ≤ 65 536, else `Uint32Array`.
   * Loaders generate 0…vertexCount−1 for non-indexed primitives, so this is never null.
   */
  readonly indices: Uint16Array | Uint32Array;
  /** Index into `ModelAsset.materials`. */
  readonly material: number;
  /**
   * True when the file gave no normals and asks for flat shading: glTF 2.0 §3.7.2.1 says a client must then
   * compute flat normals. The renderer shades such primitives with the face normal of the skinned triangle
   * (screen-space derivatives of the display-space position), so folds stay crisp as the mesh deforms; `normals`
   * still holds area-weighted vertex normals for CPU use. Absent or false: shade with `normals`.
   */
  readonly flatShading?: boolean;
  /**
   * Index of the primitive in the file's mesh (glTF `meshes[m].primitives[i]`), which differs from its index
   * in `MeshAsset.primitives` when the loader skipped primitives it cannot draw (points, lines). Absent:
   * the same index.
   */
  readonly sourceIndex?: number;
  /** Morph targets of the primitive ({@link MorphTargetsAsset}); absent or null without any. */
  readonly morphTargets?: MorphTargetsAsset | null;
}

/** A skin: the joints a skinned mesh's influences refer to, with their inverse bind matrices. */
export interface SkinAsset {
  readonly name: string;
  /** `Int32Array(m)`: skeleton joint index of each skin joint (influence index i → `joints[i]`). */
  readonly joints: Int32Array;
  /**
   * `Float32Array(16·m)`, column-major: inverse bind matrix of skin joint i at `16i` (identity when the
   * file gives none, glTF 2.0 §3.7.3 "Skins").
   */
  readonly inverseBindMatrices: Float32Array;
}

/** One placement of a mesh in the model. */
export interface MeshInstance {
  /**
   * Skeleton index of the node that carries the mesh (every glTF node is in Sinew's skeleton; `sourceNode` is
   * its index in the file). Its model-space matrix places a rigid mesh.
   */
  readonly node: number;
  /** Source node index (glTF node), or null where the format has no nodes (MD5). */
  readonly sourceNode: number | null;
  /** Index into `ModelAsset.meshes`. */
  readonly mesh: number;
  /**
   * Index into `ModelAsset.skins`, or −1 for a rigid mesh. A skinned mesh ignores its node's transform
   * (glTF 2.0 §3.7.3): its vertices go to model space through the skinning matrices alone.
   */
  readonly skin: number;
  /**
   * Where this instance's morph weights sit in {@link LocalPose.morphWeights} (and `PoseBuffers.morphWeights`):
   * weight t of the mesh's `morphTargetCount` at `morphWeightOffset + t`. Each instance has its own range
   * (glTF: a node's `weights` and `weights` channels belong to the node). Absent or −1: the mesh has no
   * morph targets.
   */
  readonly morphWeightOffset?: number;
}

/**
 * A glTF 2.0 metallic-roughness material (§3.9 "Materials", BRDF of Appendix B) as Sinew shades it, with
 * KHR_materials_emissive_strength, KHR_materials_unlit and KHR_texture_transform. The glTF loader sets every
 * field; for the optional ones another producer (MD5, procedural models) may leave out, absent means the
 * value in brackets, chosen so that such a material is a plain opaque dielectric (not glTF's default of a
 * metal, which the glTF loader writes out explicitly where it applies).
 */
export interface MaterialAsset {
  readonly name: string;
  /** Linear RGBA multiplier, each in [0, 1]. */
  readonly baseColorFactor: readonly [number, number, number, number];
  /**
   * Index into `ModelAsset.images` of the base colour texture (sRGB; RGBA, alpha is coverage), or −1. It
   * samples the UV set and transform of {@link baseColorUv}.
   */
  readonly baseColorTexture: number;
  /** How the base colour texture is sampled (the glTF texture's sampler); absent: glTF's defaults. */
  readonly baseColorSampler?: TextureSampler;
  /** UV set and KHR_texture_transform of the base colour texture [TEXCOORD_0, no transform]. */
  readonly baseColorUv?: TextureCoordinates;
  /** Metalness in [0, 1], multiplied by the metallic-roughness texture's B channel [0]. */
  readonly metallicFactor?: number;
  /** Perceptual roughness in [0, 1] (α = roughness²), multiplied by the texture's G channel [1]. */
  readonly roughnessFactor?: number;
  /** Linear texture: G roughness, B metalness (glTF 2.0 §3.9.2) [none]. */
  readonly metallicRoughnessTexture?: MaterialTexture;
  /**
   * Tangent-space normal map (linear; RGB = (n + 1)/2, +Y up in UV space: glTF 2.0 §3.9.3) [none]. With the
   * primitive's tangents when it has them, else a tangent frame from screen-space derivatives of position and UV.
   */
  readonly normalTexture?: MaterialTexture;
  /** Scales the normal map's X and Y (glTF `normalTexture.scale`) [1]. */
  readonly normalScale?: number;
  /** Ambient occlusion in the R channel (linear), applied to image-based light only [none]. */
  readonly occlusionTexture?: MaterialTexture;
  /** `mix(1, ao, strength)` (glTF `occlusionTexture.strength`, in [0, 1]) [1]. */
  readonly occlusionStrength?: number;
  /**
   * Linear emitted radiance RGB, each in [0, 1], before {@link emissiveStrength} [0, 0, 0]; multiplied by the
   * emissive texture (sRGB) when there is one.
   */
  readonly emissiveFactor?: readonly [number, number, number];
  readonly emissiveTexture?: MaterialTexture;
  /** KHR_materials_emissive_strength: multiplies the emissive radiance, ≥ 0 [1]. */
  readonly emissiveStrength?: number;
  /**
   * glTF 2.0 §3.9.4 "Alpha Coverage" ['OPAQUE']: OPAQUE ignores alpha; MASK draws a fragment only when its
   * alpha ≥ {@link alphaCutoff}, opaque; BLEND composites over what is behind (drawn after the opaque
   * primitives, back to front, without depth writes).
   */
  readonly alphaMode?: AlphaMode;
  /** MASK threshold, ≥ 0 [0.5]. */
  readonly alphaCutoff?: number;
  /** KHR_materials_unlit: the base colour is the output, no lighting [false]. Ignored when {@link mtoon} is set. */
  readonly unlit?: boolean;
  readonly doubleSided: boolean;
  /**
   * VRMC_materials_mtoon 1.0 (or VRM 0.x MToon converted): the material is shaded as MToon, with its outline
   * [absent: glTF metallic-roughness].
   */
  readonly mtoon?: MToonMaterialAsset;
}

/** glTF `material.alphaMode`. */
export type AlphaMode = 'OPAQUE' | 'MASK' | 'BLEND';

/** An encoded image as found in the file. */
export interface ImageAsset {
  readonly name: string;
  /** MIME type, e.g. `image/png`, `image/jpeg`; `image/x-tga` for MD5's TGA textures. */
  readonly mimeType: string;
  readonly data: Uint8Array;
}

/**
 * Influence slots per vertex of a primitive: `primitive.influenceCount`, 4 when absent.
 * @throws RangeError when it is not a positive multiple of 4
 */
export function influenceCountOf(primitive: Pick<PrimitiveAsset, 'influenceCount'>): number {
  const c = primitive.influenceCount ?? 4;
  if (!(Number.isInteger(c) && c > 0 && c % 4 === 0)) throw new RangeError(`influenceCount ${c} is not a positive multiple of 4`);
  return c;
}
