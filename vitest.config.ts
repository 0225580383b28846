import { defineConfig } from 'vitest/config';

const common = { environment: 'node', testTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    projects: [
      { test: { ...common, name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: ['tests/unit/cli/**'] } },
      // The command tests spawn the shipped dist/cli.js: their project builds the package first.
      { test: { ...common, name: 'cli', include: ['tests/unit/cli/**/*.test.ts'], globalSetup: ['tests/unit/setup/build-library.ts'] } },
    ],
  },
});
