import { influenceCountOf, type PrimitiveAsset } from '../asset/model-asset.ts';
import { computeDualQuaternionPalette } from './dual-quaternion-palette.ts';
import { skinVertices } from './skin-vertices.ts';
import type { SkinningContext } from './skinning-context.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod, type WeightPolicy } from './skinning-method.ts';
import { SKIN_KERNEL_WASM_BASE64 } from './wasm/skin-kernel-binary.ts';
import { EmbeddedModule, kernelAbort } from '../wasm/embedded-module.ts';
import { KernelLayout } from '../wasm/kernel-layout.ts';

/**
 * How a {@link SkinningKernel} skins (LBS and DQS alike): `'wasm-simd'`, the WebAssembly SIMD kernel
 * (src/skinning/wasm/skin-kernel.as.ts, four float32 lanes per matrix column or quaternion), or `'js'`, the
 * portable reference {@link skinVertices} (double arithmetic rounded to float32 once per element).
 */
export type SkinningKernelBackend = 'wasm-simd' | 'js';

/** {@link SkinningKernel} settings. */
export interface SkinningKernelOptions {
  /**
   * `'auto'` (default): WebAssembly SIMD where the platform compiles it, else the portable `skinVertices`
   * (no WebAssembly, no SIMD, or a Content-Security-Policy without `'wasm-unsafe-eval'`). `'js'`: always portable.
   */
  readonly backend?: 'auto' | 'js';
}

/**
 * CPU skinning of one primitive, every frame, into outputs it owns: the fast path beside the reference
 * {@link skinVertices}, which computes the same vertices (docs/explanation/skinning-formulas.md S0, S2; the formulas are
 * stated on `skinVertices`). With the `'wasm-simd'` backend the primitive's rest positions, normals,
 * tangents, joints and weights are copied once, at construction, into the kernel's own WebAssembly memory
 * (fixed size, never grown, so the views stay valid for the kernel's life); per frame only the skinning
 * matrices go in, and {@link positions}, {@link normals}, {@link tangents} are views into that memory.
 * Later edits of the primitive's arrays are not seen until {@link refreshRest} copies them in again (a
 * `MorphedPrimitive`, which rewrites its arrays in place, calls it after each `apply`). Allocates nothing per frame.
 *
 * The kernel covers linear blend skinning (LBS) and dual quaternion skinning (DQS, `skinVerticesDqs`: Kavan et
 * al. 2008 with the two-phase scale/shear extension) under every weight policy and any influence count (4, 8,
 * 12, …). Both backends compute the same sums in the same order; `'wasm-simd'` rounds to float32 after each
 * multiply and add (four lanes at a time) where `'js'` computes in doubles, so they differ by a few float32 ulps
 * of the mesh's extent (tests/unit/skinning/skinning-kernel.test.ts and skinning-kernel-dqs.test.ts bound the
 * difference; bench: `skin.speedup_vs_three_with_normals`, `skin.kernel_speedup_over_portable`,
 * `skin.kernel_dqs_speedup_over_portable`). Under DQS the per-joint DQS palette (a polar decomposition per
 * joint, `computeDualQuaternionPalette`) is computed in doubles into `context.dualPalette`, as the reference
 * does, then packed as float32 for the kernel; a vertex's influences are sign-aligned to slot 0's quaternion in
 * float32, so a vertex whose two quaternions are within float32 rounding of orthogonal (joints turned 180°
 * apart) may take the other sign than the reference. Skinning matrices are assumed affine and finite: both
 * kernels add slot 0 even at weight 0 (0·K adds nothing), where `skinVertices` skips it.
 */
export class SkinningKernel {
  /** How it skins: WebAssembly SIMD, or `skinVertices` where WebAssembly cannot run. */
  readonly backend: SkinningKernelBackend;
  /** The primitive whose vertex data was copied in at construction (later edits to it are not seen). */
  readonly primitive: PrimitiveAsset;
  /** The context the skinning matrices are checked against, and its origin O (`context.origin`) used. */
  readonly context: SkinningContext;
  /** `Float32Array(3·vertexCount)`: skinned positions after {@link skin}, relative to `context.origin` (as `skinVertices` writes them). */
  readonly positions: Float32Array;
  /** `Float32Array(3·vertexCount)`: unit skinned normals after a {@link skin} with normals. */
  readonly normals: Float32Array;
  /** `Float32Array(4·vertexCount)`: skinned tangents (xyz unit, w kept) after a {@link skin} with tangents; null for a primitive without tangents. */
  readonly tangents: Float32Array | null;
  private readonly run: ((skinMatrices: Float32Array, policy: number, normals: boolean, tangents: boolean) => void) | null;
  private readonly runDqs: ((skinMatrices: Float32Array, policy: number, normals: boolean, tangents: boolean) => void) | null;
  private readonly runStream: (() => void) | null;
  private readonly copyRest: (() => void) | null;

  /**
   * @param primitive a skinned primitive (`joints`, `weights` present); its arrays are copied now for `'wasm-simd'`
   * @param context a `SkinningContext` of at least the palette's joints, with the skinning matrices' origin O
   * @param options which backend to use (default `'auto'`: WebAssembly SIMD where the platform compiles it)
   * @throws Error when the primitive has no joints/weights
   * @throws RangeError when `influenceCount` is not a positive multiple of 4, `joints`/`weights` are shorter than
   *   `influenceCount·vertexCount`, or a slot of non-zero weight names a joint ≥ `context.jointCount`
   */
  constructor(primitive: PrimitiveAsset, context: SkinningContext, options: SkinningKernelOptions = {}) {
    const { joints, weights, vertexCount: n } = primitive;
    if (!joints || !weights) throw new Error('SkinningKernel: primitive has no joints/weights (it is rigid)');
    const c = influenceCountOf(primitive), m = context.jointCount;
    if (joints.length < c * n || weights.length < c * n) {
      throw new RangeError(`SkinningKernel: ${n} vertices of ${c} influences need ${c * n} joints and weights, got ${joints.length} and ${weights.length}`);
    }
    this.primitive = primitive;
    this.context = context;
    const tangents = primitive.tangents ?? null;
    const module = options.backend === 'js' ? null : compiled.get();
    if (module) {
      const { palette, dualPalette, restP, restN, restT, slotJoints, slotWeights, outP, outN, outT, bytes } = kernelLayout(n, c, m, tangents !== null);
      const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
      const exports = new WebAssembly.Instance(module, { env: { memory, abort: kernelAbort } }).exports as unknown as KernelExports;
      const buffer = memory.buffer;
      const restPView = new Float32Array(buffer, restP, 3 * n), restNView = new Float32Array(buffer, restN, 3 * n);
      const restTView = tangents ? new Float32Array(buffer, restT, 4 * n) : null;
      this.copyRest = () => {
        restPView.set(primitive.positions.subarray(0, 3 * n));
        restNView.set(primitive.normals.subarray(0, 3 * n));
        if (restTView) restTView.set(primitive.tangents!.subarray(0, 4 * n));
      };
      this.copyRest();
      new Float32Array(buffer, slotWeights, c * n).set(weights.subarray(0, c * n));
      copySlotJoints(new Uint16Array(buffer, slotJoints, c * n), joints, weights, c * n, m);
      const paletteView = new Float32Array(buffer, palette, 16 * m), dualView = new Float32Array(buffer, dualPalette, DQ_PACKED_STRIDE * m);
      this.positions = new Float32Array(buffer, outP, 3 * n);
      this.normals = new Float32Array(buffer, outN, 3 * n);
      this.tangents = tangents ? new Float32Array(buffer, outT, 4 * n) : null;
      const origin = context.origin;
      this.run = (skinMatrices, policy, withNormals, withTangents) => {
        paletteView.set(skinMatrices);
        exports.skin(n, c, palette, restP, restN, restT, slotJoints, slotWeights, outP, withNormals ? outN : 0, withTangents ? outT : 0,
          policy, origin[0], origin[1], origin[2]);
      };
      this.runDqs = (skinMatrices, policy, withNormals, withTangents) => {
        const joints = skinMatrices.length >> 4;
        packDualPalette(dualView, computeDualQuaternionPalette(context.dualPalette, skinMatrices, joints), joints);
        exports.skinDqs(n, c, dualPalette, restP, restN, restT, slotJoints, slotWeights, outP, withNormals ? outN : 0, withTangents ? outT : 0,
          policy, origin[0], origin[1], origin[2]);
      };
      this.runStream = () => exports.stream(n, c, restP, restN, slotJoints, slotWeights, outP, outN, 0);
      this.backend = 'wasm-simd';
    } else {
      this.positions = new Float32Array(3 * n);
      this.normals = new Float32Array(3 * n);
      this.tangents = tangents ? new Float32Array(4 * n) : null;
      this.run = null;
      this.runDqs = null;
      this.runStream = null;
      this.copyRest = null;
      this.backend = 'js';
    }
  }

  /**
   * Skins the primitive with `skinMatrices` into {@link positions} and, when asked, {@link normals} and
   * {@link tangents} (what is not asked keeps its previous contents). Allocates nothing.
   *
   * @param skinMatrices `Float32Array(16·m)`, column-major affine skinning matrices (`computeSkinMatrices`,
   *   `PoseKernel.skinMatrices`), m ≤ `context.jointCount`
   * @param method skinning mode and weight policy (default LBS, `normalize`)
   * @param withNormals skin the normals too (default true)
   * @param withTangents skin the tangents too (default: when the primitive has them)
   * @throws RangeError when `skinMatrices` has more joints than the context
   * @throws Error when `withTangents` is asked of a primitive without tangents
   */
  skin(skinMatrices: Float32Array, method: SkinningMethod = DEFAULT_SKINNING_METHOD, withNormals = true, withTangents = this.tangents !== null): void {
    if (skinMatrices.length >> 4 > this.context.jointCount) {
      throw new RangeError(`SkinningKernel.skin: the skinning matrices have ${skinMatrices.length >> 4} joints, the skinning context ${this.context.jointCount}`);
    }
    if (withTangents && !this.tangents) throw new Error('SkinningKernel.skin: tangents asked of a primitive without tangents');
    if (this.run && method.skinning === 'lbs') {
      this.run(skinMatrices, POLICY_CODES[method.weights], withNormals, withTangents);
    } else if (this.runDqs && method.skinning === 'dqs') {
      this.runDqs(skinMatrices, POLICY_CODES[method.weights], withNormals, withTangents);
    } else {
      skinVertices(this.positions, withNormals ? this.normals : null, this.primitive, skinMatrices, this.context, method, withTangents ? this.tangents : null);
    }
  }

  /**
   * Copies the primitive's rest positions, normals and tangents into the kernel again (on the `'js'` backend,
   * which reads the primitive's arrays on every {@link skin}, nothing to do): for a primitive whose arrays are
   * rewritten in place, as `MorphedPrimitive.apply` does, before the next {@link skin}. Joints and weights are
   * not re-read. Allocates nothing.
   */
  refreshRest(): void {
    if (this.copyRest) this.copyRest();
  }

  /**
   * For the bench, not for rendering: loads what {@link skin} with normals loads and stores its outputs, with no
   * arithmetic — the memory floor the kernel can approach (bench: `skin.kernel_ratio_to_memory_floor`). Writes
   * the rest positions and normals (not relative to the origin). Allocates nothing.
   * @throws Error on the `'js'` backend
   */
  streamOnly(): void {
    if (!this.runStream) throw new Error('SkinningKernel.streamOnly: the portable backend has no memory floor');
    this.runStream();
  }
}

/**
 * The bytes of WebAssembly memory a {@link SkinningKernel} on the `'wasm-simd'` backend makes for `primitive`
 * skinned by a palette of `jointCount` joints (whole 64 KiB pages): what the memory budget counts per skinned
 * primitive and skin (src/pose/model-working-memory.ts). The `'js'` backend holds less (its outputs only).
 */
export function skinningKernelBytes(primitive: PrimitiveAsset, jointCount: number): number {
  const bytes = kernelLayout(primitive.vertexCount, influenceCountOf(primitive), jointCount, !!primitive.tangents).bytes;
  return 65536 * Math.max(1, Math.ceil(bytes / 65536));
}

/**
 * Byte offsets of a kernel's arrays for n vertices of c influences and m joints (tangents or not), and the
 * memory they need: palette, DQS palette, rest positions, normals, tangents, slot joints (u16), slot weights,
 * then the outputs.
 */
function kernelLayout(n: number, c: number, m: number, tangents: boolean) {
  const layout = new KernelLayout();
  const palette = layout.words(16 * m), dualPalette = layout.words(DQ_PACKED_STRIDE * m), restP = layout.words(3 * n), restN = layout.words(3 * n);
  const restT = tangents ? layout.words(4 * n) : 0, slotJoints = layout.halves(c * n), slotWeights = layout.words(c * n);
  // One spare float after each three-per-vertex output: the kernel stores whole v128s (skin-kernel.as.ts).
  const outP = layout.words(3 * n + 1), outN = layout.words(3 * n + 1), outT = tangents ? layout.words(4 * n) : 0;
  return { palette, dualPalette, restP, restN, restT, slotJoints, slotWeights, outP, outN, outT, bytes: layout.bytes };
}

/** Floats per joint of the kernel's DQS palette (skin-kernel.as.ts `skinDqs`): S's three columns, q, ½(t, 0)⊗q. */
const DQ_PACKED_STRIDE = 20;

/**
 * Packs the DQS palette (`computeDualQuaternionPalette`'s layout, doubles) as `skinDqs` reads it, 20 float32 per
 * joint: S's columns (S00 S10 S20 0), (S01 S11 S21 0), (S02 S12 S22 0), q, and the dual part ½·(t, 0)⊗q
 * (vector ½(q_w·t + t × q_v), scalar −½ t·q_v; Kavan et al. 2008 §4), which `skinVerticesDqs` builds per
 * influence from the same t and q. Allocates nothing.
 */
function packDualPalette(out: Float32Array, D: Float64Array, m: number): void {
  for (let j = 0; j < m; j++) {
    const s = j << 4, o = DQ_PACKED_STRIDE * j;
    out[o] = D[s]; out[o + 1] = D[s + 4]; out[o + 2] = D[s + 8]; out[o + 3] = 0;
    out[o + 4] = D[s + 1]; out[o + 5] = D[s + 5]; out[o + 6] = D[s + 9]; out[o + 7] = 0;
    out[o + 8] = D[s + 2]; out[o + 9] = D[s + 6]; out[o + 10] = D[s + 10]; out[o + 11] = 0;
    const tx = D[s + 3], ty = D[s + 7], tz = D[s + 11];
    const qx = D[s + 12], qy = D[s + 13], qz = D[s + 14], qw = D[s + 15];
    out[o + 12] = qx; out[o + 13] = qy; out[o + 14] = qz; out[o + 15] = qw;
    out[o + 16] = 0.5 * (qw * tx + ty * qz - tz * qy);
    out[o + 17] = 0.5 * (qw * ty + tz * qx - tx * qz);
    out[o + 18] = 0.5 * (qw * tz + tx * qy - ty * qx);
    out[o + 19] = -0.5 * (tx * qx + ty * qy + tz * qz);
  }
}

/** Weight policies as the kernel numbers them (skin-kernel.as.ts). */
const POLICY_CODES: Readonly<Record<WeightPolicy, number>> = { 'normalize': 0, 'as-stored': 1, 'rest-remainder': 2, 'implicit-last': 3 };

/**
 * Copies the slot joints as u16, a zero-weight slot naming a joint outside the palette replaced by 0 (never
 * read with a non-zero weight; the kernel's loads then stay inside the palette).
 * @throws RangeError when a slot of non-zero weight names a joint ≥ m
 */
function copySlotJoints(out: Uint16Array, joints: Uint8Array | Uint16Array, weights: Float32Array, count: number, m: number): void {
  for (let i = 0; i < count; i++) {
    const j = joints[i];
    if (j < m) out[i] = j;
    else if (weights[i] === 0) out[i] = 0;
    else throw new RangeError(`SkinningKernel: influence slot ${i} names joint ${j} of a ${m}-joint palette`);
  }
}

/** The kernel module's exports (byte offsets into its memory; layout in skin-kernel.as.ts). */
interface KernelExports {
  skin(n: number, c: number, palette: number, positions: number, normals: number, tangents: number, joints: number, weights: number,
    outP: number, outN: number, outT: number, policy: number, ox: number, oy: number, oz: number): void;
  skinDqs(n: number, c: number, palette: number, positions: number, normals: number, tangents: number, joints: number, weights: number,
    outP: number, outN: number, outT: number, policy: number, ox: number, oy: number, oz: number): void;
  stream(n: number, c: number, positions: number, normals: number, joints: number, weights: number, outP: number, outN: number, mask: number): void;
}

const compiled = new EmbeddedModule(SKIN_KERNEL_WASM_BASE64);
