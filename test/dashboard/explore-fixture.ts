/**
 * Rows that give the explorable page something to explore: a day loaded at hour grain well before
 * the demo's month (so the window has a gap, a month without summaries and hourly rows in two
 * months), and a day older than the default window of 13 months (which the page must leave out).
 * Written directly in the file, as a one-day window loads them.
 */
import { onFile } from './fixture.js';
import { sql } from '../../src/warehouse/sql-files.js';

export const DAY_MS = 86_400_000;

export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** 24 UTC hours of devices and logins for `venue` on `day`, values `scale` times the hour's (10 + 3h). */
export async function hourlyDay(warehouse: string, venue: string, day: string, scale: number): Promise<void> {
  await onFile(warehouse, [
    `INSERT INTO series_points
       SELECT '${venue}'::UUID, s.stream, s.metric, 'hour', TIMESTAMPTZ '${day} 00:00:00+00' + to_hours(h.h::INTEGER),
              (${scale} * (10 + h.h * 3))::DOUBLE, 'test-hourly', now()
         FROM (VALUES ('venue-devices-history', 'detected'), ('venue-devices-history', 'authenticated'), ('venue-users-history', 'logins')) s(stream, metric),
              range(24) h(h)`,
    // Written by hand, not by a load: the daily rollup the reports read is summed again.
    sql('rollups/series-daily-rebuild.sql'),
  ]);
}

/** The first day of the demo's series. */
export async function firstSeriesDay(warehouse: string): Promise<string> {
  const [first] = await onFile(warehouse, [`SELECT strftime(min(timezone('UTC', ts))::DATE, '%Y-%m-%d') AS day FROM series_points`]);
  return String(first!.day);
}
