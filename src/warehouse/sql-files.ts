import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let sqlRoot: string | undefined;
const cache = new Map<string, string>();

/**
 * The package's `sql/` folder. This module runs from `src/warehouse/` (tests) and from
 * `dist/src/warehouse/` (the built CLI, installed packages), so walk up until a folder holds
 * `sql/migrations` instead of assuming a depth.
 */
export function sqlDir(): string {
  if (sqlRoot !== undefined) return sqlRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'sql');
    if (existsSync(join(candidate, 'migrations'))) {
      sqlRoot = candidate;
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`cannot find the sql/migrations folder above ${fileURLToPath(import.meta.url)}`);
    }
    dir = parent;
  }
}

/** A file under `sql/`, read once per process (`sql('warehouse/series-insert.sql')`). */
export function sql(relativePath: string): string {
  let text = cache.get(relativePath);
  if (text === undefined) {
    text = readFileSync(join(sqlDir(), relativePath), 'utf8');
    cache.set(relativePath, text);
  }
  return text;
}
