import { averageRate } from '../metrics/counting.js';
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

/** The attributes of each history resource, in the order of docs/api.md §2.1. */
const SERIES_METRICS: Readonly<Record<SeriesStream, ReadonlyArray<readonly [string, Reader]>>> = {
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

/** Points of a history endpoint from its grains (days or the hours of one day), oldest first. */
export function seriesOf(
  stream: SeriesStream,
  grains: ReadonlyArray<readonly [timestamp: string, values: HourValues]>,
  granularity: 'hour' | 'day',
): SeriesTruth {
  const metrics = SERIES_METRICS[stream];
  const points: Record<string, SeriesPoint[]> = Object.fromEntries(metrics.map(([name]) => [name, []]));
  for (const [timestamp, values] of grains) {
    for (const [name, read] of metrics) (points[name] as SeriesPoint[]).push([timestamp, read(values)]);
  }
  return { granularity, points };
}
