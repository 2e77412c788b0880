/**
 * Row batches in column form: what normalization produces and the warehouse appends. Columns
 * are plain arrays filled in one pass over the API document (no per-row objects).
 */
export type Granularity = 'hour' | 'day';

/** `series_points` rows of one slice: one venue and one stream; columns have equal length. */
export interface SeriesColumns {
  readonly venueId: string;
  readonly stream: string;
  readonly metric: string[];
  readonly granularity: Granularity[];
  /** Epoch milliseconds (UTC) of each point. */
  readonly tsMs: number[];
  /** NULL where the API sent null. */
  readonly value: (number | null)[];
}

/** `summary_values` rows; the venue is per row (rating statistics summaries carry their own). */
export interface SummaryColumns {
  readonly stream: string;
  readonly venueId: string[];
  readonly metric: string[];
  /** Calendar dates `YYYY-MM-DD`. */
  readonly periodStart: string[];
  readonly periodEnd: string[];
  readonly value: (number | null)[];
}

export function emptySeries(venueId: string, stream: string): SeriesColumns {
  return { venueId, stream, metric: [], granularity: [], tsMs: [], value: [] };
}

export function emptySummaries(stream: string): SummaryColumns {
  return { stream, venueId: [], metric: [], periodStart: [], periodEnd: [], value: [] };
}
