import { domainOf, type EndpointRow, type PairMetric } from '../catalogue/index.js';
import { badValue, contradictoryValues, incompleteAnswer } from './answer-errors.js';
import type { SummaryColumns } from './columns.js';
import { schemaError } from './schema-error.js';
import { valueProblem } from './value-check.js';

export interface SummaryPeriod {
  readonly venueId: string;
  readonly periodStart: string;
  readonly periodEnd: string;
}

/**
 * The rows a slice has collected so far, by key: one slice may get the same period twice (a
 * list with two resources for it); identical copies are dropped, different values refused.
 */
export type SummaryKeys = Map<string, number | null>;

/**
 * Appends one summary resource as `summary_values` rows: one per numeric metric, plus
 * `<attribute>.<key>` for pair attributes (`rates_per_value.1` … `rates_per_value.5`). Every
 * value must lie in its metric's domain (the same check as series points).
 */
export function appendSummary(
  endpoint: EndpointRow,
  attributes: Record<string, unknown>,
  period: SummaryPeriod,
  out: SummaryColumns,
  where: string,
  keys: SummaryKeys = new Map<string, number | null>(),
): number {
  const before = out.metric.length;
  const metrics = endpoint.inferMetrics
    ? Object.keys(attributes).filter((key) => typeof attributes[key] === 'number' || attributes[key] === null)
    : endpoint.metrics;
  for (const metric of metrics) {
    const value = attributes[metric];
    const path = `${where}.attributes.${metric}`;
    if (value !== null && typeof value !== 'number') throw schemaError(endpoint.stream, path, `must be a number, got ${JSON.stringify(value)}`);
    const problem = valueProblem(domainOf(endpoint, metric), value);
    if (problem !== undefined) throw badValue(endpoint.stream, path, problem);
    push(endpoint.stream, out, keys, period, metric, value, path);
  }
  for (const pairs of endpoint.pairMetrics ?? [])
    appendPairs(endpoint.stream, pairs, attributes[pairs.attribute], period, out, keys, `${where}.attributes.${pairs.attribute}`);
  return out.metric.length - before;
}

/** `[key, count]` pairs: each key once, each in its domain, and every key of an integer range present. */
function appendPairs(stream: string, pairs: PairMetric, list: unknown, period: SummaryPeriod, out: SummaryColumns, keys: SummaryKeys, path: string): void {
  if (!Array.isArray(list)) throw schemaError(stream, path, 'must be a list of [key, count] pairs');
  const items: readonly unknown[] = list;
  const seen = new Map<number, { readonly index: number; readonly value: number }>();
  items.forEach((pair, i) => {
    const key: unknown = Array.isArray(pair) && pair.length === 2 ? pair[0] : undefined;
    const value: unknown = Array.isArray(pair) && pair.length === 2 ? pair[1] : undefined;
    if (typeof key !== 'number' || typeof value !== 'number') throw schemaError(stream, `${path}[${i}]`, 'must be a [key, count] pair of numbers');
    const keyProblem = valueProblem(pairs.key, key);
    if (keyProblem !== undefined) throw badValue(stream, `${path}[${i}][0]`, keyProblem);
    const valueProblemText = valueProblem(pairs.value, value);
    if (valueProblemText !== undefined) throw badValue(stream, `${path}[${i}][1]`, valueProblemText);
    const earlier = seen.get(key);
    if (earlier !== undefined && earlier.value !== value) {
      throw contradictoryValues(stream, `${path}[${i}]`, `repeats key ${key} of [${earlier.index}] with another count: ${earlier.value} then ${value}`);
    }
    if (earlier !== undefined) return;
    seen.set(key, { index: i, value });
    push(stream, out, keys, period, `${pairs.attribute}.${key}`, value, `${path}[${i}]`);
  });
  // An integer key range (rates 1 to 5) is a fixed set: a missing key would delete its row.
  if (pairs.key.integer && pairs.key.max - pairs.key.min < 100) {
    const missing: number[] = [];
    for (let key = pairs.key.min; key <= pairs.key.max; key++) if (!seen.has(key)) missing.push(key);
    if (missing.length > 0) throw incompleteAnswer(stream, path, `has no pair for ${missing.join(', ')}`);
  }
}

function push(stream: string, out: SummaryColumns, keys: SummaryKeys, period: SummaryPeriod, metric: string, value: number | null, path: string): void {
  const key = `${period.venueId.toLowerCase()}|${metric}|${period.periodStart}|${period.periodEnd}`;
  if (keys.has(key)) {
    const earlier = keys.get(key);
    if (earlier === value) return;
    throw contradictoryValues(
      stream,
      path,
      `is a second value for ${metric} of ${period.periodStart}..${period.periodEnd}: ${String(earlier)} then ${String(value)}`,
    );
  }
  keys.set(key, value);
  out.venueId.push(period.venueId);
  out.metric.push(metric);
  out.periodStart.push(period.periodStart);
  out.periodEnd.push(period.periodEnd);
  out.value.push(value);
}
