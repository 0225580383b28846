import { expect, test } from '@playwright/test';
import { openHarness } from '../helpers/harness.ts';
import type { KernelReport } from '../pages/pose-kernel.ts';

// PoseKernel (src/pose/pose-kernel.ts) in Chromium: the WebAssembly SIMD backend compiles synchronously on
// the main thread and matches the portable functions; where a Content-Security-Policy forbids WebAssembly the
// kernel falls back to the portable backend instead of failing.

const report = (page: import('@playwright/test').Page) =>
  page.evaluate(() => (window as unknown as { poseKernelReport: () => KernelReport }).poseKernelReport());

test('the page gets the WebAssembly SIMD backend, within float32 ulps of the portable one', async ({ page }) => {
  await openHarness(page, '/tests/browser/pages/pose-kernel.html', 'sinewKernelReady');
  const result = await report(page);
  expect(result.backend).toBe('wasm-simd');
  expect(result.maxMagnitude).toBeGreaterThan(0.1);
  expect(result.maxDifference).toBeLessThan(2 ** -18 * Math.max(1, result.maxMagnitude));
});

test('under a CSP without wasm-unsafe-eval the kernel falls back to the portable backend', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openHarness(page, '/tests/browser/pages/pose-kernel-strict-csp.html', 'sinewKernelReady');
  const result = await report(page);
  expect(result.backend).toBe('js');
  expect(result.maxDifference).toBe(0);
  expect(errors).toEqual([]);
});
