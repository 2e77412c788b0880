import { isSnapshotEndpoint, type Catalogue, type EndpointRow } from '../catalogue/index.js';
import type { HistoryGrain, SummaryGrain } from '../config/index.js';
import { addDays, maxDate } from '../calendar/index.js';
import { requestCount, streamKey, type Chain } from './slice.js';
import { slicesForRange, type SliceOptions } from './slices-for-window.js';

/** Scope id of the accounts stream: one snapshot for every account the roles point to. */
export const ALL_ACCOUNTS = '*';

export interface PlanScope {
  readonly catalogue: Catalogue;
  readonly streams: readonly string[];
  readonly venues: readonly string[];
  readonly projects: readonly string[];
  readonly windowDays: number;
  readonly grains: readonly SummaryGrain[];
  /** History grains (`sync.historyGrain`); day when absent. */
  readonly historyGrains?: readonly HistoryGrain[];
  /** Tiered summaries (`sync.summaryGrain` 'tiered'): days of day summaries back from the run's last complete day. */
  readonly dayHorizonDays?: number;
}

export interface SyncPlanInput extends PlanScope {
  /** `stream|scopeId` → last committed date. */
  readonly cursors: ReadonlyMap<string, string>;
  readonly startDate: string;
  readonly lookbackDays: number;
  /** Last day to extract (yesterday UTC or sync --to). */
  readonly until: string;
  /** Date stamped on snapshot slices (roles, accounts). */
  readonly today: string;
}

export function cursorKey(stream: string, scopeId: string): string {
  return `${stream}|${scopeId}`;
}

function scopeIds(endpoint: EndpointRow, scope: PlanScope): readonly string[] {
  if (endpoint.scope === 'venue') return scope.venues;
  if (endpoint.scope === 'project') return scope.projects;
  return [ALL_ACCOUNTS];
}

/** What one chain of a stream covers: its cursor key and the slice options of its grain. */
interface Track {
  readonly key: string;
  readonly options: SliceOptions;
}

/**
 * The chains of a stream for one scope id: one per history grain for history streams (each
 * grain with its own cursor, so one failing does not hold the other back), one for the others
 * (a summary's grains share the stream's cursor, as before hours existed).
 */
function tracksOf(endpoint: EndpointRow, scope: PlanScope, until: string): Track[] {
  const horizon = scope.dayHorizonDays === undefined ? {} : { dayHorizon: { days: scope.dayHorizonDays, until } };
  const base = { windowDays: scope.windowDays, grains: scope.grains, ...horizon };
  if (endpoint.kind !== 'series') return [{ key: endpoint.stream, options: base }];
  return (scope.historyGrains ?? ['day']).map((grain) => ({
    key: streamKey(endpoint.stream, grain === 'hour' ? 'hour' : undefined),
    options: { ...base, historyGrains: [grain] },
  }));
}

/**
 * The nightly plan: every selected stream and scope id from its cursor minus the lookback (the
 * start date when there is no cursor) up to `until`. Snapshot streams get one slice each.
 * Lazy: a chain is planned when it is taken (see backfillChains).
 */
export function* syncChains(input: SyncPlanInput): Generator<Chain> {
  for (const stream of input.streams) {
    const endpoint = input.catalogue.endpointFor(stream);
    for (const scopeId of scopeIds(endpoint, input)) {
      for (const track of tracksOf(endpoint, input, input.until)) {
        const snapshot = isSnapshotEndpoint(endpoint);
        const cursor = input.cursors.get(cursorKey(track.key, scopeId));
        const from = snapshot ? input.today : cursor ? maxDate(addDays(cursor, 1 - input.lookbackDays), input.startDate) : input.startDate;
        const to = snapshot ? input.today : input.until;
        if (from > to) continue;
        const slices = slicesForRange(endpoint, scopeId, from, to, track.options);
        if (slices.length > 0) yield { stream, scopeId, slices };
      }
    }
  }
}

/** The nightly plan as a list (tests, pricing); a run takes syncChains lazily. */
export function planSync(input: SyncPlanInput): Chain[] {
  return [...syncChains(input)];
}

export interface BackfillPlanInput extends PlanScope {
  readonly from: string;
  readonly to: string;
  readonly today: string;
}

/**
 * A backfill: the same slices over [from, to] for every selected stream and scope id. Lazy: a
 * chain is planned when the runner takes it, so a plan of thousands of venues over years is
 * never held whole; only the chains in flight are.
 */
export function* backfillChains(input: BackfillPlanInput): Generator<Chain> {
  for (const stream of input.streams) {
    const endpoint = input.catalogue.endpointFor(stream);
    const snapshot = isSnapshotEndpoint(endpoint);
    for (const scopeId of scopeIds(endpoint, input)) {
      // The day tier is the recent one, whatever range is backfilled: it ends at the last complete day.
      for (const track of tracksOf(endpoint, input, addDays(input.today, -1))) {
        const slices = snapshot
          ? slicesForRange(endpoint, scopeId, input.today, input.today, track.options)
          : slicesForRange(endpoint, scopeId, input.from, input.to, track.options);
        if (slices.length > 0) yield { stream, scopeId, slices };
      }
    }
  }
}

/** A backfill plan as a list (tests, pricing of one venue); a run takes backfillChains lazily. */
export function planBackfill(input: BackfillPlanInput): Chain[] {
  return [...backfillChains(input)];
}

/** Requests a plan will make at least (list endpoints may need more pages). */
export function plannedRequests(chains: Iterable<Chain>): number {
  let total = 0;
  for (const chain of chains) for (const slice of chain.slices) total += requestCount(slice);
  return total;
}
