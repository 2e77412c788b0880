import type { DuckDBValue } from '@duckdb/node-api';
import type { Session } from './session.js';
import { sql } from './sql-files.js';

/**
 * Keeps the peak-hours rollup (sql/migrations/009_peak_hours_rollup.sql) equal to its definition
 * over series_points, in the transaction of each write: the report reads it instead of every
 * hour point of the months it covers (bench B11: 5,000 venues x 120 days of hours). Each write
 * calls `before` while the rows it replaces are still there and `after` once written.
 */
export interface PeakHoursWrite {
  before(): Promise<void>;
  after(): Promise<void>;
}

async function apply(session: Session): Promise<void> {
  await session.run(sql('warehouse/peak-hours-apply.sql'));
}

/**
 * A load round (series-round.ts): its changed windows, read from changed_series_windows. A round
 * without an hour window of an additive stream (every round of the default day grain) changes
 * nothing here and costs one small count instead of the eight statements below.
 */
export function peakHoursOfRound(session: Session): PeakHoursWrite {
  let hours = false;
  return {
    async before() {
      const [found] = await session.all<{ n: number }>(sql('warehouse/peak-hours-round-hours.sql'));
      hours = (found?.n ?? 0) > 0;
      if (!hours) return;
      await session.run(sql('warehouse/peak-hours-staging.sql'));
      await session.run(sql('warehouse/peak-hours-round-old.sql'));
    },
    async after() {
      if (!hours) return;
      await session.run(sql('warehouse/peak-hours-round-new.sql'));
      await apply(session);
    },
  };
}

/** `reset --rows` (reset.ts): the rows reset-series.sql deletes, by its own parameters. */
export function peakHoursOfReset(session: Session, params: readonly DuckDBValue[]): PeakHoursWrite {
  return {
    async before() {
      await session.run(sql('warehouse/peak-hours-staging.sql'));
      await session.run(sql('warehouse/peak-hours-reset-old.sql'), params);
    },
    async after() {
      await apply(session);
    },
  };
}

/** The rollup computed again from every hour point (series_points written outside venue-etl). */
export async function rebuildPeakHours(session: Pick<Session, 'run'>): Promise<void> {
  await session.run(sql('warehouse/peak-hours-rebuild.sql'));
}
