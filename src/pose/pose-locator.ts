import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Where the poses a kernel is handed lie in its memory, remembered per pose: reading a typed array's `buffer`
 * and `byteOffset` costs far more per frame than comparing the arrays themselves, so each pose's answer is
 * looked up by its arrays' identity among the last {@link CAPACITY} poses seen (an animator hands a kernel the
 * same few poses every frame), and worked out only for a pose not among them. Allocates nothing per lookup.
 */
export class PoseLocator {
  private readonly buffer: ArrayBuffer;
  private readonly translations: (Float32Array | null)[] = new Array<Float32Array | null>(CAPACITY).fill(null);
  private readonly rotations: (Float32Array | null)[] = new Array<Float32Array | null>(CAPACITY).fill(null);
  private readonly scales: (Float32Array | null)[] = new Array<Float32Array | null>(CAPACITY).fill(null);
  /**
   * `Int32Array(3·CAPACITY)`: per remembered pose the byte offsets of its translations, rotations and scales,
   * or −1 in the first when the pose is not in the memory (or not 16-byte aligned: the kernels move whole v128s).
   */
  readonly offsets = new Int32Array(3 * CAPACITY);
  private next = 0;

  /** @param buffer the kernel's memory (a WebAssembly memory that never grows keeps one buffer) */
  constructor(buffer: ArrayBuffer) {
    this.buffer = buffer;
  }

  /** The index i of `pose` in {@link offsets} (its translations' offset at 3i, −1 when it is elsewhere). */
  find(pose: LocalPose): number {
    const t = pose.translations, r = pose.rotations, s = pose.scales;
    for (let i = 0; i < CAPACITY; i++) {
      if (this.translations[i] === t && this.rotations[i] === r && this.scales[i] === s) return i;
    }
    const i = this.next;
    this.next = (i + 1) % CAPACITY;
    this.translations[i] = t; this.rotations[i] = r; this.scales[i] = s;
    const buffer = this.buffer, inside = t.buffer === buffer && r.buffer === buffer && s.buffer === buffer
      && ((t.byteOffset | r.byteOffset | s.byteOffset) & 15) === 0;
    this.offsets[3 * i] = inside ? t.byteOffset : -1;
    this.offsets[3 * i + 1] = r.byteOffset;
    this.offsets[3 * i + 2] = s.byteOffset;
    return i;
  }
}

/** Poses remembered: an animator's output, its layers' and its slots' poses. */
const CAPACITY = 8;
