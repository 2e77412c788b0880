/**
 * B11's write side: what keeping series_daily exact costs a load. Each case is one round's
 * changed windows (changed_series_windows, as series-changed-windows.sql leaves them: every
 * stream of N venues over D days), whose rollup days are summed again by the loader's own
 * functions in a transaction of their own. The points do not change, so neither do the rows.
 */
import { openWarehouse } from '../src/warehouse/index.js';
import { refreshSeriesDailyOfRound } from '../src/warehouse/series-daily.js';
import { fmt } from './figure.js';

interface RefreshCase {
  readonly label: string;
  readonly venues: number;
  readonly days: number;
  /** Days before the last day the windows end. */
  readonly endsBefore: number;
}

const CASES: readonly RefreshCase[] = [
  { label: 'a nightly round (100 venues x 4 streams x the last 3 days, both grains)', venues: 100, days: 3, endsBefore: 0 },
  { label: 'one venue x 4 streams x 3 days', venues: 1, days: 3, endsBefore: 0 },
  { label: 'a backfill round (50 venues x 4 streams x 31 days, 300 days back)', venues: 50, days: 31, endsBefore: 300 },
];

/** One line per case: the refresh's time (best of 2). */
export async function timeRollupRefresh(path: string, lastDay: string): Promise<string> {
  const warehouse = await openWarehouse(path);
  try {
    const lines: string[] = [];
    for (const c of CASES) {
      let best = Number.POSITIVE_INFINITY;
      let days = 0;
      for (let attempt = 0; attempt < 2; attempt++) {
        await warehouse.transaction(async (session) => {
          await session.run(`CREATE OR REPLACE TEMP TABLE changed_series_windows AS
            SELECT venue_id, stream,
                   timezone('UTC', (DATE '${lastDay}' - ${c.endsBefore + c.days - 1})::TIMESTAMP) AS ts_from,
                   timezone('UTC', (DATE '${lastDay}' - ${c.endsBefore} + 1)::TIMESTAMP) AS ts_to
            FROM (SELECT DISTINCT venue_id FROM series_daily ORDER BY venue_id LIMIT ${c.venues}), (SELECT DISTINCT stream FROM series_daily)`);
          const started = performance.now();
          await refreshSeriesDailyOfRound(session);
          best = Math.min(best, performance.now() - started);
          const [row] = await session.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM rollup_days');
          days = row!.n;
          return 0;
        }, 'timing the rollup refresh');
      }
      lines.push(`${c.label}: ${fmt.count(days)} venue-stream-days in ${fmt.ms(best)}`);
    }
    return lines.join('; ');
  } finally {
    await warehouse.close();
  }
}
