/** One warehouse table (docs/warehouse.md) as the export writes it. */
export interface ExportTable {
  readonly name: string;
  /**
   * Hive partitions `stream=<s>/month=<YYYY-MM>/` by the month (UTC) of this column; the
   * stream travels in the path, not in the file. Unpartitioned tables are one data file (dataFileName).
   */
  readonly partitionBy?: { readonly column: string; readonly type: 'TIMESTAMPTZ' | 'DATE' };
  /** Row order inside each file: stable bytes for unchanged data and better compression. */
  readonly orderBy: readonly string[];
}

/** Every table of the contract. The current-role views are not exported: they derive from the tables. */
export const EXPORT_TABLES: readonly ExportTable[] = [
  { name: 'series_points', partitionBy: { column: 'ts', type: 'TIMESTAMPTZ' }, orderBy: ['venue_id', 'metric', 'granularity', 'ts'] },
  { name: 'summary_values', partitionBy: { column: 'period_start', type: 'DATE' }, orderBy: ['venue_id', 'metric', 'period_start', 'period_end'] },
  { name: 'venue_roles', orderBy: ['venue_id', 'role_id', 'valid_from'] },
  { name: 'project_roles', orderBy: ['project_id', 'role_id', 'valid_from'] },
  { name: 'accounts', orderBy: ['account_id'] },
  { name: 'upsert_events', orderBy: ['received_at', 'event_id'] },
  { name: 'users', orderBy: ['user_id'] },
  { name: 'venues', orderBy: ['venue_id'] },
  { name: 'user_venue_history', orderBy: ['user_id', 'venue_id'] },
  { name: 'user_venue_agreements', orderBy: ['user_id', 'venue_id', 'accepted_date', 'event_id'] },
  { name: 'sync_cursors', orderBy: ['stream', 'scope_id'] },
  { name: 'sync_runs', orderBy: ['run_id'] },
  { name: 'sync_errors', orderBy: ['run_id', 'stream', 'scope_id', 'window_from'] },
];

/**
 * A writer's id (docs/parquet.md, "Writers and shards: one lake"): `parquet.writer` (checked by the
 * config schema), then `shard<I>of<N>` when the worker runs a shard, joined by `-`; empty for
 * the default writer.
 */
export function writerId(writer: string | undefined, shard: { readonly index: number; readonly count: number } | undefined): string {
  const parts = [writer ?? '', shard === undefined ? '' : `shard${shard.index}of${shard.count}`].filter((part) => part !== '');
  return parts.join('-');
}

/** How messages name a writer. */
export function describeWriter(writer: string): string {
  return writer === '' ? 'the default writer' : `writer "${writer}"`;
}

/**
 * The name of a writer's data file in a partition (or of an unpartitioned table): `data.parquet`
 * for the default writer (folders exported before writers existed keep working), else
 * `data-<id>.parquet` beside the other writers' files, so one glob reads every writer's rows.
 * Every name the export writes, lists or parses comes from here and from isDataFileName.
 */
export function dataFileName(writer = ''): string {
  return writer === '' ? 'data.parquet' : `data-${writer}.parquet`;
}

/** Whether a file name below a table is a data file of any writer (never removed as a stray). */
export function isDataFileName(name: string): boolean {
  return name === dataFileName() || /^data-[a-z0-9][a-z0-9_-]*\.parquet$/.test(name);
}

export const PARTITION_KEYS = ['stream', 'month'] as const;

/**
 * The month of a row as the partition path spells it. `timezone('UTC', ts)` makes the month
 * of a TIMESTAMPTZ independent of the session's TimeZone setting.
 */
export function monthExpression(table: ExportTable): string {
  const by = table.partitionBy;
  if (!by) throw new Error(`${table.name} is not partitioned`);
  return by.type === 'TIMESTAMPTZ' ? `strftime(timezone('UTC', ${by.column}), '%Y-%m')` : `strftime(${by.column}, '%Y-%m')`;
}

/** First month after `YYYY-MM`. */
export function nextMonth(month: string): string {
  const [year, mon] = month.split('-').map(Number);
  return mon === 12 ? `${year + 1}-01` : `${year}-${String(mon + 1).padStart(2, '0')}`;
}

/** Rows of the months `first`..`last` (inclusive) as a range on the column, which DuckDB can prune with. */
export function monthRangeFilter(table: ExportTable, first: string, last: string): string {
  const by = table.partitionBy;
  if (!by) throw new Error(`${table.name} is not partitioned`);
  const column = `"${by.column}"`;
  const start = `${first}-01`;
  const end = `${nextMonth(last)}-01`;
  return by.type === 'TIMESTAMPTZ'
    ? `${column} >= TIMESTAMPTZ '${start} 00:00:00+00' AND ${column} < TIMESTAMPTZ '${end} 00:00:00+00'`
    : `${column} >= DATE '${start}' AND ${column} < DATE '${end}'`;
}
