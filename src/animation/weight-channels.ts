import type { Interpolation } from '../asset/animation-clip.ts';
import { hermiteIntervals } from './hermite-intervals.ts';

/** Codes of {@link WeightChannels.modes}. */
export const WEIGHT_MODE = { CUBIC: 0, LINEAR: 1, STEP: 2 } as const;

/**
 * A clip's morph `weights` channels (all kinds, BEZIER only with handles at thirds in time) laid out for the sampling kernel: each channel's n
 * weights share its timeline, so the kernel finds the interval once per channel (a cursor, as the portable
 * loops do) and interpolates its weights four per f32x4 — the channel's components are its SIMD lanes, where
 * the joint channels' tracks are (docs/explanation/animation-sampling.md). Built by `compileClip` (RuntimeClip.weightChannels).
 */
export class WeightChannels {
  /** Channels laid out. */
  readonly count: number;
  /**
   * The channels' key times and intervals, 16-byte aligned blocks of f32: per channel its key times (K, padded
   * to a multiple of 4), then per interval k `[v_k, Δ·m_k, v_{k+1}, Δ·m_{k+1}]` (`hermiteIntervals`, each n
   * weights padded with zeros to n4 = 4⌈n/4⌉), then the last key's values (n4): (4(K − 1) + 1)·n4 floats.
   */
  readonly data: ArrayBuffer;
  /** `Int32Array(count)`: each channel's key times, as a word offset into {@link data}. */
  readonly timesAt: Int32Array;
  /** `Int32Array(count)`: each channel's key count K ≥ 1. */
  readonly keys: Int32Array;
  /** `Int32Array(count)`: each channel's intervals, as a word offset into {@link data}. */
  readonly valuesAt: Int32Array;
  /** `Int32Array(count)`: each channel's weight count n (its morph target count). */
  readonly weights: Int32Array;
  /** `Int32Array(count)`: {@link WEIGHT_MODE}: the Hermite cubic, the lerp, or STEP's held v_k. */
  readonly modes: Int32Array;
  /** `Int32Array(count)`: each channel's first morph weight (`AnimationChannel.morphWeightOffset`). */
  readonly offsets: Int32Array;

  /**
   * @param channels each `weights` channel: interpolation (BEZIER only at thirds: `hasHermiteForm`), key times (`Float32Array(K)`, strictly
   *   increasing seconds), values (`AnimationChannel.values` layout, c = n), n and first morph weight
   * @throws Error for BEZIER off thirds (`hermiteIntervals`)
   */
  constructor(channels: readonly WeightChannel[]) {
    this.count = channels.length;
    const pad = (n: number): number => (n + 3) & ~3;
    let words = 0;
    const timesAt: number[] = [], valuesAt: number[] = [];
    for (const ch of channels) {
      timesAt.push(words);
      words += pad(ch.times.length);
      valuesAt.push(words);
      words += (4 * (ch.times.length - 1) + 1) * pad(ch.count);
    }
    this.data = new ArrayBuffer(4 * words);
    const f = new Float32Array(this.data);
    channels.forEach((ch, i) => {
      const n = ch.count, n4 = pad(n), keys = ch.times.length;
      f.set(ch.times, timesAt[i]);
      const intervals = hermiteIntervals(ch.interpolation, ch.times, ch.values, n, false);
      for (let block = 0; block < 4 * (keys - 1); block++) f.set(intervals.subarray(block * n, block * n + n), valuesAt[i] + block * n4);
      f.set(ch.values.subarray(ch.lastAt, ch.lastAt + n), valuesAt[i] + 4 * (keys - 1) * n4);
    });
    this.timesAt = Int32Array.from(timesAt);
    this.keys = Int32Array.from(channels, (ch) => ch.times.length);
    this.valuesAt = Int32Array.from(valuesAt);
    this.weights = Int32Array.from(channels, (ch) => ch.count);
    this.modes = Int32Array.from(channels, (ch) => (ch.interpolation === 'STEP' ? WEIGHT_MODE.STEP : ch.interpolation === 'LINEAR' ? WEIGHT_MODE.LINEAR : WEIGHT_MODE.CUBIC));
    this.offsets = Int32Array.from(channels, (ch) => ch.offset);
    Object.freeze(this);
  }
}

/** One channel of {@link WeightChannels}. */
export interface WeightChannel {
  readonly interpolation: Interpolation;
  /** `Float32Array(K)`, K ≥ 1: strictly increasing key times, seconds. */
  readonly times: Float32Array;
  /** `AnimationChannel.values` for `interpolation` with c = {@link count}. */
  readonly values: Float32Array;
  /** The last key's value's index in {@link values}. */
  readonly lastAt: number;
  /** Weights n. */
  readonly count: number;
  /** The first morph weight written. */
  readonly offset: number;
}
