import { defineConfig } from 'vitest/config';

/**
 * Two projects in one run: `npm test` runs both; `--project suite` or `--project reliability`
 * runs one. The reliability cases (test/reliability, RELIABILITY.md) are few, long and spawn
 * many child processes; kept apart they can be run, sized (VENUE_ETL_RELIABILITY=full) and
 * limited on their own.
 */
export default defineConfig({
  test: {
    // dist/ built once before any file: the tests run the built CLI as child processes.
    globalSetup: ['test/global-setup.ts'],
    // Tests start real servers and DuckDB files; on a 2-core machine two workers is the sweet spot.
    pool: 'forks',
    maxWorkers: 2,
    // Hang detectors, not speed checks (speed is measured in `npm run bench`): a case that takes
    // 10-20 s on a quiet 2-core machine took 60-150 s while both cores ran other work (load
    // average 15-21), and 60 s failed such cases with nothing wrong but the load.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/reliability/**'],
          // A worker keeps the modules it imported for its next file: importing DuckDB, zod and
          // the sources again for every file was the larger part of the fast folders' time
          // (unit, api, simulator, warehouse, receiver, scheduler: 52.7 → 32.4 CPU-s, import
          // 27.5 → 7.1 s). Test files keep no state in shared modules; each makes its own temp
          // dirs, servers and warehouses.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'] } },
    ],
  },
});
