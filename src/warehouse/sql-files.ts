import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageInfo } from '../infra/package-root.js';

const cache = new Map<string, string>();

/** The package's `sql/` folder. */
export function sqlDir(): string {
  return join(packageInfo().root, 'sql');
}

/** A file under `sql/`, read once per process (`sql('warehouse/series-insert.sql')`), its includes expanded. */
export function sql(relativePath: string): string {
  let text = cache.get(relativePath);
  if (text === undefined) {
    text = expandIncludes(readFileSync(join(sqlDir(), relativePath), 'utf8'));
    cache.set(relativePath, text);
  }
  return text;
}

const INCLUDE = /^-- @include ([a-z0-9_/.-]+\.sql)[ \t]*$/gm;

/**
 * Replaces each `-- @include dir/file.sql` line by that file's text (itself expanded): how one
 * SQL text is used in several statements without being copied, e.g. the definition of the
 * series_daily rollup (sql/rollups/series-daily-of.sql) in its migration, its refresh and the
 * Parquet read side's view. Outside venue-etl (the DuckDB CLI) the line is a comment.
 */
export function expandIncludes(text: string): string {
  return text.replace(INCLUDE, (_line, path: string) => sql(path).replace(/\s+$/, ''));
}
