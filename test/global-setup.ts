/**
 * Brings `dist/` up to date once, before any test file starts: tests run the built CLI (and
 * built modules) as child processes. `tsc -b` compiles only when a source is newer than the last
 * build (a no-op check takes about 0.5 s), so after `npm run build` (CI, `npm ci`'s prepare)
 * nothing is compiled again. A build with type errors stops the run, as a failed build would.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { assertBuilt, REPO_ROOT } from './dist.js';
import { stopS3ServerIfStarted } from './s3-server.js';

// Each vitest project runs the global setup; one check per run is enough.
const CHECKED = Symbol.for('venue-etl.test.dist-checked');

/** The teardown stops the S3-compatible server when an object-store test started it (test/s3-server.ts). */
export default function setup(): (() => Promise<void>) | undefined {
  const state: Record<symbol, unknown> = globalThis;
  if (state[CHECKED]) return undefined;
  state[CHECKED] = true;
  // Another build of the same sources, chosen on purpose: leave dist/ alone.
  if (process.env.VENUE_ETL_E2E_CLI) {
    assertBuilt();
    return stopS3ServerIfStarted;
  }
  try {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.json'], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
      encoding: 'utf8',
    });
  } catch (error) {
    const output = error instanceof Error && 'stdout' in error ? String(error.stdout) : String(error);
    throw new Error(`npm run build failed; the tests run the build, so fix it first:\n${output}`, { cause: error });
  }
  assertBuilt();
  return stopS3ServerIfStarted;
}
