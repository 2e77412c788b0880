import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files inlined into every page, in the order they are inlined. */
export const ASSET_FILES = {
  style: 'dashboard.css',
  charts: 'charts.js',
  hover: 'hover.js',
  figures: 'figures.js',
  health: 'health.js',
  controls: 'controls.js',
  page: 'dashboard.js',
} as const;

/** The scripts, in the order the page runs them (dashboard.js uses the others' globals). */
export const SCRIPT_FILES = [ASSET_FILES.charts, ASSET_FILES.hover, ASSET_FILES.figures, ASSET_FILES.health, ASSET_FILES.controls, ASSET_FILES.page] as const;

let assetRoot: string | undefined;

/**
 * `src/dashboard/assets/`. This module runs from `src/dashboard/` (tests) and from
 * `dist/src/dashboard/` (the built CLI), so walk up to the folder that holds the package's
 * `src/dashboard/assets` instead of assuming a depth (as `sqlDir` does for `sql/`).
 */
export function assetDir(): string {
  if (assetRoot !== undefined) return assetRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'src', 'dashboard', 'assets');
    if (existsSync(join(candidate, ASSET_FILES.page))) {
      assetRoot = candidate;
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find src/dashboard/assets above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export function readAsset(name: (typeof ASSET_FILES)[keyof typeof ASSET_FILES]): string {
  return readFileSync(join(assetDir(), name), 'utf8');
}
