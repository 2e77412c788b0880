/**
 * Days loaded at both grains, and month summaries: the cases the report macros and coverage
 * treat apart from the plain day rows. daily-devices and daily-logins must take a day's own
 * point over its hours (even an unknown hour of that day does not make the total unknown), and
 * coverage must count a month period on every day of the month.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { openParquetSource, openWarehouseSource } from '../../src/readside/index.js';
import { REBUILD_ROLLUP, report, runOnFile, seededWarehouse, tempDir, utcDay, V1, V2, withFile } from './fixture.js';

/** V1 is loaded by the day: this day gets its hours too, one of them unknown. */
const BOTH_ON_DAILY = utcDay(-7);
/** V2 is loaded by the hour: this day gets its own day point too. */
const BOTH_ON_HOURLY = utcDay(-9);
/** A month long before the seeded days, held only as a month summary of V1. */
const MONTH_START = '2020-02-01';
const MONTH_END = '2020-02-29';

const GRAINS_SQL: readonly string[] = [
  `INSERT INTO series_points
     SELECT venue_id, stream, metric, 'hour', ts + to_hours(h.h::INTEGER),
            CASE WHEN h.h = 10 AND metric IN ('detected', 'logins') THEN NULL ELSE 1000 + h.h END, 'run-2', now()
       FROM series_points, range(24) h(h)
      WHERE venue_id = '${V1}' AND granularity = 'day' AND timezone('UTC', ts)::DATE = DATE '${BOTH_ON_DAILY}'`,
  `INSERT INTO series_points
     SELECT venue_id, stream, metric, 'day', TIMESTAMPTZ '${BOTH_ON_HOURLY} 00:00:00+00', 5000, 'run-2', now()
       FROM (SELECT DISTINCT venue_id, stream, metric FROM series_points WHERE venue_id = '${V2}')`,
  `INSERT INTO summary_values VALUES
     ('${V1}', 'venue-devices-summary', 'detected', DATE '${MONTH_START}', DATE '${MONTH_END}', 7, 'run-2', now())`,
];

describe('reports over days loaded at both grains and over month periods', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, [...GRAINS_SQL, REBUILD_ROLLUP()]);
    await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  /** The value of a venue's own day point, as stored. */
  const dayPoint = (venue: string, day: string, metric: string) =>
    withFile(warehouse, (query) =>
      query(`SELECT value::BIGINT AS value FROM series_points
              WHERE venue_id = '${venue}' AND metric = '${metric}' AND granularity = 'day' AND timezone('UTC', ts)::DATE = DATE '${day}'`),
    ).then((rows) => Number(rows[0]?.value));

  it('daily-devices and daily-logins take the day point over the hours of the same day, on the warehouse and the export', async () => {
    const devices = await report(openWarehouseSource(warehouse), 'daily-devices');
    expect(await report(openParquetSource(parquet), 'daily-devices')).toEqual(devices);
    const onDaily = devices.find((r) => r.venue_id === V1 && r.day === BOTH_ON_DAILY);
    expect(onDaily).toMatchObject({ loaded_grain: 'day', detected: await dayPoint(V1, BOTH_ON_DAILY, 'detected') });
    expect(onDaily?.unique_detected).toBe(await dayPoint(V1, BOTH_ON_DAILY, 'unique-detected'));
    const onHourly = devices.find((r) => r.venue_id === V2 && r.day === BOTH_ON_HOURLY);
    expect(onHourly).toMatchObject({ loaded_grain: 'day', detected: 5000, authenticated: 5000, unique_detected: 5000 });

    const logins = await report(openWarehouseSource(warehouse), 'daily-logins');
    expect(await report(openParquetSource(parquet), 'daily-logins')).toEqual(logins);
    expect(logins.find((r) => r.venue_id === V1 && r.day === BOTH_ON_DAILY)).toMatchObject({ logins: await dayPoint(V1, BOTH_ON_DAILY, 'logins') });
    expect(logins.find((r) => r.venue_id === V2 && r.day === BOTH_ON_HOURLY)).toMatchObject({ logins: 5000 });
  });

  it('coverage counts a month period on each of its days, and nothing on the days around it', async () => {
    const rows = await report(openWarehouseSource(warehouse), 'coverage');
    expect(await report(openParquetSource(parquet), 'coverage')).toEqual(rows);
    const summary = rows.filter((r) => r.stream === 'venue-devices-summary');
    const loadedDays = summary.filter((r) => String(r.day) >= MONTH_START && String(r.day) <= MONTH_END);
    expect(loadedDays).toHaveLength(29);
    expect(loadedDays.every((r) => r.venues_loaded === 1 && r.status === 'missing')).toBe(true);
    expect(summary.find((r) => r.day === '2020-03-01')).toMatchObject({ venues_loaded: 0 });
    expect(summary.find((r) => r.day === '2020-01-31')).toBeUndefined();
    const seeded = summary.find((r) => r.day === utcDay(-5));
    expect(seeded).toMatchObject({ venues_loaded: 2, venues: 2, status: 'loaded' });
  });
});
