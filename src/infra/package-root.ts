import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const PackageJson = z.object({ name: z.string(), version: z.string() });

export interface PackageInfo {
  /** The folder that holds package.json, `sql/` and `jobs/`. */
  readonly root: string;
  readonly version: string;
}

let found: PackageInfo | undefined;

/**
 * The installed package's root folder and version. Code runs from `src/` (tests) and from
 * `dist/src/` (the built CLI, installed packages), so walk up from this module to the first
 * package.json named venue-etl instead of assuming a depth.
 */
export function packageInfo(): PackageInfo {
  if (found !== undefined) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const parsed = PackageJson.safeParse(readJson(join(dir, 'package.json')));
    if (parsed.success && parsed.data.name === 'venue-etl') {
      found = { root: dir, version: parsed.data.version };
      return found;
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the venue-etl package.json above ${start}`);
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // No (readable) package.json at this level: keep walking up.
    return undefined;
  }
}
