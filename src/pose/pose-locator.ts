import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Where the poses a kernel is handed lie in its memory, remembered per pose: reading a typed array's `buffer`
 * and `byteOffset` costs far more per frame than comparing the arrays themselves, so each pose's answer is
 * looked up by its arrays' identity among the last `capacity` poses seen (an animator hands a kernel the
 * same few poses every frame), and worked out only for a pose not among them. Allocates nothing per lookup.
 */
export class PoseLocator {
  private readonly buffer: ArrayBuffer;
  private readonly capacity: number;
  private readonly translations: (Float32Array | null)[];
  private readonly rotations: (Float32Array | null)[];
  private readonly scales: (Float32Array | null)[];
  /**
   * `Int32Array(3·capacity)`: per remembered pose the byte offsets of its translations, rotations and scales,
   * or −1 in the first when the pose is not in the memory (or not 16-byte aligned: the kernels move whole v128s).
   */
  readonly offsets: Int32Array;
  private next = 0;

  /**
   * @param buffer the kernel's memory (a WebAssembly memory that never grows keeps one buffer)
   * @param capacity poses remembered (default 8: an animator's output, its layers' and its slots' poses)
   */
  constructor(buffer: ArrayBuffer, capacity = 8) {
    this.buffer = buffer;
    this.capacity = capacity;
    this.translations = new Array<Float32Array | null>(capacity).fill(null);
    this.rotations = new Array<Float32Array | null>(capacity).fill(null);
    this.scales = new Array<Float32Array | null>(capacity).fill(null);
    this.offsets = new Int32Array(3 * capacity);
  }

  /** The index i of `pose` in {@link offsets} (its translations' offset at 3i, −1 when it is elsewhere). */
  find(pose: LocalPose): number {
    const t = pose.translations, r = pose.rotations, s = pose.scales;
    const capacity = this.capacity;
    for (let i = 0; i < capacity; i++) {
      if (this.translations[i] === t && this.rotations[i] === r && this.scales[i] === s) return i;
    }
    const i = this.next;
    this.next = (i + 1) % capacity;
    this.translations[i] = t; this.rotations[i] = r; this.scales[i] = s;
    const buffer = this.buffer, inside = t.buffer === buffer && r.buffer === buffer && s.buffer === buffer
      && ((t.byteOffset | r.byteOffset | s.byteOffset) & 15) === 0;
    this.offsets[3 * i] = inside ? t.byteOffset : -1;
    this.offsets[3 * i + 1] = r.byteOffset;
    this.offsets[3 * i + 2] = s.byteOffset;
    return i;
  }
}
