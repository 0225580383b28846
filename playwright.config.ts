import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium } from './src/node/find-chromium.ts';

/** A port the system has free now: the kernel picks it for a listener on port 0, which is then closed. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// Each run serves this checkout on a port of its own, chosen once in the runner process: workers load this file
// again and inherit the variable, so they all reach the same server. A fixed port let a run test another checkout's
// server (and fail with ERR_CONNECTION_REFUSED, unexplained, once that server stopped).
process.env.SINEW_TEST_PORT ??= String(await freePort());
const port = Number(process.env.SINEW_TEST_PORT);
// The built site (`npm run docs`) for the gallery's specs (tests/browser/gallery/), on a port of its own chosen alike.
process.env.SINEW_SITE_PORT ??= String(await freePort());
const sitePort = Number(process.env.SINEW_SITE_PORT);
const chromium = await findChromium();
if (!chromium) throw new Error(`sinew: ${NO_CHROMIUM_MESSAGE}`);

/**
 * Specs that time the page (input latency while loading, benchmark pages): the `timed` project runs them after every
 * other spec (its dependency, which a failure there skips them), one at a time, so no other worker shares the cores
 * while they measure. Run one alone with `--no-deps` (`npx playwright test scene/many-nodes --no-deps`).
 */
const TIMED = ['scene/many-nodes.spec.ts', 'crowd/crowd-bench.spec.ts'];

export default defineConfig({
  testDir: 'tests/browser',
  // Builds the package once unless dist/ is fresh (after `npm ci`, whose `prepare` built it, nothing is built).
  globalSetup: './tests/helpers/fresh-build.ts',
  timeout: 180_000,
  // SwiftShader renders deterministically with the pinned browser: a small per-pixel threshold keeps goldens
  // sensitive to shading changes, not just to moved silhouettes.
  expect: { timeout: 30_000, toHaveScreenshot: { maxDiffPixelRatio: 0.01, threshold: 0.02 } },
  // Every test on its own in any worker, one worker per core: specs share no state (each serves its files on a port
  // of its own, writes under a temporary folder or test-results/ by a name of its own). A spec whose tests share
  // state says so with `test.describe.configure({ mode: 'serial' })`.
  fullyParallel: true,
  workers: availableParallelism(),
  retries: 0,
  reporter: [['list']],
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
  projects: [
    { name: 'browser', testIgnore: TIMED },
    { name: 'timed', testMatch: TIMED, dependencies: ['browser'], workers: 1 },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 640, height: 480 },
    deviceScaleFactor: 1,
    launchOptions: { executablePath: chromium.executablePath, args: [...CHROMIUM_ARGS] },
  },
  webServer: [
    {
      command: `npx vite --port ${port} --strictPort --host 127.0.0.1`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      command: `node --import tsx tests/browser/helpers/static-site-server.ts site ${sitePort}`,
      // Answered whether site/ is built or not: without it the gallery's specs say what is missing.
      url: `http://127.0.0.1:${sitePort}/.server-ready`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
