import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium } from './src/node/find-chromium.ts';

const port = Number(process.env.SINEW_TEST_PORT ?? 5183);
const chromium = await findChromium();
if (!chromium) throw new Error(`sinew: ${NO_CHROMIUM_MESSAGE}`);

export default defineConfig({
  testDir: 'tests/browser',
  timeout: 180_000,
  // SwiftShader renders deterministically with the pinned browser: a small per-pixel threshold keeps goldens
  // sensitive to shading changes, not just to moved silhouettes.
  expect: { timeout: 30_000, toHaveScreenshot: { maxDiffPixelRatio: 0.01, threshold: 0.02 } },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 640, height: 480 },
    deviceScaleFactor: 1,
    launchOptions: { executablePath: chromium.executablePath, args: [...CHROMIUM_ARGS] },
  },
  webServer: {
    command: `npx vite --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
});
