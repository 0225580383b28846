import { influenceCountOf, type MaterialAsset, type ModelAsset, type PrimitiveAsset, type TextureCoordinates, type TextureSampler } from '../../asset/model-asset.ts';
import { alphaModeOf, type AlphaMode } from '../shading/alpha-mode.ts';
import { MaterialFeature } from './shader-variant.ts';
import { createOverflowTexture, influenceVariant, packOverflow } from './influence-overflow.ts';
import { createMorphDeltasTexture, MorphActiveList, packMorphDeltas } from './morph-texture.ts';
import { createPaletteBuffer, type PaletteBuffer } from './palette-buffer.ts';
import { createPaletteTexture, type PaletteTexture } from './palette-texture.ts';
import { planRigidBatches } from './rigid-batches.ts';
import { createWhiteTexture, decodeImage, isBrowserDecodable, isKtx2MimeType, textureKey, uploadImageTexture, uploadLevelsTexture } from '../device/texture.ts';

/** Attribute locations, fixed by `layout(location = …)` in `shaders/skinned.vert`, so VAOs suit every variant. */
export const ATTRIBUTE_LOCATIONS = {
  a_position: 0, a_normal: 1, a_uv: 2, a_joints: 3, a_weights: 4, a_tangent: 5, a_joints1: 6, a_weights1: 7, a_overflow: 8,
  a_uv1: 9, a_color: 10,
} as const;

/** The GPU side of one primitive: a VAO over its vertex buffers and index buffer. */
export interface GpuPrimitive {
  readonly asset: PrimitiveAsset;
  readonly vao: WebGLVertexArrayObject;
  /** Every buffer the VAO uses (vertex attributes, then the index buffer). */
  readonly buffers: readonly WebGLBuffer[];
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

/** Texture indices of a material, in the order of lit.frag's `u_uvSet` / `u_uvTransform`. */
export const MaterialTextureIndex = { BaseColor: 0, MetallicRoughness: 1, Normal: 2, Occlusion: 3, Emissive: 4 } as const;
/** One of the {@link MaterialTextureIndex} values. */
export type MaterialTextureIndex = (typeof MaterialTextureIndex)[keyof typeof MaterialTextureIndex];
/** Number of {@link MaterialTextureIndex} entries. */
export const MATERIAL_TEXTURES = 5;
/** Each material texture and the {@link MaterialFeature} bit that samples it. */
const TEXTURE_FEATURES: readonly (readonly [MaterialTextureIndex, number])[] = [
  [MaterialTextureIndex.BaseColor, MaterialFeature.BaseColorMap], [MaterialTextureIndex.MetallicRoughness, MaterialFeature.MetallicRoughnessMap],
  [MaterialTextureIndex.Normal, MaterialFeature.NormalMap], [MaterialTextureIndex.Occlusion, MaterialFeature.OcclusionMap],
  [MaterialTextureIndex.Emissive, MaterialFeature.EmissiveMap],
];

/** The GPU side of one material: the values of lit.frag's material uniforms. */
export interface GpuMaterial {
  /** Linear RGBA. */
  readonly baseColorFactor: Float32Array;
  /** Index into `GpuModel.imageTextures` of the base colour texture, or −1 (= `textures[0]`). */
  readonly image: number;
  /**
   * `Int32Array(5)`: per {@link MaterialTextureIndex}, the index into `GpuModel.imageTextures` (a texture slot:
   * one image with one sampler and colour space), or −1.
   */
  readonly textures: Int32Array;
  /** `Int32Array(5)`: `u_uvSet`, the UV set (0, 1) of each texture. */
  readonly uvSets: Int32Array;
  /** `Float32Array(45)`: `u_uvTransform`, five column-major 3×3 KHR_texture_transform matrices. */
  readonly uvTransforms: Float32Array;
  readonly metallicFactor: number;
  readonly roughnessFactor: number;
  readonly normalScale: number;
  readonly occlusionStrength: number;
  /** `Float32Array(3)`: emissive factor × KHR_materials_emissive_strength, linear. */
  readonly emissive: Float32Array;
  /** `u_alphaMode` (glTF 2.0 §3.9.4). */
  readonly alphaMode: AlphaMode;
  readonly alphaCutoff: number;
  readonly unlit: boolean;
  readonly doubleSided: boolean;
}

/**
 * The GPU side of a {@link ModelAsset}: per primitive a VAO and buffers (and a morph deltas texture), per skin an RGBA32F palette
 * texture, a palette uniform buffer (made on first use of the ubo path) and the packed-rows scratch every
 * palette path uploads from, per image a base colour texture (decoded asynchronously: null, hence white, until
 * {@link GpuModel.texturesReady} settles), and a 1×1 white texture. Created by {@link uploadModel}; freed by
 * {@link GpuModel.dispose}. After a context loss, upload `asset` again.
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
  readonly materials: GpuMaterial[];
  /**
   * Per texture slot (an image with the sampler of the materials that use it, see `textureSlots`): its
   * texture once decoded, else null (undecodable formats stay null).
   */
  readonly imageTextures: (WebGLTexture | null)[];
  /** The image (index into `asset.images`), sampler and colour space of each entry of `imageTextures`. */
  readonly textureSlots: { readonly image: number; readonly sampler: TextureSampler | undefined; readonly srgb: boolean }[] = [];
  /** Per `asset.skins` entry: the palette texture of the texture path. */
  readonly paletteTextures: PaletteTexture[];
  /** Per `asset.skins` entry: the palette uniform buffer of the ubo path, or null until {@link paletteBuffer} makes it. */
  readonly paletteBuffers: (PaletteBuffer | null)[];
  /**
   * Per `asset.skins` entry s, `Float32Array(16·skins[s].joints.length)`: the renderer's scratch for the
   * skin's palette as the shader reads it (`packPaletteRows` for LBS, `computeDualQuaternionPalette` for
   * DQS), filled once per frame.
   */
  readonly paletteRows: Float32Array[];
  readonly whiteTexture: WebGLTexture;
  /** Settles when every decodable image is decoded and uploaded (or failed; see `textureErrors`). */
  readonly texturesReady: Promise<void>;
  /** Why images could not be used (undecodable type, decode failure), each naming the model and image. */
  readonly textureErrors: string[] = [];
  /** Context generation the objects belong to (see SkinnedRenderer); stale after a context restore. */
  readonly generation: number;
  /**
   * Per skin: the renderer frame whose palette the texture holds (scratch for the renderer, so a palette
   * shared by several instances is uploaded once per frame).
   */
  readonly paletteFrames: Float64Array;
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
  constructor(private readonly gl: WebGL2RenderingContext, asset: ModelAsset, generation: number) {
    this.asset = asset;
    this.generation = generation;
    this.whiteTexture = createWhiteTexture(gl);
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
    const slotOf = new Map<string, number>();
    const slot = (image: number, sampler: TextureSampler | undefined, srgb: boolean): number => {
      if (image < 0) return -1;
      const key = textureKey(image, sampler, srgb);
      const index = slotOf.get(key) ?? this.textureSlots.push({ image, sampler, srgb }) - 1;
      slotOf.set(key, index);
      return index;
    };
    this.materials = asset.materials.map((m) => gpuMaterial(m, slot));
    this.paletteTextures = asset.skins.map((skin) => createPaletteTexture(gl, skin.joints.length));
    this.paletteBuffers = asset.skins.map(() => null);
    this.paletteRows = asset.skins.map((skin) => new Float32Array(16 * skin.joints.length));
    this.paletteFrames = new Float64Array(asset.skins.length).fill(-1);
    this.imageTextures = this.textureSlots.map(() => null);
    gl.bindVertexArray(null);
    this.texturesReady = this.loadTextures();
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
    const slot = material >= 0 && material < this.materials.length ? this.materials[material].textures[which] : -1;
    return (hasUvs && slot >= 0 && this.imageTextures[slot]) || this.whiteTexture;
  }

  /**
   * The {@link MaterialFeature} bits to draw `primitive` with a material as it can be drawn now: a texture counts
   * once it is decoded (until then white stands in, which leaves factors as they are; a normal map is left out
   * until then, as white is no neutral normal), and only if the primitive has texture coordinates; `TexCoord1`
   * when a counted texture reads set 1; unlit as the material says; `VertexColor` when the primitive has
   * COLOR_0; `VertexTangent` when it has TANGENT and a normal map counts. For a material index out of range,
   * the primitive's colours alone. Allocates nothing.
   */
  materialFeatures(material: number, primitive: GpuPrimitive): number {
    let features = primitive.hasColors ? MaterialFeature.VertexColor : 0;
    if (material < 0 || material >= this.materials.length) return features;
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

  /**
   * The palette uniform buffer of skin `skin`, made now (room for `capacity` joints) if it has none or one
   * too small. Allocates only then.
   * @throws Error when the model is disposed
   */
  paletteBuffer(skin: number, capacity: number): PaletteBuffer {
    if (this.disposed) throw new Error(`${this.asset.name}: paletteBuffer of a disposed GpuModel`);
    let buffer = this.paletteBuffers[skin];
    if (!buffer || buffer.capacity < capacity) {
      if (buffer) this.gl.deleteBuffer(buffer.buffer);
      buffer = createPaletteBuffer(this.gl, capacity);
      this.paletteBuffers[skin] = buffer;
    }
    return buffer;
  }

  /**
   * Deletes every VAO, buffer and texture. Idempotent; textures decoded later are dropped. After a context
   * loss (objects of a lost or since-restored context) it only drops the references: there is nothing left
   * to delete, and deleting would raise INVALID_OPERATION on the restored context.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    if (gl.isContextLost() || !gl.isTexture(this.whiteTexture)) {
      this.imageTextures.fill(null);
      return;
    }
    for (const primitives of this.uploaded) {
      for (const p of primitives) {
        if (!p) continue;
        gl.deleteVertexArray(p.vao);
        for (const b of p.buffers) gl.deleteBuffer(b);
        if (p.overflowTexture) gl.deleteTexture(p.overflowTexture);
        if (p.morphDeltas) gl.deleteTexture(p.morphDeltas);
      }
    }
    for (const { primitive } of this.rigidBatches) {
      gl.deleteVertexArray(primitive.vao);
      for (const b of primitive.buffers) gl.deleteBuffer(b);
    }
    for (const t of this.imageTextures) if (t) gl.deleteTexture(t);
    this.imageTextures.fill(null);
    for (const t of this.paletteTextures) gl.deleteTexture(t.texture);
    for (const b of this.paletteBuffers) if (b) gl.deleteBuffer(b.buffer);
    this.paletteBuffers.fill(null);
    if (this.morphActive) gl.deleteTexture(this.morphActive.texture);
    gl.deleteTexture(this.whiteTexture);
  }

  private async loadTextures(): Promise<void> {
    const used = new Set<number>();
    for (const slot of this.textureSlots) used.add(slot.image);
    await Promise.all([...used].map(async (index) => {
      const image = this.asset.images[index];
      if (!image) {
        this.textureErrors.push(`${this.asset.name}: material refers to image ${index}, which does not exist`);
        return;
      }
      if (isKtx2MimeType(image.mimeType)) {
        await this.loadKtx2(index);
        return;
      }
      if (!isBrowserDecodable(image.mimeType)) {
        this.textureErrors.push(`${this.asset.name}: image "${image.name}" (${image.mimeType}) is not a format Sinew decodes; drawn white`);
        return;
      }
      let bitmap: ImageBitmap;
      try {
        bitmap = await decodeImage(image, this.asset.name);
      } catch (error) {
        this.textureErrors.push((error as Error).message);
        return;
      }
      // Not after a context loss, nor into a context restored since this model was uploaded (its objects are
      // gone, and dispose() could not delete the new texture).
      if (!this.disposed && !this.gl.isContextLost() && this.gl.isTexture(this.whiteTexture)) {
        this.textureSlots.forEach((slot, i) => {
          if (slot.image === index) this.imageTextures[i] = uploadImageTexture(this.gl, bitmap, slot.sampler, slot.srgb);
        });
      }
      bitmap.close();
    }));
  }

  /**
   * Transcodes KTX2 image `index` (KHR_texture_basisu) and uploads it for each slot that uses it. The
   * transcoder (ktx2-texture.ts, WebAssembly) is imported here, on first need, so models without KTX2 never
   * load it.
   */
  private async loadKtx2(index: number): Promise<void> {
    try {
      const { decodeKtx2 } = await import('../device/ktx2-texture.ts');
      const decoded = await decodeKtx2(this.asset.images[index], this.asset.name);
      if (this.disposed || this.gl.isContextLost() || !this.gl.isTexture(this.whiteTexture)) return;
      this.textureSlots.forEach((slot, i) => {
        if (slot.image === index) this.imageTextures[i] = uploadLevelsTexture(this.gl, decoded, slot.sampler, slot.srgb);
      });
    } catch (error) {
      this.textureErrors.push((error as Error).message);
    }
  }
}

/**
 * Uploads a model's geometry and materials to the GPU. Returns at once; base colour textures follow when
 * decoded (`texturesReady`).
 * @param generation context generation (SkinnedRenderer passes its own; 0 otherwise)
 * @throws Error when GL objects cannot be created (context lost)
 */
export function uploadModel(gl: WebGL2RenderingContext, asset: ModelAsset, generation = 0): GpuModel {
  return new GpuModel(gl, asset, generation);
}

function createBuffer(gl: WebGL2RenderingContext, target: number, data: ArrayBufferView<ArrayBuffer>): WebGLBuffer {
  const buffer = gl.createBuffer();
  if (!buffer) throw new Error('uploadModel: gl.createBuffer failed (context lost?)');
  gl.bindBuffer(target, buffer);
  gl.bufferData(target, data, gl.STATIC_DRAW);
  return buffer;
}

/** @throws Error naming `label` when its morph deltas do not fit a texture of the context */
function uploadPrimitive(gl: WebGL2RenderingContext, p: PrimitiveAsset, maxTextureSize: number, label: string): GpuPrimitive {
  // Packed before any GL object exists, so a model whose deltas do not fit leaves nothing behind.
  let deltas: ReturnType<typeof packMorphDeltas>;
  try {
    deltas = packMorphDeltas(p, maxTextureSize);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
  const vao = gl.createVertexArray();
  if (!vao) throw new Error('uploadModel: gl.createVertexArray failed (context lost?)');
  gl.bindVertexArray(vao);
  const buffers: WebGLBuffer[] = [];
  const floatAttribute = (location: number, size: number, data: Float32Array) => {
    buffers.push(createBuffer(gl, gl.ARRAY_BUFFER, data as Float32Array<ArrayBuffer>));
    gl.enableVertexAttribArray(location);
    gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
  };
  const L = ATTRIBUTE_LOCATIONS;
  floatAttribute(L.a_position, 3, p.positions);
  floatAttribute(L.a_normal, 3, p.normals);
  if (p.uvs) floatAttribute(L.a_uv, 2, p.uvs);
  if (p.tangents) floatAttribute(L.a_tangent, 4, p.tangents);
  if (p.uvs1) {
    floatAttribute(L.a_uv1, 2, p.uvs1);
  } else if (p.uvs) {
    // No TEXCOORD_1: a texture that names set 1 samples TEXCOORD_0 (from the same buffer).
    gl.enableVertexAttribArray(L.a_uv1);
    gl.vertexAttribPointer(L.a_uv1, 2, gl.FLOAT, false, 0, 0);
  }
  if (p.colors) floatAttribute(L.a_color, 4, p.colors);
  const skinned = p.joints !== null && p.weights !== null;
  const c = skinned ? influenceCountOf(p) : 4;
  const influences = influenceVariant(c);
  let overflowTexture: WebGLTexture | null = null;
  if (skinned) {
    // Slots 0–3 and 4–7 of the vertex-major c slots, read with stride c from one buffer each.
    const joints = p.joints!;
    const jointType = joints instanceof Uint8Array ? gl.UNSIGNED_BYTE : gl.UNSIGNED_SHORT;
    buffers.push(createBuffer(gl, gl.ARRAY_BUFFER, joints as Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>));
    // Integer attributes: never normalised, read as uvec4.
    gl.enableVertexAttribArray(L.a_joints);
    gl.vertexAttribIPointer(L.a_joints, 4, jointType, c * joints.BYTES_PER_ELEMENT, 0);
    if (c >= 8) {
      gl.enableVertexAttribArray(L.a_joints1);
      gl.vertexAttribIPointer(L.a_joints1, 4, jointType, c * joints.BYTES_PER_ELEMENT, 4 * joints.BYTES_PER_ELEMENT);
    }
    buffers.push(createBuffer(gl, gl.ARRAY_BUFFER, p.weights as Float32Array<ArrayBuffer>));
    gl.enableVertexAttribArray(L.a_weights);
    gl.vertexAttribPointer(L.a_weights, 4, gl.FLOAT, false, 4 * c, 0);
    if (c >= 8) {
      gl.enableVertexAttribArray(L.a_weights1);
      gl.vertexAttribPointer(L.a_weights1, 4, gl.FLOAT, false, 4 * c, 16);
    }
    if (c > 8) {
      const layout = packOverflow(joints, p.weights!, c, p.vertexCount);
      buffers.push(createBuffer(gl, gl.ARRAY_BUFFER, layout.ranges as Uint32Array<ArrayBuffer>));
      gl.enableVertexAttribArray(L.a_overflow);
      gl.vertexAttribIPointer(L.a_overflow, 2, gl.UNSIGNED_INT, 0, 0);
      overflowTexture = createOverflowTexture(gl, layout);
      gl.bindTexture(gl.TEXTURE_2D, null);
    }
  }
  buffers.push(createBuffer(gl, gl.ELEMENT_ARRAY_BUFFER, p.indices as Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer>));
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  const morphDeltas = deltas ? createMorphDeltasTexture(gl, deltas) : null;
  if (morphDeltas) gl.bindTexture(gl.TEXTURE_2D, null);
  return {
    asset: p,
    vao,
    buffers,
    vertexCount: p.vertexCount,
    indexCount: p.indices.length,
    indexType: p.indices instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT,
    skinned,
    influences,
    overflowTexture,
    hasUvs: p.uvs !== null || (p.uvs1 ?? null) !== null,
    morphTargetCount: deltas ? p.morphTargets!.count : 0,
    morphDeltas,
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

/**
 * lit.frag's uniform values for a material, its textures registered through `slot(image, sampler, srgb)`
 * (base colour and emissive sRGB, the others linear). Absent optional fields take the defaults documented on
 * {@link MaterialAsset}.
 */
function gpuMaterial(m: MaterialAsset, slot: (image: number, sampler: TextureSampler | undefined, srgb: boolean) => number): GpuMaterial {
  const textures = new Int32Array(MATERIAL_TEXTURES).fill(-1);
  const uvSets = new Int32Array(MATERIAL_TEXTURES);
  const uvTransforms = new Float32Array(9 * MATERIAL_TEXTURES);
  const use = (which: MaterialTextureIndex, image: number, sampler: TextureSampler | undefined, srgb: boolean, uv: TextureCoordinates | undefined) => {
    textures[which] = slot(image, sampler, srgb);
    uvSets[which] = uv?.texCoord ?? 0;
    writeUvTransform(uvTransforms, 9 * which, uv);
  };
  use(MaterialTextureIndex.BaseColor, m.baseColorTexture, m.baseColorSampler, true, m.baseColorUv);
  const others = [
    [MaterialTextureIndex.MetallicRoughness, m.metallicRoughnessTexture, false],
    [MaterialTextureIndex.Normal, m.normalTexture, false],
    [MaterialTextureIndex.Occlusion, m.occlusionTexture, false],
    [MaterialTextureIndex.Emissive, m.emissiveTexture, true],
  ] as const;
  for (const [which, texture, srgb] of others) use(which, texture?.image ?? -1, texture?.sampler, srgb, texture);
  const strength = m.emissiveStrength ?? 1;
  const [er, eg, eb] = m.emissiveFactor ?? [0, 0, 0];
  return {
    baseColorFactor: new Float32Array(m.baseColorFactor),
    image: textures[MaterialTextureIndex.BaseColor],
    textures,
    uvSets,
    uvTransforms,
    metallicFactor: m.metallicFactor ?? 0,
    roughnessFactor: m.roughnessFactor ?? 1,
    normalScale: m.normalScale ?? 1,
    occlusionStrength: m.occlusionStrength ?? 1,
    emissive: new Float32Array([er * strength, eg * strength, eb * strength]),
    alphaMode: alphaModeOf(m.alphaMode),
    alphaCutoff: m.alphaCutoff ?? 0.5,
    unlit: m.unlit === true,
    doubleSided: m.doubleSided,
  };
}

/**
 * Writes the column-major 3×3 KHR_texture_transform matrix T(offset)·R(rotation)·S(scale) at `out[o…o+9)`
 * (identity without a transform). R has rows (cos r, sin r) and (−sin r, cos r): the UVs turn counter-clockwise
 * as seen with v downward, as the extension's prose and example have it (tests/unit/gpu/skinning/uv-transform.test.ts
 * holds it against both) and the Khronos glTF Sample Viewer and three.js apply it.
 */
export function writeUvTransform(out: Float32Array, o: number, uv: TextureCoordinates | undefined): void {
  const t = uv?.transform;
  const [ox, oy] = t?.offset ?? [0, 0];
  const [sx, sy] = t?.scale ?? [1, 1];
  const c = Math.cos(t?.rotation ?? 0), s = Math.sin(t?.rotation ?? 0);
  out[o] = c * sx; out[o + 1] = -s * sx; out[o + 2] = 0;
  out[o + 3] = s * sy; out[o + 4] = c * sy; out[o + 5] = 0;
  out[o + 6] = ox; out[o + 7] = oy; out[o + 8] = 1;
}
