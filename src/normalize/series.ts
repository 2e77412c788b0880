import type { EndpointRow } from '../catalogue/index.js';
import type { Granularity, SeriesColumns } from './columns.js';
import { DAY_MS, HOUR_MS, parseTimestampMs } from './timestamp.js';
import { schemaError } from './schema-error.js';

export interface SeriesWindow {
  /** Epoch ms of windowFrom 00:00Z and of windowTo + 1 day 00:00Z. */
  readonly startMs: number;
  readonly endMs: number;
}

export interface SeriesOutcome {
  readonly points: number;
  /** Points the API sent outside the requested window: not loaded (their own window owns them). */
  readonly outsideWindow: number;
}

/**
 * Appends the time-series attributes of one history resource to `out` as long rows. Every pair is
 * checked here, in the loop that copies it (the zod schema only checks that each is an array).
 * Granularity is what the API sent: 'hour' when points are closer than a day or off midnight.
 */
export function appendSeries(
  endpoint: EndpointRow,
  attributes: Record<string, unknown>,
  window: SeriesWindow,
  out: SeriesColumns,
  where: string,
): SeriesOutcome {
  const metrics = endpoint.inferMetrics ? Object.keys(attributes).filter((key) => Array.isArray(attributes[key])) : endpoint.metrics;
  let granularity: Granularity | undefined;
  let points = 0;
  let outsideWindow = 0;
  for (const metric of metrics) {
    const series = attributes[metric] as unknown[];
    const n = series.length;
    const tsFirst = out.tsMs.length;
    for (let i = 0; i < n; i++) {
      const pair = series[i];
      if (!Array.isArray(pair) || pair.length !== 2) {
        throw schemaError(endpoint.stream, `${where}.attributes.${metric}[${i}]`, 'must be a [timestamp, count] pair');
      }
      const stamp = pair[0];
      const value = pair[1];
      if (typeof stamp !== 'string') {
        throw schemaError(endpoint.stream, `${where}.attributes.${metric}[${i}][0]`, 'must be an ISO 8601 timestamp string');
      }
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw schemaError(endpoint.stream, `${where}.attributes.${metric}[${i}][1]`, `must be a number or null, got ${JSON.stringify(value)}`);
      }
      const ms = parseTimestampMs(stamp);
      if (Number.isNaN(ms)) {
        throw schemaError(endpoint.stream, `${where}.attributes.${metric}[${i}][0]`, `is not an ISO 8601 timestamp with an offset: ${JSON.stringify(stamp)}`);
      }
      if (ms < window.startMs || ms >= window.endMs) {
        outsideWindow += 1;
        continue;
      }
      out.metric.push(metric);
      out.tsMs.push(ms);
      out.value.push(value);
    }
    const added = out.tsMs.length - tsFirst;
    points += added;
    if (granularity === undefined && added > 0) granularity = detectGranularity(out.tsMs, tsFirst, out.tsMs.length);
  }
  const grain = granularity ?? 'day';
  for (let i = out.granularity.length; i < out.tsMs.length; i++) out.granularity.push(grain);
  return { points, outsideWindow };
}

function detectGranularity(ts: readonly number[], from: number, to: number): Granularity {
  if (ts[from]! % DAY_MS !== 0) return 'hour';
  for (let i = from + 1; i < to; i++) {
    const step = Math.abs(ts[i]! - ts[i - 1]!);
    if (step > 0 && step < DAY_MS) return 'hour';
    if (ts[i]! % DAY_MS !== 0) return 'hour';
  }
  return to - from === 1 && ts[from]! % HOUR_MS !== 0 ? 'hour' : 'day';
}
