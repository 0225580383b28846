import { expect, test } from '@playwright/test';
import { openHarness } from '../helpers/harness.ts';
import type { SkinningKernelReport } from '../pages/skinning-kernel.ts';

// SkinningKernel (src/skinning/skinning-kernel.ts) in Chromium: the WebAssembly SIMD backend compiles on the
// main thread and matches the reference skinVertices within float32 ulps, LBS and DQS (the bound of
// tests/unit/skinning/skinning-kernel.test.ts); where a Content-Security-Policy forbids WebAssembly it falls
// back to skinVertices itself instead of failing.

const report = (page: import('@playwright/test').Page) =>
  page.evaluate(() => (window as unknown as { skinningKernelReport: () => SkinningKernelReport }).skinningKernelReport());

test('the page gets the WebAssembly SIMD backend, within float32 ulps of skinVertices', async ({ page }) => {
  await openHarness(page, '/tests/browser/pages/skinning-kernel.html', 'sinewKernelReady');
  const result = await report(page);
  expect(result.backend).toBe('wasm-simd');
  expect(result.extent).toBeGreaterThan(0.1);
  expect(result.maxPositionDifference).toBeLessThan(2 ** -18 * Math.max(1, result.extent));
  expect(result.maxDirectionDifference).toBeLessThan(2 ** -18);
});

test('under a CSP without wasm-unsafe-eval the kernel falls back to skinVertices', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openHarness(page, '/tests/browser/pages/skinning-kernel-strict-csp.html', 'sinewKernelReady');
  const result = await report(page);
  expect(result.backend).toBe('js');
  expect(result.maxPositionDifference).toBe(0);
  expect(result.maxDirectionDifference).toBe(0);
  expect(errors).toEqual([]);
});
