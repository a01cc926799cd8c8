import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Safety nets for a hang, not limits on speed: no test may fail because a busy host is slow.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two cores here and in CI: keep parallelism modest so real-server tests stay stable.
    maxWorkers: 2,
  },
});
