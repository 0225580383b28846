import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { decoderModules } from './build/decoder-modules-plugin.ts';

// Each project gets the plugins the sources need (inline projects do not inherit the root's).
// Hooks get a test's time: some build (shipped-bundles.test.ts builds the demo app in beforeAll), which vitest's
// 10 s default does not cover on a loaded 2-core machine.
// Each test file in a worker thread, not a child process: a file is still isolated (a module graph of its own),
// while a thread skips a node process's start-up and is cheaper in CPU time on the 2-core CI machine. No test
// changes the working directory or the environment of its process; those that need a process of their own (the
// `sinew` command, the allocation probes) spawn one.
const common = { environment: 'node', pool: 'threads', testTimeout: 60_000, hookTimeout: 60_000 } as const;
const plugins = [decoderModules()];

export default defineConfig({
  test: {
    // One test file per core, as Playwright runs one worker per core: vitest's default (cores − 1) ran one file at a
    // time on a 2-core machine, leaving a core idle while the runner process waits.
    maxWorkers: availableParallelism(),
    projects: [
      { plugins, test: { ...common, name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: ['tests/unit/cli/**'] } },
      // The command tests spawn the shipped dist/cli.js: their project builds the package first, unless dist/ is fresh.
      { plugins, test: { ...common, name: 'cli', include: ['tests/unit/cli/**/*.test.ts'], globalSetup: ['tests/helpers/fresh-build.ts'] } },
    ],
  },
});
