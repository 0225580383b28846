// AssemblyScript source of the blending kernel: the WebAssembly SIMD back end of `blendLayers`' two-layer
// crossfade without per-joint weights (src/animation/blending-job.ts `blendTwo` holds the formulas and the
// portable back end). Compiled by `npm run build:wasm` into blending-kernel-binary.ts; a unit test keeps the two
// in step. Not type-checked by tsc (AssemblyScript types); `asc` checks it.
//
// Layout (byte offsets into the memory of a pose kernel's arena, each array 16-byte aligned and padded to a
// whole v128, as KernelLayout and KernelArena.createPose lay them): per pose translations f32[3n], rotations
// f32[4n] (x y z w), scales f32[3n]; the two normalised weights ka, kb as f64 at `weights`.

@inline function sum4(v: v128): f32 {
  return (f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1)) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

/**
 * out = ka·a + kb·b for translations and scales (four floats at a time, padding included); rotations
 * normalize(ka·q_a ± kb·q_b), q_b negated when q_a·q_b < 0 (one joint per v128). `out` may be a's or b's pose.
 */
export function blendTwo(n: i32, weights: usize, ot: usize, or: usize, os: usize, at: usize, ar: usize, as: usize, bt: usize, br: usize, bs: usize): void {
  const ka = <f32>load<f64>(weights), kb = <f32>load<f64>(weights, 8);
  const va = f32x4.splat(ka), vb = f32x4.splat(kb);
  const m = (3 * n + 3) >> 2;
  for (let i = 0; i < m; i++) {
    const o = <usize>i << 4;
    v128.store(ot + o, f32x4.add(f32x4.mul(va, v128.load(at + o)), f32x4.mul(vb, v128.load(bt + o))));
    v128.store(os + o, f32x4.add(f32x4.mul(va, v128.load(as + o)), f32x4.mul(vb, v128.load(bs + o))));
  }
  for (let j = 0; j < n; j++) {
    const o = <usize>j << 4;
    const a = v128.load(ar + o), b = v128.load(br + o);
    const k = sum4(f32x4.mul(a, b)) < 0 ? -kb : kb;
    const q = f32x4.add(f32x4.mul(va, a), f32x4.mul(f32x4.splat(k), b));
    const len2 = sum4(f32x4.mul(q, q));
    const inv: f32 = len2 > 0 ? <f32>1 / Mathf.sqrt(len2) : 0;
    v128.store(or + o, f32x4.mul(q, f32x4.splat(inv)));
  }
}
