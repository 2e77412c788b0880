/**
 * Fixtures that write series_points by hand (INSERT, UPDATE, DELETE in SQL) bypass the load
 * round that keeps the peak-hours rollup (src/warehouse/peak-hours-rollup.ts): after such
 * statements the rollup is computed again from the points, as a load would have left it
 * (sql/warehouse/peak-hours-rebuild.sql). A warehouse without the rollup (an older schema) is
 * left alone.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from '../src/warehouse/sql-files.js';

const WRITES_SERIES = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+series_points\b/i;

export function writesSeries(statements: readonly string[]): boolean {
  return statements.some((statement) => WRITES_SERIES.test(statement));
}

export async function rebuildPeakHoursRollup(connection: DuckDBConnection): Promise<void> {
  const found = await connection.runAndReadAll(`SELECT count(*) FROM duckdb_tables() WHERE table_name = 'peak_hour_slots' AND NOT temporary`);
  if (Number(found.getRows()[0]?.[0]) > 0) await connection.run(sql('warehouse/peak-hours-rebuild.sql'));
}

/**
 * The rollup's definition, stated here apart from the SQL that keeps it (the second of the week
 * from the UTC weekday and clock, not from the epoch): rows of peak_hour_slots and
 * peak_hour_totals that differ from it, counted both ways (EXCEPT ALL). 0 and 0 when exact.
 */
export const ROLLUP_DIFFERENCES = `
WITH instances AS (
  SELECT sp.venue_id, a.pair, sp.ts, CASE WHEN count(sp.value) = count(*) THEN sum(sp.value) END AS value
  FROM series_points sp JOIN additive_metrics() a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
  GROUP BY ALL
),
slots AS (
  SELECT venue_id, pair::TINYINT AS pair, date_trunc('month', timezone('UTC', ts))::DATE AS month,
         ((isodow(timezone('UTC', ts)) - 1) * 86400 + hour(timezone('UTC', ts)) * 3600
           + minute(timezone('UTC', ts)) * 60 + second(timezone('UTC', ts)))::INTEGER AS week_second,
         count(*)::INTEGER AS instances, count(value)::INTEGER AS known, sum(value) AS total
  FROM instances GROUP BY ALL
),
totals AS (
  SELECT a.pair::TINYINT AS pair, sp.ts, count(*)::BIGINT AS points, count(sp.value)::BIGINT AS known, coalesce(sum(sp.value), 0) AS total
  FROM series_points sp JOIN additive_metrics() a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
  GROUP BY ALL
)
SELECT (SELECT count(*) FROM (SELECT * FROM peak_hour_slots EXCEPT ALL SELECT * FROM slots))::INTEGER AS slots_kept_only,
       (SELECT count(*) FROM (SELECT * FROM slots EXCEPT ALL SELECT * FROM peak_hour_slots))::INTEGER AS slots_defined_only,
       (SELECT count(*) FROM (SELECT * FROM peak_hour_totals EXCEPT ALL SELECT * FROM totals))::INTEGER AS totals_kept_only,
       (SELECT count(*) FROM (SELECT * FROM totals EXCEPT ALL SELECT * FROM peak_hour_totals))::INTEGER AS totals_defined_only,
       (SELECT count(*) FROM peak_hour_slots)::INTEGER AS slots,
       (SELECT count(*) FROM peak_hour_totals)::INTEGER AS totals`;

export const EXACT = { slots_kept_only: 0, slots_defined_only: 0, totals_kept_only: 0, totals_defined_only: 0 };
