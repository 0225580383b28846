import type { SkinAsset } from '../asset/model-asset.ts';
import { computeSkinMatrices } from '../skinning/skin-matrices.ts';
import { SkinningContext } from '../skinning/skinning-context.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { localToModel } from '../skeleton/local-to-model.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { POSE_KERNEL_WASM_BASE64 } from './wasm/pose-kernel-binary.ts';
import { KernelArena } from './kernel-arena.ts';
import { EmbeddedModule, kernelAbort } from '../wasm/embedded-module.ts';
import { KernelLayout } from '../wasm/kernel-layout.ts';

/**
 * How a {@link PoseKernel} computes: `'wasm-simd'`, the WebAssembly SIMD kernel (src/pose/wasm/pose-kernel.as.ts,
 * four float32 lanes per matrix column), or `'js'`, the portable functions `localToModel` and
 * `computeSkinMatrices` (double arithmetic rounded to float32 once per element).
 */
export type PoseKernelBackend = 'wasm-simd' | 'js';

/** {@link PoseKernel} settings. */
export interface PoseKernelOptions {
  /**
   * `'auto'` (default): WebAssembly SIMD where the platform compiles it, else the portable functions (no
   * WebAssembly, no SIMD, or a Content-Security-Policy without `'wasm-unsafe-eval'`). `'js'`: always portable.
   */
  readonly backend?: 'auto' | 'js';
  /**
   * Bytes of the kernel's memory set aside as its {@link PoseKernel.arena} for the character's sampling kernels
   * (WebAssembly backend only); default 0, none.
   */
  readonly arenaBytes?: number;
}

/**
 * The matrix half of the per-frame pose pipeline, for one skeleton and its skins: local pose → model-space
 * matrices (`M[i] = M[parent[i]] · T·R·S(i)`, docs/explanation/skinning-formulas.md S4) → one set of skinning matrices per skin
 * (`K = M · B⁻¹`, S0), relative to a fixed model origin O. Its buffers — {@link pose}, {@link modelMatrices},
 * {@link skinMatrices} — are allocated once, in the kernel's own WebAssembly memory when the backend is
 * `'wasm-simd'` (fixed size, never grown, so the views stay valid for the kernel's life): write the pose, call
 * {@link update}, read the matrices. Allocates nothing per frame.
 *
 * Both backends compute the same products from the same inputs; `'wasm-simd'` rounds to float32 after each
 * multiply and add (four lanes at a time) where `'js'` rounds once per element, so they differ by a few
 * float32 ulps per element (tests/unit/pose/pose-kernel.test.ts bounds the difference; bench:
 * `pose.stage_ns_per_joint.*`). The bottom rows are written 0 0 0 1 exactly by both.
 */
export class PoseKernel {
  readonly backend: PoseKernelBackend;
  readonly skeleton: Skeleton;
  readonly skins: readonly SkinAsset[];
  /**
   * The local pose read by {@link update}: `translations` `Float32Array(3n)` (the file's units, glTF: metres),
   * `rotations` `(4n)` unit quaternions x y z w, `scales` `(3n)`; joint i at 3i / 4i.
   */
  readonly pose: LocalPose;
  /** `Float32Array(16n)`: model-space matrix of joint i at 16i relative to {@link origin} (`T(−O)·M`), column-major. */
  readonly modelMatrices: Float32Array;
  /** Per skin s, `Float32Array(16·m_s)`: its skinning matrices relative to O (`T(−O)·M·B⁻¹`), column-major, skin joint i at 16i. */
  readonly skinMatrices: Float32Array[];
  /** `Float64Array(3)`: the model origin O (model space, the file's units), copied at construction. */
  readonly origin: Float64Array;
  /**
   * The region of the kernel's memory set aside by `arenaBytes` for sampling kernels and the animator's poses
   * (so that they write where {@link pose} is read, with nothing copied between memories); null without one
   * or with the `'js'` backend.
   */
  readonly arena: KernelArena | null;
  private readonly runModel: () => void;
  private readonly runListed: () => void;
  private readonly runSkins: () => void;
  /** `Int32Array(n)`: the joints {@link updateListed} computes, the first {@link listedCount} of them. */
  private readonly listed: Int32Array;
  private listedCount = 0;

  /**
   * @param skins skins over `skeleton`'s joints; their inverse bind matrices are copied now (later edits are not seen)
   * @param origin the model origin O (`computeModelOrigin`), model space in the file's units; default (0, 0, 0)
   * @param options which backend to use (default `'auto'`: WebAssembly SIMD where the platform compiles it)
   * @throws RangeError when a skin names a joint outside the skeleton
   */
  constructor(skeleton: Skeleton, skins: readonly SkinAsset[], origin?: ArrayLike<number>, options: PoseKernelOptions = {}) {
    const n = skeleton.jointCount;
    for (const skin of skins) {
      for (const j of skin.joints) {
        if (!(j >= 0 && j < n)) throw new RangeError(`PoseKernel: skin "${skin.name}" names joint ${j} of a ${n}-joint skeleton`);
      }
    }
    this.skeleton = skeleton;
    this.skins = skins;
    this.origin = new Float64Array(3);
    if (origin) this.origin.set([origin[0], origin[1], origin[2]]);
    const module = options.backend === 'js' ? null : compiled.get();
    if (module) {
      const { t, r, s, parents, model, list, skinSlots, arena, arenaBytes, bytes } = poseKernelLayout(n, skins, options.arenaBytes ?? 0);
      const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
      const exports = new WebAssembly.Instance(module, { env: { memory, abort: kernelAbort } }).exports as unknown as KernelExports;
      const buffer = memory.buffer;
      this.arena = arenaBytes > 0 ? new KernelArena(memory, arena, arenaBytes) : null;
      const translations = new Float32Array(buffer, t, 3 * n), rotations = new Float32Array(buffer, r, 4 * n);
      const scales = new Float32Array(buffer, s, 3 * n);
      new Int32Array(buffer, parents, n).set(skeleton.parents);
      this.pose = { translations, rotations, scales };
      this.listed = new Int32Array(buffer, list, n);
      this.modelMatrices = new Float32Array(buffer, model, 16 * n);
      this.skinMatrices = skinSlots.map((slot, k) => {
        new Int32Array(buffer, slot.joints, slot.m).set(skins[k].joints);
        new Float32Array(buffer, slot.inverseBinds, 16 * slot.m).set(skins[k].inverseBindMatrices);
        return new Float32Array(buffer, slot.skinMatrices, 16 * slot.m);
      });
      initialisePose(this.pose);
      const [ox, oy, oz] = this.origin;
      this.runModel = () => exports.modelMatrices(n, 0, t, r, s, parents, model, ox, oy, oz);
      this.runListed = () => exports.modelMatrices(this.listedCount, list, t, r, s, parents, model, ox, oy, oz);
      this.runSkins = () => {
        for (let k = 0; k < skinSlots.length; k++) {
          const slot = skinSlots[k];
          exports.skinMatrices(slot.m, slot.joints, model, slot.inverseBinds, slot.skinMatrices);
        }
      };
      this.backend = 'wasm-simd';
    } else {
      this.arena = null;
      this.pose = { translations: new Float32Array(3 * n), rotations: new Float32Array(4 * n), scales: new Float32Array(3 * n) };
      initialisePose(this.pose);
      this.modelMatrices = new Float32Array(16 * n);
      this.listed = new Int32Array(n);
      const skinMatrices = skins.map((skin) => new Float32Array(16 * skin.joints.length));
      const contexts = skins.map((skin) => new SkinningContext(skin, this.origin));
      this.skinMatrices = skinMatrices;
      this.runModel = () => localToModel(this.modelMatrices, skeleton, this.pose, this.origin);
      this.runListed = () => localToModel(this.modelMatrices, skeleton, this.pose, this.origin, this.listed, this.listedCount);
      this.runSkins = () => {
        for (let k = 0; k < skinMatrices.length; k++) computeSkinMatrices(skinMatrices[k], this.modelMatrices, skins[k], contexts[k]);
      };
      this.backend = 'js';
    }
    this.update();
  }

  /** Recomputes {@link modelMatrices} and every skin's {@link skinMatrices} from {@link pose}. Allocates nothing. */
  update(): void {
    this.runModel();
    this.runSkins();
  }

  /**
   * The joints {@link updateListed} recomputes: `joints` copied (in increasing order, so parents come first; at
   * most the skeleton's joint count). Allocates nothing.
   * @throws RangeError for a joint outside the skeleton, or one not after the one before it
   */
  listJoints(joints: Int32Array): void {
    const n = this.skeleton.jointCount;
    if (joints.length > n) throw new RangeError(`PoseKernel: ${joints.length} joints listed, the skeleton has ${n}`);
    for (let k = 0; k < joints.length; k++) {
      if (!(joints[k] >= 0 && joints[k] < n) || (k > 0 && joints[k] <= joints[k - 1])) {
        throw new RangeError(`PoseKernel: listed joint ${joints[k]} at ${k} is outside the ${n}-joint skeleton or not after ${k > 0 ? joints[k - 1] : 'the start'}`);
      }
    }
    this.listed.set(joints);
    this.listedCount = joints.length;
  }

  /**
   * {@link update} for a pose that changed only in the joints of {@link listJoints} and their descendants (listed
   * too): their model-space matrices, from their parents' as {@link modelMatrices} holds them, then every skin's
   * skinning matrices. The other joints keep the matrices of an earlier {@link update}. Allocates nothing.
   */
  updateListed(): void {
    this.runListed();
    this.runSkins();
  }

  /** The first half of {@link update}: {@link modelMatrices} from {@link pose}. Allocates nothing. */
  updateModelMatrices(): void {
    this.runModel();
  }

  /** The second half of {@link update}: every skin's {@link skinMatrices} from {@link modelMatrices}. Allocates nothing. */
  updateSkinMatrices(): void {
    this.runSkins();
  }
}

/** The kernel module's exports (byte offsets into its memory; layout in pose-kernel.as.ts). */
interface KernelExports {
  modelMatrices(n: number, list: number, t: number, r: number, s: number, parents: number, out: number, ox: number, oy: number, oz: number): void;
  skinMatrices(m: number, joints: number, model: number, inverseBinds: number, out: number): void;
}

/** Identity pose: zero translation, identity rotation, unit scale. */
function initialisePose(pose: LocalPose): void {
  pose.scales.fill(1);
  for (let i = 3; i < pose.rotations.length; i += 4) pose.rotations[i] = 1;
}

const compiled = new EmbeddedModule(POSE_KERNEL_WASM_BASE64);

/**
 * The bytes of WebAssembly memory a {@link PoseKernel} on the `'wasm-simd'` backend makes for a skeleton of
 * `jointCount` joints, `skins` and an arena of `arenaBytes` (whole 64 KiB pages): what the memory budget counts
 * for posing a model (src/pose/model-working-memory.ts). The `'js'` backend holds about as much in arrays.
 */
export function poseKernelBytes(jointCount: number, skins: readonly SkinAsset[], arenaBytes: number): number {
  return 65536 * Math.max(1, Math.ceil(poseKernelLayout(jointCount, skins, arenaBytes).bytes / 65536));
}

/**
 * Byte offsets of the kernel's arrays for n joints: the local pose (translations, rotations, scales), parents,
 * model matrices, the listed joints, per skin its joints, inverse bind and skinning matrices, then the arena
 * (`arenaBytes` rounded up to 16); and the memory they need.
 */
function poseKernelLayout(n: number, skins: readonly SkinAsset[], arenaBytesAsked: number) {
  const layout = new KernelLayout();
  const t = layout.words(3 * n), r = layout.words(4 * n), s = layout.words(3 * n);
  const parents = layout.words(n), model = layout.words(16 * n), list = layout.words(n);
  const skinSlots = skins.map((skin) => {
    const m = skin.joints.length;
    return { m, joints: layout.words(m), inverseBinds: layout.words(16 * m), skinMatrices: layout.words(16 * m) };
  });
  const arenaBytes = Math.max(0, Math.ceil(arenaBytesAsked / 16) * 16), arena = layout.words(arenaBytes >> 2);
  return { t, r, s, parents, model, list, skinSlots, arena, arenaBytes, bytes: layout.bytes };
}
