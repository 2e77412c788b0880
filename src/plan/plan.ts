import { isSnapshotEndpoint, type Catalogue, type EndpointRow } from '../catalogue/index.js';
import type { SummaryGrain } from '../config/index.js';
import { addDays, maxDate } from '../calendar/index.js';
import { requestCount, type Chain } from './slice.js';
import { slicesForRange } from './slices-for-window.js';

/** Scope id of the accounts stream: one snapshot for every account the roles point to. */
export const ALL_ACCOUNTS = '*';

export interface PlanScope {
  readonly catalogue: Catalogue;
  readonly streams: readonly string[];
  readonly venues: readonly string[];
  readonly projects: readonly string[];
  readonly windowDays: number;
  readonly grains: readonly SummaryGrain[];
}

export interface SyncPlanInput extends PlanScope {
  /** `stream|scopeId` → last committed date. */
  readonly cursors: ReadonlyMap<string, string>;
  readonly startDate: string;
  readonly lookbackDays: number;
  /** Last day to extract (yesterday UTC or --until). */
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

/**
 * The nightly plan: every selected stream and scope id from its cursor minus the lookback (the
 * start date when there is no cursor) up to `until`. Snapshot streams get one slice each.
 */
export function planSync(input: SyncPlanInput): Chain[] {
  const chains: Chain[] = [];
  for (const stream of input.streams) {
    const endpoint = input.catalogue.endpointFor(stream);
    for (const scopeId of scopeIds(endpoint, input)) {
      const snapshot = isSnapshotEndpoint(endpoint);
      const cursor = input.cursors.get(cursorKey(stream, scopeId));
      const from = snapshot ? input.today : cursor ? maxDate(addDays(cursor, 1 - input.lookbackDays), input.startDate) : input.startDate;
      const to = snapshot ? input.today : input.until;
      if (from > to) continue;
      const slices = slicesForRange(endpoint, scopeId, from, to, input);
      if (slices.length > 0) chains.push({ stream, scopeId, slices });
    }
  }
  return chains;
}

export interface BackfillPlanInput extends PlanScope {
  readonly from: string;
  readonly to: string;
  readonly today: string;
}

/** A backfill: the same slices over [from, to] for every selected stream and scope id. */
export function planBackfill(input: BackfillPlanInput): Chain[] {
  const chains: Chain[] = [];
  for (const stream of input.streams) {
    const endpoint = input.catalogue.endpointFor(stream);
    const snapshot = isSnapshotEndpoint(endpoint);
    for (const scopeId of scopeIds(endpoint, input)) {
      const slices = snapshot
        ? slicesForRange(endpoint, scopeId, input.today, input.today, input)
        : slicesForRange(endpoint, scopeId, input.from, input.to, input);
      if (slices.length > 0) chains.push({ stream, scopeId, slices });
    }
  }
  return chains;
}

/** Requests a plan will make at least (list endpoints may need more pages). */
export function plannedRequests(chains: readonly Chain[]): number {
  let total = 0;
  for (const chain of chains) for (const slice of chain.slices) total += requestCount(slice);
  return total;
}
