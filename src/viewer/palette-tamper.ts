/**
 * Development only, for the test hook `injectPaletteError` (test-hooks.ts): a deliberately wrong palette for
 * the GPU side of the viewer's GPU-vs-CPU readout, to see the readout react. Imported only under
 * `import.meta.env.DEV`, so production builds leave it out (tests/unit/cli/shipped-bundles.test.ts checks).
 */

/** Per readout owner (the viewer's `Inspection`), the offset added to every palette translation. */
const offsets = /* @__PURE__ */ new WeakMap<object, number>();

/** Sets the offset (model units) `owner`'s readout adds to every palette matrix's translation; 0 restores it. */
export function setPaletteTamper(owner: object, offset: number): void {
  offsets.set(owner, offset);
}

/**
 * `palette` as `owner`'s readout gives it to the GPU: itself without an offset, else a copy with the offset
 * added to each matrix's translation (column-major `Float32Array(16·m)`).
 */
export function tamperedPalette(owner: object, palette: Float32Array): Float32Array {
  const offset = offsets.get(owner) ?? 0;
  if (offset === 0) return palette;
  const tampered = palette.slice();
  for (let o = 0; o < tampered.length; o += 16) tampered[o + 12] += offset;
  return tampered;
}
