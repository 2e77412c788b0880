import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors/index.js';
import { didYouMean } from '../infra/did-you-mean.js';
import { sqlDir } from '../warehouse/sql-files.js';

/** `sql/reports/NAME.sql` or `sql/checks/NAME.sql`: a query a person can also run in the DuckDB CLI. */
export interface NamedSql {
  readonly name: string;
  /** The file's first line, `-- <description>`. */
  readonly description: string;
  readonly file: string;
  readonly text: string;
}

export type NamedSqlKind = 'reports' | 'checks';

export function listNamedSql(kind: NamedSqlKind): NamedSql[] {
  const dir = join(sqlDir(), kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => readNamedSql(join(dir, file)));
}

export function loadNamedSql(kind: NamedSqlKind, name: string): NamedSql {
  const found = listNamedSql(kind).find((entry) => entry.name === name);
  if (found) return found;
  const known = listNamedSql(kind).map((entry) => entry.name);
  throw new UsageError(`no ${kind === 'reports' ? 'report' : 'check'} named "${name}"${didYouMean(name, known)}`, `known: ${known.join(', ')}`);
}

function readNamedSql(file: string): NamedSql {
  const text = readFileSync(file, 'utf8');
  const first = text.split('\n', 1)[0] ?? '';
  const name = file.replace(/^.*[\\/]/, '').replace(/\.sql$/, '');
  return { name, description: first.replace(/^--\s?/, '').trim(), file, text };
}
