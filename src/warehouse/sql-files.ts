import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageInfo } from '../infra/package-root.js';

const cache = new Map<string, string>();

/** The package's `sql/` folder. */
export function sqlDir(): string {
  return join(packageInfo().root, 'sql');
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
