import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores here and in CI: keep parallelism modest so real-server tests stay stable.
    maxWorkers: 2,
  },
});
