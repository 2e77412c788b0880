import type { DuckDBValue } from '@duckdb/node-api';
import type { Session } from './session.js';
import { sql } from './sql-files.js';

/**
 * The series_daily rollup (sql/migrations/008_series_daily.sql), kept exact by every statement
 * that changes series_points, in the same transaction: the days changed are listed in the temp
 * table rollup_days and their rollup rows summed again from their points (sql/rollups/). The
 * cost follows the days changed, not the warehouse.
 */

/** After a series round replaced the windows in changed_series_windows. */
export async function refreshSeriesDailyOfRound(session: Session): Promise<void> {
  await session.run(sql('rollups/series-daily-days.sql'));
  await session.run(sql('rollups/series-daily-refresh.sql'));
}

/** Before `reset --rows` deletes series rows (same parameters as reset-series.sql): the days it may change. */
export async function seriesDailyDaysOfReset(session: Session, params: readonly DuckDBValue[]): Promise<void> {
  await session.run(sql('rollups/series-daily-reset.sql'), params);
}

/** After `reset --rows` deleted them: those days summed again from what is left. */
export async function refreshSeriesDailyOfReset(session: Session): Promise<void> {
  await session.run(sql('rollups/series-daily-refresh.sql'));
}
