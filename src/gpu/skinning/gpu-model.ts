import { influenceCountOf, type ModelAsset, type PrimitiveAsset } from '../../asset/model-asset.ts';
import { MaterialFeature } from './shader-variant.ts';
import { createOverflowTexture, influenceVariant, packOverflow } from './influence-overflow.ts';
import { createMorphDeltasTexture, MorphActiveList, packMorphDeltas } from './morph-texture.ts';
import type { PaletteBuffer } from './palette-buffer.ts';
import type { PaletteTexture } from './palette-texture.ts';
import { PaletteStorage } from './palette-storage.ts';
import { planRigidBatches } from './rigid-batches.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';
import type { DataTexture } from '../device/data-texture.ts';
import { VertexArray } from '../device/vertex-array.ts';
import { MaterialTextureIndex, ModelTextures, type GpuMaterial, type TextureSlot } from '../shading/model-materials.ts';

export { MATERIAL_TEXTURES, MaterialTextureIndex, writeUvTransform, type GpuMaterial } from '../shading/model-materials.ts';

/** Attribute locations, fixed by `layout(location = …)` in `shaders/skinned.vert`, so VAOs suit every variant. */
export const ATTRIBUTE_LOCATIONS = {
  a_position: 0, a_normal: 1, a_uv: 2, a_joints: 3, a_weights: 4, a_tangent: 5, a_joints1: 6, a_weights1: 7, a_overflow: 8,
  a_uv1: 9, a_color: 10,
} as const;

/**
 * The GPU side of one primitive: a VAO over its vertex buffers and index buffer. Its GL objects are
 * resources (src/gpu/device/): the fields below are what they are in the context now, new after a restore.
 */
export interface GpuPrimitive {
  readonly asset: PrimitiveAsset;
  readonly vao: WebGLVertexArrayObject;
  /** Every buffer the VAO uses (vertex attributes, then the index buffer). */
  readonly buffers: readonly WebGLBuffer[];
  /** @internal The resources behind the fields, disposed with the model. */
  readonly resources: readonly { dispose(): void }[];
  readonly vertexCount: number;
  /** Indices drawn with `drawElements(TRIANGLES, …)`. */
  readonly indexCount: number;
  /** `UNSIGNED_SHORT` or `UNSIGNED_INT`. */
  readonly indexType: number;
  /** Has `a_joints` / `a_weights`. */
  readonly skinned: boolean;
  /**
   * The shader's influence variant (`influenceVariant` of the asset's `influenceCount`): 4; 8 (`a_joints1` /
   * `a_weights1` too); 12 for more than 8 (also `a_overflow` and {@link overflowTexture}). 4 when rigid.
   */
  readonly influences: 4 | 8 | 12;
  /** RG32F texture of influence slots 8… (src/gpu/skinning/influence-overflow.ts), or null for 8 or fewer. */
  readonly overflowTexture: WebGLTexture | null;
  /** Has `a_uv` (TEXCOORD_0) or TEXCOORD_1; without either the material's textures are ignored. */
  readonly hasUvs: boolean;
  /** Morph targets of the primitive (`asset.morphTargets.count`), 0 without. */
  readonly morphTargetCount: number;
  /** RGBA32F texture of its morph deltas (src/gpu/skinning/morph-texture.ts), or null without morph targets. */
  readonly morphDeltas: WebGLTexture | null;
  /** `Int32Array(4)`: the deltas' `u_morphLayout` (vertexCount, texels per vertex, NORMAL slot, TANGENT slot), or null. */
  readonly morphLayout: Int32Array | null;
  /** Has `a_color` (COLOR_0); without it the renderer sets the attribute's constant to white. */
  readonly hasColors: boolean;
  /** `Float32Array(3)`: centre of the bind-pose bounding box, where BLEND primitives are sorted from. */
  readonly center: Float32Array;
  /**
   * Skin joint (index into the skin's `joints`) with the largest summed weight over the primitive, whose
   * skinning matrix carries {@link center} for sorting; −1 for rigid primitives.
   */
  readonly anchorJoint: number;
}

/** A rigid batch on the GPU: its merged primitive (src/gpu/skinning/rigid-batches.ts `RigidBatch`), drawn with its anchor's matrix. */
export interface GpuRigidBatch {
  /** Skeleton index of the node whose model-space matrix places the batch. */
  readonly anchor: number;
  /** `Int32Array(3·k)`: per member, its mesh instance, primitive index and first vertex in the batch. */
  readonly members: Int32Array;
  readonly primitive: GpuPrimitive;
}

/** Each material texture and the {@link MaterialFeature} bit that samples it. */
const TEXTURE_FEATURES: readonly (readonly [MaterialTextureIndex, number])[] = [
  [MaterialTextureIndex.BaseColor, MaterialFeature.BaseColorMap], [MaterialTextureIndex.MetallicRoughness, MaterialFeature.MetallicRoughnessMap],
  [MaterialTextureIndex.Normal, MaterialFeature.NormalMap], [MaterialTextureIndex.Occlusion, MaterialFeature.OcclusionMap],
  [MaterialTextureIndex.Emissive, MaterialFeature.EmissiveMap],
];
/**
 * The textures an MToon material samples and their bits: base colour, normal and emissive of glTF, then MToon's
 * own (the outline width texture is the outline pass's, read by its vertex shader).
 */
const MTOON_TEXTURE_FEATURES: readonly (readonly [MaterialTextureIndex, number])[] = [
  [MaterialTextureIndex.BaseColor, MaterialFeature.BaseColorMap], [MaterialTextureIndex.Normal, MaterialFeature.NormalMap],
  [MaterialTextureIndex.Emissive, MaterialFeature.EmissiveMap], [MaterialTextureIndex.ShadeMultiply, MaterialFeature.ShadeMultiplyMap],
  [MaterialTextureIndex.ShadingShift, MaterialFeature.ShadingShiftMap], [MaterialTextureIndex.RimMultiply, MaterialFeature.RimMultiplyMap],
  [MaterialTextureIndex.UvAnimationMask, MaterialFeature.UvAnimationMaskMap],
];

/**
 * The GPU side of a {@link ModelAsset}: per primitive a VAO and buffers (and a morph deltas texture), its
 * materials and their textures ({@link ModelTextures}, src/gpu/shading/model-materials.ts: decoded
 * asynchronously, white until {@link GpuModel.texturesReady} settles) and its palette storage
 * ({@link PaletteStorage}). Every GL object is a resource of the context's {@link GpuContext}: after a context
 * loss they restore themselves (vertex data from the asset's own arrays), so a GpuModel lives as long as its
 * owner wants it. Created by {@link uploadModel}; freed by {@link GpuModel.dispose}.
 */
export class GpuModel {
  readonly asset: ModelAsset;
  /**
   * `meshes[m][p]`: primitive p of `asset.meshes[m]`. Reading it uploads every primitive not uploaded yet (a
   * rigid batch's members are uploaded on first need): per-frame code asks {@link primitive} instead.
   */
  get meshes(): readonly (readonly GpuPrimitive[])[] {
    const uploaded = this.uploaded;
    for (let m = 0; m < uploaded.length; m++) for (let p = 0; p < uploaded[m].length; p++) if (!uploaded[m][p]) this.primitive(m, p);
    return uploaded as GpuPrimitive[][];
  }
  /** The materials and their textures. */
  readonly textures: ModelTextures;
  /** The palettes' texture, buffer and scratch per skin. */
  readonly palettes: PaletteStorage;
  /**
   * The active-morph-target list the renderer and transform feedback fill before each draw of a morphed
   * instance (src/gpu/skinning/morph-texture.ts), sized for the mesh with the most targets; null when no mesh has any.
   */
  readonly morphActive: MorphActiveList | null;
  /**
   * The rigid batches drawn in place of their members (src/gpu/skinning/rigid-batches.ts, docs/guide/large-scenes.md): each a
   * merged primitive and its anchor node. The members keep their own {@link meshes} entries (inspection views,
   * crowds and captures draw them one by one).
   */
  readonly rigidBatches: readonly GpuRigidBatch[];
  /** `Int32Array(2·k)`: the (mesh instance, primitive) pairs no batch holds, in file order: drawn one by one. */
  readonly singles: Int32Array;
  private disposed = false;
  /** Per mesh and primitive, its GPU side once uploaded, else null. */
  private readonly uploaded: (GpuPrimitive | null)[][];
  private readonly maxTextureSize: number;

  /** Use {@link uploadModel}. */
  constructor(private readonly gl: WebGL2RenderingContext, asset: ModelAsset) {
    this.asset = asset;
    this.textures = new ModelTextures(gl, asset);
    const maxTextureSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    this.maxTextureSize = maxTextureSize;
    this.uploaded = asset.meshes.map((mesh) => mesh.primitives.map(() => null));
    let maxTargets = 0;
    for (const mesh of asset.meshes) maxTargets = Math.max(maxTargets, mesh.morphTargetCount ?? 0);
    this.morphActive = maxTargets > 0 ? new MorphActiveList(gl, maxTargets) : null;
    const plan = planRigidBatches(asset);
    this.singles = plan.singles;
    // What is drawn one by one now; a batch's members when something asks for them.
    for (let k = 0; k < plan.singles.length; k += 2) this.primitive(asset.meshInstances[plan.singles[k]].mesh, plan.singles[k + 1]);
    this.rigidBatches = plan.batches.map((batch, b) => ({
      anchor: batch.anchor, members: batch.members, primitive: uploadPrimitive(gl, batch.primitive, maxTextureSize, `${asset.name}: rigid batch ${b}`),
    }));
    this.palettes = new PaletteStorage(gl, asset);
    gl.bindVertexArray(null);
  }

  /** lit.frag's values per material. */
  get materials(): readonly GpuMaterial[] {
    return this.textures.materials;
  }

  /** The image, sampler and colour space of each texture slot (`GpuMaterial.textures` indexes them). */
  get textureSlots(): readonly TextureSlot[] {
    return this.textures.slots;
  }

  /** Settles when every decodable image is decoded and uploaded (or failed; see `textureErrors`). */
  get texturesReady(): Promise<void> {
    return this.textures.ready;
  }

  /** Why images could not be used (undecodable type, decode failure), each naming the model and image. */
  get textureErrors(): string[] {
    return this.textures.errors;
  }

  /** The 1×1 white texture (materials without a texture). */
  get whiteTexture(): WebGLTexture {
    return this.textures.white.handle;
  }

  /** Per `asset.skins` entry: the palette texture of the texture path. */
  get paletteTextures(): readonly PaletteTexture[] {
    return this.palettes.textures;
  }

  /** Per `asset.skins` entry: the palette uniform buffer of the ubo path, or null until {@link paletteBuffer} makes it. */
  get paletteBuffers(): readonly (PaletteBuffer | null)[] {
    return this.palettes.buffers;
  }

  /** See {@link PaletteStorage.rows}. */
  get paletteRows(): readonly Float32Array[] {
    return this.palettes.rows;
  }

  /** See {@link PaletteStorage.frames}. */
  get paletteFrames(): Float64Array {
    return this.palettes.frames;
  }

  /**
   * Primitive `p` of `asset.meshes[m]`, uploaded now if it was not (a rigid batch's member; see
   * {@link rigidBatches}).
   * @throws Error when the model is disposed, or the primitive's morph deltas do not fit a texture
   */
  primitive(m: number, p: number): GpuPrimitive {
    const done = this.uploaded[m][p];
    if (done) return done;
    if (this.disposed) throw new Error(`${this.asset.name}: primitive of a disposed GpuModel`);
    const asset = this.asset.meshes[m].primitives[p];
    const primitive = uploadPrimitive(this.gl, asset, this.maxTextureSize, `${this.asset.name}: mesh ${m} primitive ${asset.sourceIndex ?? p}`);
    this.uploaded[m][p] = primitive;
    return primitive;
  }

  /** Whether {@link dispose} has run. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The base colour texture to sample for a material: its decoded image, else white. */
  baseColorTexture(material: number, hasUvs: boolean): WebGLTexture {
    return this.materialTexture(material, MaterialTextureIndex.BaseColor, hasUvs);
  }

  /**
   * Texture `which` ({@link MaterialTextureIndex}) of a material: its decoded image, else white (which leaves
   * the factors as they are: white is 1 in sRGB and linear alike).
   */
  materialTexture(material: number, which: MaterialTextureIndex, hasUvs: boolean): WebGLTexture {
    const materials = this.textures.materials;
    const slot = material >= 0 && material < materials.length ? materials[material].textures[which] : -1;
    return (hasUvs && this.textures.texture(slot)) || this.whiteTexture;
  }

  /**
   * The {@link MaterialFeature} bits to draw `primitive` with a material as it can be drawn now: a texture counts
   * once it is decoded (until then white stands in, which leaves factors as they are; a normal map is left out
   * until then, as white is no neutral normal), and only if the primitive has texture coordinates; `TexCoord1`
   * when a counted texture reads set 1; unlit as the material says; `VertexColor` when the primitive has
   * COLOR_0; `VertexTangent` when it has TANGENT and a normal map counts. For a material index out of range,
   * the primitive's colours alone. An MToon material (`GpuMaterial.mtoon`): `MToon`, its textures' bits (the
   * matcap's, `MatcapMap`, needs no texture coordinates), never `VertexColor` (MToon ignores vertex colours) nor
   * `Unlit`; the outline pass adds `Outline` itself. Allocates nothing.
   */
  materialFeatures(material: number, primitive: GpuPrimitive): number {
    const inRange = material >= 0 && material < this.materials.length;
    if (inRange && this.materials[material].mtoon) return this.mtoonFeatures(material, primitive);
    let features = primitive.hasColors ? MaterialFeature.VertexColor : 0;
    if (!inRange) return features;
    const hasUvs = primitive.hasUvs;
    const { uvSets, unlit } = this.materials[material];
    // Unlit samples the base colour texture alone.
    for (let i = 0; i < (unlit ? 1 : TEXTURE_FEATURES.length); i++) {
      const which = TEXTURE_FEATURES[i][0];
      if (this.materialTexture(material, which, hasUvs) === this.whiteTexture) continue;
      features |= TEXTURE_FEATURES[i][1];
      if (uvSets[which] === 1) features |= MaterialFeature.TexCoord1;
    }
    if (unlit) return features | MaterialFeature.Unlit;
    if ((features & MaterialFeature.NormalMap) !== 0 && primitive.asset.tangents) features |= MaterialFeature.VertexTangent;
    return features;
  }

  /** {@link materialFeatures} of an MToon material. */
  private mtoonFeatures(material: number, primitive: GpuPrimitive): number {
    const hasUvs = primitive.hasUvs;
    const uvSets = this.materials[material].uvSets;
    let features: number = MaterialFeature.MToon;
    for (let i = 0; i < MTOON_TEXTURE_FEATURES.length; i++) {
      const which = MTOON_TEXTURE_FEATURES[i][0];
      if (this.materialTexture(material, which, hasUvs) === this.whiteTexture) continue;
      features |= MTOON_TEXTURE_FEATURES[i][1];
      if (uvSets[which] === 1) features |= MaterialFeature.TexCoord1;
    }
    // The matcap is looked up by the normal, with or without texture coordinates.
    if (this.materialTexture(material, MaterialTextureIndex.Matcap, true) !== this.whiteTexture) features |= MaterialFeature.MatcapMap;
    if ((features & MaterialFeature.NormalMap) !== 0 && primitive.asset.tangents) features |= MaterialFeature.VertexTangent;
    return features;
  }

  /**
   * The palette uniform buffer of skin `skin`, made now (room for `capacity` joints) if it has none or one
   * too small. Allocates only then.
   * @throws Error when the model is disposed
   */
  paletteBuffer(skin: number, capacity: number): PaletteBuffer {
    if (this.disposed) throw new Error(`${this.asset.name}: paletteBuffer of a disposed GpuModel`);
    return this.palettes.buffer(skin, capacity);
  }

  /** Deletes every VAO, buffer and texture (only drops them while the context is lost). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const primitives of this.uploaded) for (const p of primitives) if (p) for (const r of p.resources) r.dispose();
    for (const { primitive } of this.rigidBatches) for (const r of primitive.resources) r.dispose();
    this.textures.dispose();
    this.palettes.dispose();
    this.morphActive?.storage.dispose();
  }
}

/**
 * Uploads a model's geometry and materials to the GPU. Returns at once; base colour textures follow when
 * decoded (`texturesReady`).
 * @throws Error when GL objects cannot be created (context lost)
 */
export function uploadModel(gl: WebGL2RenderingContext, asset: ModelAsset): GpuModel {
  return new GpuModel(gl, asset);
}

/**
 * The primitive's buffers (each the asset's own typed array, kept by reference and uploaded again on a
 * restore), its VAO (attributes set by one function, run again on a restore) and its data textures.
 * @throws Error naming `label` when its morph deltas do not fit a texture of the context
 */
function uploadPrimitive(gl: WebGL2RenderingContext, p: PrimitiveAsset, maxTextureSize: number, label: string): GpuPrimitive {
  // Packed before any GL object exists, so a model whose deltas do not fit leaves nothing behind.
  let deltas: ReturnType<typeof packMorphDeltas>;
  try {
    deltas = packMorphDeltas(p, maxTextureSize);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
  const L = ATTRIBUTE_LOCATIONS;
  const skinned = p.joints !== null && p.weights !== null;
  const c = skinned ? influenceCountOf(p) : 4;
  const influences = influenceVariant(c);
  const resources: { dispose(): void }[] = [];
  const buffers: GpuBuffer[] = [];
  const vertexBuffer = (data: ArrayBufferView): GpuBuffer => {
    const buffer = new GpuBuffer(gl, gl.ARRAY_BUFFER, data as ArrayBufferView<ArrayBuffer>, gl.STATIC_DRAW, `${label}: vertex buffer`);
    buffers.push(buffer);
    resources.push(buffer);
    return buffer;
  };
  const position = vertexBuffer(p.positions), normal = vertexBuffer(p.normals);
  const uv = p.uvs ? vertexBuffer(p.uvs) : null;
  const tangent = p.tangents ? vertexBuffer(p.tangents) : null;
  const uv1 = p.uvs1 ? vertexBuffer(p.uvs1) : null;
  const color = p.colors ? vertexBuffer(p.colors) : null;
  const joints = skinned ? vertexBuffer(p.joints!) : null;
  const weights = skinned ? vertexBuffer(p.weights!) : null;
  const layout = skinned && c > 8 ? packOverflow(p.joints!, p.weights!, c, p.vertexCount) : null;
  const ranges = layout ? vertexBuffer(layout.ranges) : null;
  const index = new GpuBuffer(gl, gl.ELEMENT_ARRAY_BUFFER, p.indices as Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer>, gl.STATIC_DRAW, `${label}: index buffer`);
  buffers.push(index);
  resources.push(index);
  /** The buffers' handles, refreshed whenever the VAO is set up (after the buffers are restored). */
  const handles: WebGLBuffer[] = buffers.map((b) => b.handle);
  const setup = (): void => {
    for (let k = 0; k < buffers.length; k++) handles[k] = buffers[k].handle;
    const floatAttribute = (location: number, size: number, buffer: GpuBuffer) => {
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer.handle);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
    };
    floatAttribute(L.a_position, 3, position);
    floatAttribute(L.a_normal, 3, normal);
    if (uv) floatAttribute(L.a_uv, 2, uv);
    if (tangent) floatAttribute(L.a_tangent, 4, tangent);
    if (uv1) {
      floatAttribute(L.a_uv1, 2, uv1);
    } else if (uv) {
      // No TEXCOORD_1: a texture that names set 1 samples TEXCOORD_0 (from the same buffer).
      floatAttribute(L.a_uv1, 2, uv);
    }
    if (color) floatAttribute(L.a_color, 4, color);
    if (joints && weights) {
      // Slots 0–3 and 4–7 of the vertex-major c slots, read with stride c from one buffer each.
      const bytes = p.joints!.BYTES_PER_ELEMENT;
      const jointType = p.joints instanceof Uint8Array ? gl.UNSIGNED_BYTE : gl.UNSIGNED_SHORT;
      gl.bindBuffer(gl.ARRAY_BUFFER, joints.handle);
      // Integer attributes: never normalised, read as uvec4.
      gl.enableVertexAttribArray(L.a_joints);
      gl.vertexAttribIPointer(L.a_joints, 4, jointType, c * bytes, 0);
      if (c >= 8) {
        gl.enableVertexAttribArray(L.a_joints1);
        gl.vertexAttribIPointer(L.a_joints1, 4, jointType, c * bytes, 4 * bytes);
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, weights.handle);
      gl.enableVertexAttribArray(L.a_weights);
      gl.vertexAttribPointer(L.a_weights, 4, gl.FLOAT, false, 4 * c, 0);
      if (c >= 8) {
        gl.enableVertexAttribArray(L.a_weights1);
        gl.vertexAttribPointer(L.a_weights1, 4, gl.FLOAT, false, 4 * c, 16);
      }
    }
    if (ranges) {
      gl.bindBuffer(gl.ARRAY_BUFFER, ranges.handle);
      gl.enableVertexAttribArray(L.a_overflow);
      gl.vertexAttribIPointer(L.a_overflow, 2, gl.UNSIGNED_INT, 0, 0);
    }
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, index.handle);
  };
  const vao = new VertexArray(gl, setup, `${label}: vertex array`);
  resources.push(vao);
  let overflow: DataTexture | null = null;
  if (layout) {
    overflow = createOverflowTexture(gl, layout);
    gl.bindTexture(gl.TEXTURE_2D, null);
    resources.push(overflow);
  }
  let morph: DataTexture | null = null;
  if (deltas) {
    // The first upload reads the packing made above; a restore packs the asset's deltas again.
    let packed: Float32Array | null = deltas.texels;
    morph = createMorphDeltasTexture(gl, deltas, () => {
      const texels = packed ?? packMorphDeltas(p, maxTextureSize)!.texels;
      packed = null;
      return texels;
    });
    gl.bindTexture(gl.TEXTURE_2D, null);
    resources.push(morph);
  }
  return {
    asset: p,
    get vao() { return vao.handle; },
    buffers: handles,
    resources,
    vertexCount: p.vertexCount,
    indexCount: p.indices.length,
    indexType: p.indices instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT,
    skinned,
    influences,
    get overflowTexture() { return overflow ? overflow.handle : null; },
    hasUvs: p.uvs !== null || (p.uvs1 ?? null) !== null,
    morphTargetCount: deltas ? p.morphTargets!.count : 0,
    get morphDeltas() { return morph ? morph.handle : null; },
    morphLayout: deltas ? deltas.layout : null,
    hasColors: (p.colors ?? null) !== null,
    center: boundsCenter(p.positions),
    anchorJoint: skinned ? heaviestJoint(p.joints!, p.weights!) : -1,
  };
}

/** Centre of the axis-aligned bounding box of `positions` (x, y, z triples); (0, 0, 0) when empty. */
function boundsCenter(positions: Float32Array): Float32Array {
  const center = new Float32Array(3);
  if (positions.length < 3) return center;
  for (let axis = 0; axis < 3; axis++) {
    let min = Infinity, max = -Infinity;
    for (let i = axis; i < positions.length; i += 3) {
      if (positions[i] < min) min = positions[i];
      if (positions[i] > max) max = positions[i];
    }
    center[axis] = 0.5 * (min + max);
  }
  return center;
}

/** The joint index with the largest summed weight over all influence slots. */
function heaviestJoint(joints: Uint8Array | Uint16Array, weights: Float32Array): number {
  const sums = new Map<number, number>();
  let best = 0, bestSum = -1;
  for (let i = 0; i < joints.length; i++) {
    const sum = (sums.get(joints[i]) ?? 0) + weights[i];
    sums.set(joints[i], sum);
    if (sum > bestSum) {
      bestSum = sum;
      best = joints[i];
    }
  }
  return best;
}
