/** Endpoints returning one resource of time series (docs/api.md §4.1, §4.3, §4.7, §4.8). */
export const SERIES_STREAMS = ['venue-devices-history', 'venue-users-history', 'venue-remarketing-history', 'rating-history'] as const;
export type SeriesStream = (typeof SERIES_STREAMS)[number];

/** Endpoints returning one resource of totals over a range (docs/api.md §4.2, §4.4, §4.5, §4.6, §4.9). */
export const SUMMARY_STREAMS = ['venue-devices-summary', 'venue-users-login-methods', 'venue-users-status', 'venue-users-summary', 'rating-summary'] as const;
export type SummaryStream = (typeof SUMMARY_STREAMS)[number];

export type AnalyticsStream = SeriesStream | SummaryStream;

export function isSeriesStream(name: string): name is SeriesStream {
  return (SERIES_STREAMS as readonly string[]).includes(name);
}

export function isSummaryStream(name: string): name is SummaryStream {
  return (SUMMARY_STREAMS as readonly string[]).includes(name);
}

/** The resource type is the stream name, except rating-summary, whose resource is `rating`. */
export function resourceType(stream: AnalyticsStream): string {
  return stream === 'rating-summary' ? 'rating' : stream;
}
