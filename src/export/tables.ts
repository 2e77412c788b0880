/** One warehouse table (README, "The warehouse") as the export writes it. */
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
 * The name of the one data file of a partition (or of an unpartitioned table). Every name the
 * export writes, lists or parses comes from here and from isDataFileName, so a writer's id can
 * join it later (`data-<id>.parquet`, one file per writer in the same partition) in one place.
 */
export function dataFileName(): string {
  return 'data.parquet';
}

/** Whether a file name below a table is one of ours (see dataFileName). */
export function isDataFileName(name: string): boolean {
  return name === dataFileName();
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
