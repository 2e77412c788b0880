import type { EndpointRow } from '../catalogue/index.js';
import type { SummaryColumns } from './columns.js';
import { schemaError } from './schema-error.js';

export interface SummaryPeriod {
  readonly venueId: string;
  readonly periodStart: string;
  readonly periodEnd: string;
}

/**
 * Appends one summary resource as `summary_values` rows: one per numeric metric, plus
 * `<attribute>.<key>` for pair attributes (`rates_per_value.1` … `rates_per_value.5`).
 */
export function appendSummary(
  endpoint: EndpointRow,
  attributes: Record<string, unknown>,
  period: SummaryPeriod,
  out: SummaryColumns,
  where: string,
): number {
  const before = out.metric.length;
  const metrics = endpoint.inferMetrics
    ? Object.keys(attributes).filter((key) => typeof attributes[key] === 'number' || attributes[key] === null)
    : endpoint.metrics;
  for (const metric of metrics) {
    const value = attributes[metric];
    if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
      throw schemaError(endpoint.stream, `${where}.attributes.${metric}`, `must be a number, got ${JSON.stringify(value)}`);
    }
    push(out, period, metric, value);
  }
  for (const attribute of endpoint.pairMetrics ?? []) {
    // Validated as [int, count] pairs by the row's zod schema.
    for (const [key, value] of attributes[attribute] as [number, number][]) push(out, period, `${attribute}.${key}`, value);
  }
  return out.metric.length - before;
}

function push(out: SummaryColumns, period: SummaryPeriod, metric: string, value: number | null): void {
  out.venueId.push(period.venueId);
  out.metric.push(metric);
  out.periodStart.push(period.periodStart);
  out.periodEnd.push(period.periodEnd);
  out.value.push(value);
}
