/**
 * The reports and checks rewritten to scan less on a big warehouse (bench B11; since, to read the
 * series_daily rollup instead of the raw points) must return exactly what they returned over the
 * raw points: each runs beside its earlier text (kept in
 * bench/big-warehouse-baseline/) on a small warehouse holding every case the rewrites touch
 * (awkward-warehouse.ts), with and without date ranges, venues and time zones. The seeded problems make the checks return rows,
 * so the comparison is not one of two empty results.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatJson } from '../../src/readside/format-json.js';
import { loadNamedSql, openWarehouseSource, runNamedSql, type NamedSqlKind, type SqlParams } from '../../src/readside/index.js';
import { awkwardWarehouse, BOTH_GRAINS } from './awkward-warehouse.js';
import { createWarehouse, repoRoot, tempDir, utcDay, V1, V2 } from './fixture.js';

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
 * `ties`: the earlier ORDER BY left some rows in no defined order — both grains of one series
 * key, a day and a month period starting the same day (it now orders by granularity or
 * period_end too) — so those results are compared as sets of rows.
 */
const REWRITTEN: { kind: NamedSqlKind; name: string; params: SqlParams[]; ties?: true }[] = [
  {
    kind: 'reports',
    name: 'peak-hours',
    params: [...RANGES, ...RANGES.map((r) => ({ ...r, tz: 'Europe/Berlin' })), ...RANGES.map((r) => ({ ...r, tz: 'America/New_York' }))],
  },
  { kind: 'reports', name: 'remarketing-trend', params: RANGES },
  { kind: 'reports', name: 'venue-ranking', params: RANGES },
  // Read from the series_daily rollup instead of the raw points: the same rows.
  { kind: 'reports', name: 'daily-devices', params: RANGES },
  { kind: 'reports', name: 'daily-logins', params: RANGES },
  { kind: 'reports', name: 'coverage', params: RANGES },
  { kind: 'checks', name: 'summary-vs-series', params: [{}] },
  { kind: 'checks', name: 'series-duplicate-keys', params: [{}], ties: true },
  { kind: 'checks', name: 'hours-vs-days', params: [{}] },
  { kind: 'checks', name: 'series-partial-hours', params: [{}] },
  { kind: 'checks', name: 'series-gaps', params: [{}], ties: true },
  { kind: 'checks', name: 'summary-duplicate-keys', params: [{}], ties: true },
];

/**
 * The columns that name a venue, left out of the comparison: the reports now show the venue's
 * label (`venue`, sql/views/venue-labels.sql) where the earlier ranking showed the events' `name`;
 * how a venue is named is not what the rewrites changed.
 */
const withoutVenueNames = (rows: unknown[]): unknown[] =>
  rows.map((row) => {
    if (typeof row !== 'object' || row === null) return row;
    const { venue: _venue, name: _name, ...rest } = row as Record<string, unknown>;
    return rest;
  });

/** Both texts' rows under each set of parameters, as JSON values (what `--format json` prints). */
async function bothResults(warehouse: string, kind: NamedSqlKind, name: string, params: readonly SqlParams[]) {
  const current = loadNamedSql(kind, name);
  const before = { ...current, text: readFileSync(join(repoRoot, 'bench', 'big-warehouse-baseline', `${name}.sql`), 'utf8') };
  expect(before.text).not.toBe(current.text);
  const strip = kind === 'reports' ? withoutVenueNames : (rows: unknown[]) => rows;
  const source = await openWarehouseSource(warehouse);
  try {
    const results: { params: SqlParams; expected: unknown[]; actual: unknown[] }[] = [];
    for (const p of params) {
      const expected = strip(z.array(z.unknown()).parse(JSON.parse(formatJson(await runNamedSql(source.connection, before, p)))));
      const actual = strip(z.array(z.unknown()).parse(JSON.parse(formatJson(await runNamedSql(source.connection, current, p)))));
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
    await awkwardWarehouse(warehouse);
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
