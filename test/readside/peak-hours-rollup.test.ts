/**
 * peak-hours through its rollup returns exactly what its text before the rollup returned over
 * every point (kept in bench/big-warehouse-baseline/peak-hours.sql): on the small warehouse of
 * every awkward case (awkward-warehouse.ts: unknowns, a repeated key, hours around the
 * daylight-saving changes, points off the hour and before 1970), for UTC, Europe/Berlin,
 * America/New_York and a zone half an hour off, over ranges that start and end mid-month and
 * cross the changes. The plan each run chose is read back, so that every way of reading a month
 * (rollup whole, rollup less the points outside the range, points) is known to have been compared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatJson } from '../../src/readside/format-json.js';
import { loadNamedSql, openWarehouseSource, runNamedSql, type SqlParams } from '../../src/readside/index.js';
import { awkwardWarehouse } from './awkward-warehouse.js';
import { repoRoot, tempDir, utcDay, V2 } from './fixture.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'];
const RANGES: SqlParams[] = [
  {},
  { from: utcDay(-45), to: utcDay(-1) },
  { from: utcDay(-40), to: utcDay(-12) },
  { from: utcDay(-9), to: utcDay(-2) },
  { from: '2026-03-01', to: '2026-04-30' },
  { from: '2026-03-25', to: '2026-11-03' },
  { from: '2026-10-02', to: '2026-11-29' },
  { from: '2026-10-20', to: '2026-11-05' },
  { from: '2026-11-01', to: '2026-11-01' },
  { from: '1969-12-01', to: '1970-01-31' },
  { to: '2026-10-31' },
  { from: '2026-11-02' },
  { from: utcDay(-30), venues: [V2] },
];

const rowsOf = (text: string) => z.array(z.unknown()).parse(JSON.parse(text));

describe('peak-hours through the rollup', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  beforeAll(() => awkwardWarehouse(warehouse));
  afterAll(cleanup);

  it('returns what the text over every point returned, for every zone and range', async () => {
    const current = loadNamedSql('reports', 'peak-hours');
    const before = { ...current, text: readFileSync(join(repoRoot, 'bench', 'big-warehouse-baseline', 'peak-hours.sql'), 'utf8') };
    const source = await openWarehouseSource(warehouse);
    const ways = new Set<string>();
    let rows = 0;
    try {
      for (const tz of ZONES) {
        for (const range of RANGES) {
          const params = { ...range, tz };
          const expected = rowsOf(formatJson(await runNamedSql(source.connection, before, params)));
          const actual = rowsOf(formatJson(await runNamedSql(source.connection, current, params)));
          expect({ params, rows: actual }).toEqual({ params, rows: expected });
          rows += expected.length;
          const plan = await source.connection.runAndReadAll(
            `SELECT getvariable('peak_hours_plan').rolled_up AS rolled_up, len(getvariable('peak_hours_plan').rolled) AS rolled,
                    list_transform(getvariable('peak_hours_plan').raw, r -> r.sign) AS signs`,
          );
          const [rolledUp, rolled, signs] = plan.getRows()[0]!;
          if (!rolledUp) ways.add('every point');
          if (Number(rolled ?? 0) > 0) ways.add('rollup');
          for (const sign of (signs as { items?: unknown[] } | null)?.items ?? []) ways.add(Number(sign) > 0 ? 'points' : 'less points');
        }
      }
    } finally {
      await source.close();
    }
    expect(rows).toBeGreaterThan(0);
    expect([...ways].sort()).toEqual(['every point', 'less points', 'points', 'rollup']);
  });

  it('asked for some metrics (the `metrics` variable), returns their rows of the whole answer, through every way of reading', async () => {
    const report = loadNamedSql('reports', 'peak-hours');
    const metrics = ['venue-devices-history/detected', 'venue-users-history/logins'];
    const source = await openWarehouseSource(warehouse);
    let rows = 0;
    const seen = new Set<string>();
    try {
      for (const tz of ['UTC', 'America/New_York']) {
        for (const range of RANGES) {
          const params = { ...range, tz };
          const whole = rowsOf(formatJson(await runNamedSql(source.connection, report, params))) as { stream: string; metric: string }[];
          const some = rowsOf(formatJson(await runNamedSql(source.connection, report, { ...params, metrics })));
          expect({ params, rows: some }).toEqual({ params, rows: whole.filter((r) => metrics.includes(`${r.stream}/${r.metric}`)) });
          rows += some.length;
          for (const metric of metrics)
            seen.add(`${metric}:${some.some((r) => `${(r as { stream: string }).stream}/${(r as { metric: string }).metric}` === metric)}`);
        }
      }
    } finally {
      await source.close();
    }
    expect(rows).toBeGreaterThan(0);
    // Both metrics had rows in some range: neither comparison is of two empty lists.
    expect([...seen].filter((s) => s.endsWith(':true')).sort()).toEqual(metrics.map((m) => `${m}:true`).sort());
  });
});
