import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    globalSetup: ['tests/unit/setup/build-library.ts'],
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
});
