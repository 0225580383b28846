/**
 * Development only, for the test hook `injectPaletteError` (test-hooks.ts): deliberately wrong skin matrices
 * for the GPU side of the viewer's GPU-vs-CPU readout, to see the readout react. Imported only under
 * `import.meta.env.DEV`, so production builds leave it out (tests/unit/cli/shipped-bundles.test.ts checks).
 */

/** Per readout owner (the viewer's `Inspection`), the offset added to every skin matrix's translation. */
const offsets = /* @__PURE__ */ new WeakMap<object, number>();

/** Sets the offset (model units) `owner`'s readout adds to every skin matrix's translation; 0 restores it. */
export function setSkinMatricesTamper(owner: object, offset: number): void {
  offsets.set(owner, offset);
}

/**
 * `skinMatrices` as `owner`'s readout gives them to the GPU: itself without an offset, else a copy with the offset
 * added to each matrix's translation (column-major `Float32Array(16·m)`).
 */
export function tamperedSkinMatrices(owner: object, skinMatrices: Float32Array): Float32Array {
  const offset = offsets.get(owner) ?? 0;
  if (offset === 0) return skinMatrices;
  const tampered = skinMatrices.slice();
  for (let o = 0; o < tampered.length; o += 16) tampered[o + 12] += offset;
  return tampered;
}
