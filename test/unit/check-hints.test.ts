import { describe, expect, it } from 'vitest';
import { checkHint } from '../../src/cli/check-hints.js';

const V1 = '11111111-1111-4111-8111-111111111111';
const V2 = '22222222-2222-4222-8222-222222222222';

describe('the fix a failed check prints', () => {
  it('backfills the days, streams, venues and grain of its rows, forced', () => {
    const partial = checkHint('series-partial-hours', [{ venue_id: V1, stream: 'venue-users-history', metric: 'logins', day: '2026-03-04', hour_rows: 23 }], {
      parquet: false,
    });
    expect(partial).toEqual({
      list: 'venue-etl check series-partial-hours',
      fix: `venue-etl backfill --from 2026-03-04 --to 2026-03-04 --streams venue-users-history --venues ${V1} --grain hour --force`,
    });
    const duplicates = checkHint(
      'series-duplicate-keys',
      [
        { venue_id: V2, stream: 'rating-history', metric: 'rates-count', granularity: 'day', ts: '2026-01-31T00:00:00Z', copies: 2 },
        { venue_id: V1, stream: 'rating-history', metric: 'rates-count', granularity: 'hour', ts: '2026-01-02T05:00:00Z', copies: 2 },
      ],
      { parquet: true, config: 'my config.json' },
    );
    // Both grains: no --grain (the config's); --parquet: the export after it; the config given to check.
    expect(duplicates.fix).toBe(
      `venue-etl backfill --from 2026-01-02 --to 2026-01-31 --streams rating-history --venues ${V1},${V2} --force --config 'my config.json'`,
    );
    expect(duplicates.list).toBe("venue-etl check series-duplicate-keys --parquet --config 'my config.json'");
    expect(duplicates.note).toBe('then `venue-etl export` for the Parquet files');
  });

  it('reloads a summary with its series, syncs a stale stream, and names every venue only when there are few', () => {
    const vs = checkHint(
      'summary-vs-series',
      [{ venue_id: V1, stream: 'venue-devices-summary', metric: 'detected', period_start: '2026-02-01', period_end: '2026-02-28' }],
      {
        parquet: false,
      },
    );
    expect(vs.fix).toBe(`venue-etl backfill --from 2026-02-01 --to 2026-02-28 --streams venue-devices-history,venue-devices-summary --venues ${V1} --force`);
    expect(vs.note).toContain('the API’s summaries and series disagree');
    const stale = checkHint(
      'stale-streams',
      [
        { stream: 'accounts', scope_id: null },
        { stream: 'rating-history', scope_id: V1 },
      ],
      { parquet: false },
    );
    expect(stale.fix).toBe('venue-etl sync --streams accounts,rating-history');
    const many = Array.from({ length: 6 }, (_, i) => ({
      venue_id: `${i}${V1.slice(1)}`,
      stream: 'rating-history',
      granularity: 'day',
      gap_from: '2026-01-05',
      gap_to: '2026-01-06',
    }));
    expect(checkHint('series-gaps', many, { parquet: false }).fix).toBe(
      'venue-etl backfill --from 2026-01-05 --to 2026-01-06 --streams rating-history --grain day --force',
    );
    expect(checkHint('a-check-of-ones-own', [{ x: 1 }], { parquet: false })).toEqual({ list: 'venue-etl check a-check-of-ones-own' });
  });
});
