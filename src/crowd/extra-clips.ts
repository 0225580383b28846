/**
 * A crowd's extra clips per instance, beyond its clip and its blended clip (`CrowdOptions.clipsPerInstance` − 2 of
 * them, E): instance k's extra clip j at `E·k + j` in each array — its clip (index into the model's clips, −1 the
 * rest pose), seconds into it, and its weight eⱼ. Live, when the instance's blend weight w > 0 and e₀ > 0, its
 * pose blends its clip at 1 − w − Σ eⱼ (left out when ≤ 0), its blended clip at w and its extra clips up to the
 * first at weight 0, as `blendLayers` blends normal layers (the crowd kernel's `manyClips`, `InstanceBlend` in
 * JavaScript); otherwise its two clips alone. Baked mode draws its two clips alone. An animation graph writes
 * them (`CrowdAnimationGraph`).
 */
export class ExtraClips {
  /** Extra clips per instance E. */
  readonly count: number;
  /** `Int16Array(E·capacity)`. */
  readonly clipIndices: Int16Array;
  /** `Float64Array(E·capacity)`, seconds. */
  readonly times: Float64Array;
  /** `Float32Array(E·capacity)`, each in [0, 1]. */
  readonly weights: Float32Array;

  /** @param arrays the three arrays where they must live (the crowd kernel's memory), else new ones */
  constructor(count: number, capacity: number, arrays?: { clipIndices: Int16Array; times: Float64Array; weights: Float32Array }) {
    this.count = count;
    this.clipIndices = arrays?.clipIndices ?? new Int16Array(count * capacity);
    this.times = arrays?.times ?? new Float64Array(count * capacity);
    this.weights = arrays?.weights ?? new Float32Array(count * capacity);
  }
}
