import { hourTimestamp } from '../dates.js';
import { averageRate } from '../metrics/counting.js';
import type { DayValues } from '../metrics/day-values.js';
import type { HourValues } from '../metrics/hour-values.js';
import type { SeriesStream } from './streams.js';

export type SeriesPoint = readonly [timestamp: string, value: number | null];

export interface SeriesTruth {
  /** `hour` for a one-day range (from == to), `day` otherwise. */
  readonly granularity: 'hour' | 'day';
  /** Metric (attribute name) → points, oldest first. */
  readonly points: Readonly<Record<string, readonly SeriesPoint[]>>;
}

/** A day's values carry every field of an hour's, so one reader serves both grains. */
type Reader = (values: HourValues) => number | null;

/** The attributes of each history resource, in the spec's order (§2.1). */
export const SERIES_METRICS: Readonly<Record<SeriesStream, ReadonlyArray<readonly [string, Reader]>>> = {
  'venue-devices-history': [
    ['detected', (v) => v.detected],
    ['unique-detected', (v) => v.uniqueDetected],
    ['unique-authenticated', (v) => v.uniqueAuthenticated],
    ['authenticated', (v) => v.authenticated],
  ],
  'venue-users-history': [
    ['logins', (v) => v.logins],
    ['unique-logins', (v) => v.uniqueLogins],
  ],
  'venue-remarketing-history': [['embeds', (v) => v.embeds]],
  'rating-history': [
    ['rates-average', (v) => averageRate(v.ratesByValue)],
    ['rates-count', (v) => v.ratesCount],
  ],
};

/**
 * Points of a history endpoint. `days` are the range's days up to today (later days have no
 * points); a single requested day is served hour by hour.
 */
export function seriesOf(stream: SeriesStream, days: readonly DayValues[], hourly: boolean): SeriesTruth {
  const metrics = SERIES_METRICS[stream];
  const points: Record<string, SeriesPoint[]> = Object.fromEntries(metrics.map(([name]) => [name, []]));
  for (const day of days) {
    const grains: ReadonlyArray<readonly [string, HourValues]> = hourly
      ? day.hours.map((hour, h) => [hourTimestamp(day.day, h), hour] as const)
      : [[hourTimestamp(day.day, 0), day]];
    for (const [timestamp, values] of grains) {
      for (const [name, read] of metrics) (points[name] as SeriesPoint[]).push([timestamp, read(values)]);
    }
  }
  return { granularity: hourly ? 'hour' : 'day', points };
}
