/**
 * The reports and checks rewritten to scan less on a big warehouse (bench B11) must return
 * exactly what they returned before: each runs beside its earlier text (kept in
 * bench/big-warehouse-baseline/) on a small warehouse holding every case the rewrites touch —
 * both grains of a day, unknown values, a duplicate key, hours that do not add up, a partial day,
 * a missing day, a summary that disagrees, hours around both daylight-saving changes — with and
 * without date ranges, venues and time zones. The seeded problems make the checks return rows,
 * so the comparison is not one of two empty results.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatJson } from '../../src/readside/format-json.js';
import { loadNamedSql, openWarehouseSource, runNamedSql, type NamedSqlKind, type SqlParams } from '../../src/readside/index.js';
import { createWarehouse, repoRoot, runOnFile, seededWarehouse, tempDir, utcDay, V1, V2 } from './fixture.js';

const BOTH_GRAINS = utcDay(-7);
const PARTIAL = utcDay(-11);
const MISSING = utcDay(-20);
const DUPLICATE = utcDay(-3);
/** Daylight-saving changes in Europe and North America: days of 23 and 25 local hours. */
const DST_DAYS = ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01'];

const HOSTILE_SQL: readonly string[] = [
  // V1 (day grain) gets this day's hours too, which do not add up to the day; one is unknown.
  `INSERT INTO series_points
     SELECT venue_id, stream, metric, 'hour', ts + to_hours(h.h::INTEGER),
            CASE WHEN h.h = 10 AND metric = 'logins' THEN NULL ELSE 1000 + h.h END, 'run-2', now()
       FROM series_points, range(24) h(h)
      WHERE venue_id = '${V1}' AND granularity = 'day' AND timezone('UTC', ts)::DATE = DATE '${BOTH_GRAINS}'`,
  // A duplicate key of each grain, an unknown day point.
  `INSERT INTO series_points SELECT * FROM series_points
      WHERE timezone('UTC', ts)::DATE = DATE '${DUPLICATE}' AND metric = 'embeds' AND (granularity = 'day' OR hour(ts) = 5)`,
  `UPDATE series_points SET value = NULL
      WHERE venue_id = '${V1}' AND metric = 'detected' AND timezone('UTC', ts)::DATE = DATE '${utcDay(-4)}'`,
  // V2 (hour grain): a day with 23 hours of one metric, a day missing from one stream.
  `DELETE FROM series_points
      WHERE venue_id = '${V2}' AND metric = 'detected' AND timezone('UTC', ts) = TIMESTAMP '${PARTIAL} 05:00:00'`,
  `DELETE FROM series_points WHERE venue_id = '${V2}' AND stream = 'venue-remarketing-history' AND timezone('UTC', ts)::DATE = DATE '${MISSING}'`,
  // Summaries that disagree with their series: a day and a month.
  `UPDATE summary_values SET value = value + 1
      WHERE venue_id = '${V2}' AND stream = 'venue-devices-summary' AND metric = 'detected' AND period_start = DATE '${utcDay(-5)}'`,
  `INSERT INTO summary_values VALUES ('${V1}', 'venue-users-summary', 'logins', DATE '2026-03-01', DATE '2026-03-31', 7, 'run-2', now())`,
  // Hours of both venues around the daylight-saving changes, and a day point on one of them.
  `INSERT INTO series_points
     SELECT v.venue_id, s.stream, s.metric, 'hour', timezone('UTC', d.day::TIMESTAMP + to_hours(h.h::INTEGER)),
            (hash(v.venue_id, s.metric, d.day, h.h) % 40)::DOUBLE, 'run-3', now()
       FROM (VALUES ('${V1}'::UUID), ('${V2}'::UUID)) v(venue_id),
            (VALUES ('venue-remarketing-history', 'embeds'), ('venue-devices-history', 'detected'), ('venue-users-history', 'logins'),
                    ('rating-history', 'rates-count')) s(stream, metric),
            (SELECT unnest([${DST_DAYS.map((d) => `DATE '${d}'`).join(', ')}]) AS day) d, range(24) h(h)`,
  `INSERT INTO series_points VALUES ('${V1}', 'venue-remarketing-history', 'embeds', 'day', TIMESTAMPTZ '2026-03-29 00:00:00+00', 3, 'run-3', now())`,
  // Points before 1970 (a day from the epoch is negative there) and on the last hour of a UTC day.
  `INSERT INTO series_points VALUES
     ('${V2}', 'venue-users-history', 'logins', 'day', TIMESTAMPTZ '1969-12-31 00:00:00+00', 4, 'run-4', now()),
     ('${V2}', 'venue-users-history', 'logins', 'hour', TIMESTAMPTZ '1969-12-31 23:00:00+00', 5, 'run-4', now()),
     ('${V2}', 'venue-remarketing-history', 'embeds', 'hour', TIMESTAMPTZ '1969-12-31 23:00:00+00', 6, 'run-4', now())`,
];

/** The files rewritten for speed, and the parameters to compare them under. */
const RANGES: SqlParams[] = [
  {},
  { from: utcDay(-14), to: utcDay(-1) },
  { from: BOTH_GRAINS, to: BOTH_GRAINS },
  { from: '2026-03-01', to: '2026-04-01' },
  { from: '2026-10-20', to: '2026-11-05', venues: [V2] },
  { venues: [V1] },
];
/**
 * `ties`: the earlier ORDER BY left rows of both grains of one key in no defined order (it now
 * orders by granularity too), so those results are compared as sets of rows.
 */
const REWRITTEN: { kind: NamedSqlKind; name: string; params: SqlParams[]; ties?: true }[] = [
  {
    kind: 'reports',
    name: 'peak-hours',
    params: [...RANGES, ...RANGES.map((r) => ({ ...r, tz: 'Europe/Berlin' })), ...RANGES.map((r) => ({ ...r, tz: 'America/New_York' }))],
  },
  { kind: 'reports', name: 'remarketing-trend', params: RANGES },
  { kind: 'reports', name: 'venue-ranking', params: RANGES },
  { kind: 'checks', name: 'summary-vs-series', params: [{}] },
  { kind: 'checks', name: 'series-duplicate-keys', params: [{}], ties: true },
  { kind: 'checks', name: 'hours-vs-days', params: [{}] },
  { kind: 'checks', name: 'series-partial-hours', params: [{}] },
  { kind: 'checks', name: 'series-gaps', params: [{}], ties: true },
];

/** Both texts' rows under each set of parameters, as JSON values (what `--format json` prints). */
async function bothResults(warehouse: string, kind: NamedSqlKind, name: string, params: readonly SqlParams[]) {
  const current = loadNamedSql(kind, name);
  const before = { ...current, text: readFileSync(join(repoRoot, 'bench', 'big-warehouse-baseline', `${name}.sql`), 'utf8') };
  expect(before.text).not.toBe(current.text);
  const source = await openWarehouseSource(warehouse);
  try {
    const results: { params: SqlParams; expected: unknown[]; actual: unknown[] }[] = [];
    for (const p of params) {
      const expected = z.array(z.unknown()).parse(JSON.parse(formatJson(await runNamedSql(source.connection, before, p))));
      const actual = z.array(z.unknown()).parse(JSON.parse(formatJson(await runNamedSql(source.connection, current, p))));
      results.push({ params: p, expected, actual });
    }
    return results;
  } finally {
    await source.close();
  }
}

const asSet = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

describe('reports and checks rewritten to scan less return what they returned before', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, HOSTILE_SQL);
  });
  afterAll(cleanup);

  for (const { kind, name, params, ties } of REWRITTEN) {
    it(`${kind}/${name}`, async () => {
      let rows = 0;
      for (const { params: p, expected, actual } of await bothResults(warehouse, kind, name, params)) {
        if (ties) expect({ params: p, rows: asSet(actual) }).toEqual({ params: p, rows: asSet(expected) });
        else expect({ params: p, rows: actual }).toEqual({ params: p, rows: expected });
        rows += expected.length;
      }
      // Every case seeded above shows up in every file's result: not two empty results compared.
      expect(rows).toBeGreaterThan(0);
    });
  }
});

describe('on an empty warehouse', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');

  beforeAll(() => createWarehouse(warehouse));
  afterAll(cleanup);

  it('every rewritten report and check returns no rows, as before', async () => {
    for (const { kind, name, params } of REWRITTEN) {
      for (const { params: p, expected, actual } of await bothResults(warehouse, kind, name, params)) {
        expect({ name, params: p, rows: actual }).toEqual({ name, params: p, rows: expected });
      }
    }
  });
});
