/**
 * The build that child processes run: `dist/`, made by `npm run build` (vitest's global setup,
 * test/global-setup.ts, brings it up to date once before any test file starts). Child processes
 * cannot load TypeScript, and compiling a private copy per test file cost a tsc run each.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The built CLI. VENUE_ETL_E2E_CLI points at another build of the same sources (e.g. one made
 * with `tsc --outDir` beside a `sql/` link), for when `dist/` is being rebuilt while tests run.
 */
export const CLI = process.env.VENUE_ETL_E2E_CLI ?? join(REPO_ROOT, 'dist', 'src', 'cli.js');

/** A module of the same build as the CLI, by its path under `src/` (e.g. `warehouse/index.js`), as an import() URL. */
export function builtModule(pathUnderSrc: string): string {
  return pathToFileURL(join(dirname(CLI), pathUnderSrc)).href;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm run build)`);
}
