/**
 * A deterministic pseudo-random generator (mulberry32): the same seed gives the same sequence on every
 * platform, so generated models are reproducible (no `Math.random`).
 *
 * @param seed any 32-bit integer
 * @returns a function giving the next number of the sequence, uniform in [0, 1)
 */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
