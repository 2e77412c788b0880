/**
 * Reading a warehouse file between CLI runs (read-only, closed again at once: the next run
 * needs the write lock) and comparing what it holds with what it should hold.
 */
import { DuckDBInstance } from '@duckdb/node-api';

export type Row = Record<string, unknown>;

/**
 * Opens the file read-only, runs the queries, closes it again (so the next CLI run can take
 * the write lock). Rows are JSON-safe: cast BIGINT/HUGEINT in SQL to read them as numbers/strings.
 */
export async function queryWarehouse<T extends readonly string[]>(path: string, ...sql: T): Promise<{ [K in keyof T]: Row[] }> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const results: Row[][] = [];
      for (const statement of sql) results.push((await connection.runAndReadAll(statement)).getRowObjectsJson() as Row[]);
      return results as { [K in keyof T]: Row[] };
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

export async function queryRows(path: string, sql: string): Promise<Row[]> {
  const [rows] = await queryWarehouse(path, sql);
  return rows;
}

/** Key and value columns of each table: what two warehouses holding the same data agree on. */
export const CONTENT_COLUMNS = {
  series_points: 'venue_id, stream, metric, granularity, ts, value',
  summary_values: 'venue_id, stream, metric, period_start, period_end, value',
  sync_cursors: 'stream, scope_id, cursor_date',
  current_venue_roles: 'role_id, venue_id, account_id, name, inherited_from, permissions',
  current_project_roles: 'role_id, project_id, account_id, name, permissions',
  accounts: 'account_id, email, full_name, confirmed_at, language, roles_names, tags::VARCHAR, created_by_id, is_me',
} as const;

/** Content plus who wrote it and when: unchanged only if nothing was rewritten. */
export const WRITTEN_COLUMNS = {
  series_points: `${CONTENT_COLUMNS.series_points}, run_id, loaded_at`,
  summary_values: `${CONTENT_COLUMNS.summary_values}, run_id, loaded_at`,
  sync_cursors: `${CONTENT_COLUMNS.sync_cursors}, updated_at, run_id`,
  venue_roles: 'role_id, venue_id, account_id, name, inherited_from, permissions, valid_from, valid_to, run_id',
  project_roles: 'role_id, project_id, account_id, name, permissions, valid_from, valid_to, run_id',
  accounts: `${CONTENT_COLUMNS.accounts}, first_seen_at, run_id`,
} as const;

export type Checksums = Record<string, { rows: number; hash: string }>;

/** Row count and an order-independent hash of the given columns, per table. */
export async function checksums(path: string, columns: Readonly<Record<string, string>> = CONTENT_COLUMNS): Promise<Checksums> {
  const tables = Object.keys(columns);
  const rows = await queryWarehouse(
    path,
    ...tables.map((table) => `SELECT count(*)::INTEGER AS n, coalesce(sum(hash(${columns[table]})), 0)::VARCHAR AS h FROM ${table}`),
  );
  return Object.fromEntries(tables.map((table, i) => [table, { rows: Number(rows[i]![0]!.n), hash: String(rows[i]![0]!.h) }]));
}

/** Keys that occur more than once in the fact tables (must be none). */
export async function duplicateKeys(path: string): Promise<{ series: number; summaries: number; cursors: number }> {
  const [series, summaries, cursors] = await queryWarehouse(
    path,
    `SELECT count(*)::INTEGER AS n FROM (SELECT 1 FROM series_points GROUP BY venue_id, stream, metric, granularity, ts HAVING count(*) > 1)`,
    `SELECT count(*)::INTEGER AS n FROM (SELECT 1 FROM summary_values GROUP BY venue_id, stream, metric, period_start, period_end HAVING count(*) > 1)`,
    `SELECT count(*)::INTEGER AS n FROM (SELECT 1 FROM sync_cursors GROUP BY stream, scope_id HAVING count(*) > 1)`,
  );
  return { series: Number(series[0]!.n), summaries: Number(summaries[0]!.n), cursors: Number(cursors[0]!.n) };
}

export async function cursorsOf(path: string): Promise<Map<string, { date: string; runId: string }>> {
  const rows = await queryRows(path, `SELECT stream, scope_id, strftime(cursor_date, '%Y-%m-%d') AS d, run_id FROM sync_cursors`);
  return new Map(rows.map((row) => [`${row.stream}|${row.scope_id}`, { date: String(row.d), runId: String(row.run_id) }]));
}

export interface RunRecord {
  readonly runId: string;
  readonly job: string;
  readonly status: string;
  readonly requests: number;
  readonly retries: number;
  readonly rowsWritten: number;
  readonly errors: number;
}

export async function runsOf(path: string): Promise<RunRecord[]> {
  const rows = await queryRows(
    path,
    `SELECT run_id, job, status, requests::INTEGER AS requests, retries::INTEGER AS retries, rows_written::INTEGER AS rows_written, errors::INTEGER AS errors
     FROM sync_runs ORDER BY run_id`,
  );
  return rows.map((row) => ({
    runId: String(row.run_id),
    job: String(row.job),
    status: String(row.status),
    requests: Number(row.requests),
    retries: Number(row.retries),
    rowsWritten: Number(row.rows_written),
    errors: Number(row.errors),
  }));
}

// ---------------------------------------------------------------------------------------
// Comparing keyed values
// ---------------------------------------------------------------------------------------

export interface MapDiff {
  readonly missing: number;
  readonly extra: number;
  readonly different: number;
  /** A few examples of each, for the failure message. */
  readonly samples: readonly string[];
}

/** Compares key → value maps; equal maps give `{missing: 0, extra: 0, different: 0, samples: []}`. */
export function diffMaps(actual: ReadonlyMap<string, unknown>, expected: ReadonlyMap<string, unknown>): MapDiff {
  let missing = 0;
  let extra = 0;
  let different = 0;
  const samples: string[] = [];
  const note = (text: string): void => {
    if (samples.length < 8) samples.push(text);
  };
  for (const [key, value] of expected) {
    if (!actual.has(key)) {
      missing++;
      note(`missing ${key} (expected ${JSON.stringify(value)})`);
    } else if (!sameValue(actual.get(key), value)) {
      different++;
      note(`${key}: got ${JSON.stringify(actual.get(key))}, expected ${JSON.stringify(value)}`);
    }
  }
  for (const key of actual.keys()) {
    if (!expected.has(key)) {
      extra++;
      note(`extra ${key} = ${JSON.stringify(actual.get(key))}`);
    }
  }
  return { missing, extra, different, samples };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  return JSON.stringify(a) === JSON.stringify(b);
}

export const NO_DIFF: MapDiff = { missing: 0, extra: 0, different: 0, samples: [] };
