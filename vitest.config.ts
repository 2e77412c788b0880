import { defineConfig } from 'vitest/config';

// Tests start real servers and DuckDB files; on a 2-core machine two workers is the sweet spot.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
