import type { EndpointRow } from '../catalogue/index.js';
import { dateToMs, DAY_MS } from '../calendar/index.js';
import {
  appendSeries,
  appendSummary,
  checkResource,
  checkScope,
  emptySeries,
  emptySummaries,
  incompleteAnswer,
  type DriftReporter,
  type SeriesColumns,
  type SummaryColumns,
  type SummaryKeys,
} from '../normalize/index.js';
import { requestsOf, type PlannedRequest, type Slice } from '../plan/index.js';
import type { DocumentSource } from './document-source.js';
import { fetchResources, type FoundResource } from './fetch-resources.js';
import { placeholderValues, requestPath } from './requests.js';

export interface AnalyticsRows {
  readonly series?: SeriesColumns;
  readonly summaries?: SummaryColumns;
  readonly rows: number;
  readonly outsideWindow: number;
}

export interface ExtractContext {
  readonly source: DocumentSource;
  readonly drift: DriftReporter;
  readonly pageSize: number;
  readonly signal?: AbortSignal;
}

/**
 * Extracts one windowed slice (history or summary) into column batches. The requests of a slice
 * (one per summary period) run concurrently; the client's limiter bounds them globally. Every
 * resource must be about the slice's venue (or project), and every request must be answered
 * with at least one: an answer that lacks a day or a resource fails the slice instead of
 * replacing what the warehouse holds with less.
 */
export async function extractAnalytics(slice: Slice, context: ExtractContext): Promise<AnalyticsRows> {
  const endpoint = slice.endpoint;
  if (endpoint.kind === 'series') {
    const series = emptySeries(slice.scopeId, slice.stream);
    const grain = slice.grain === 'hour' ? 'hour' : 'day';
    let outsideWindow = 0;
    // The hour grain asks one request per day: they run concurrently (the client's limiter
    // bounds them), and are normalized in order, each against its own day.
    const answers = await Promise.all(requestsOf(slice).map((request) => resourcesOf(endpoint, slice, request, context).then((found) => ({ request, found }))));
    for (const { request, found } of answers) {
      const from = request.from ?? slice.windowFrom;
      const to = request.to ?? slice.windowTo;
      if (found.length === 0) throw incompleteAnswer(endpoint.stream, 'data', `has no resource for ${slice.scopeId} from ${from} to ${to}`);
      const window = { startMs: dateToMs(from), endMs: dateToMs(to) + DAY_MS, grain } as const;
      for (const { where, resource } of found) {
        const attributes = checkResource(endpoint, resource, where, context.drift);
        checkScope(endpoint, resource, slice.scopeId, where);
        outsideWindow += appendSeries(endpoint, attributes, window, series, where).outsideWindow;
      }
    }
    return { series, rows: series.metric.length, outsideWindow };
  }
  const summaries = emptySummaries(slice.stream);
  const keys: SummaryKeys = new Map();
  const answers = await Promise.all(requestsOf(slice).map((request) => resourcesOf(endpoint, slice, request, context).then((found) => ({ request, found }))));
  for (const { request, found } of answers) {
    const periodStart = request.from ?? slice.windowFrom;
    const periodEnd = request.to ?? slice.windowTo;
    if (found.length === 0) throw incompleteAnswer(endpoint.stream, 'data', `has no resource for ${slice.scopeId} from ${periodStart} to ${periodEnd}`);
    for (const { where, resource } of found) {
      const attributes = checkResource(endpoint, resource, where, context.drift);
      checkScope(endpoint, resource, slice.scopeId, where);
      appendSummary(endpoint, attributes, { venueId: slice.scopeId, periodStart, periodEnd }, summaries, where, keys);
    }
  }
  return { summaries, rows: summaries.metric.length, outsideWindow: 0 };
}

function resourcesOf(endpoint: EndpointRow, slice: Slice, request: PlannedRequest, context: ExtractContext): Promise<FoundResource[]> {
  const path = requestPath(endpoint, placeholderValues(endpoint, slice.scopeId), request, context.pageSize);
  return fetchResources(context.source, endpoint, path, {
    stream: slice.stream,
    pageSize: context.pageSize,
    ...(context.signal ? { signal: context.signal } : {}),
  });
}
