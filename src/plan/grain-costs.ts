import { isSnapshotEndpoint } from '../catalogue/index.js';
import type { SummaryGrain } from '../config/index.js';
import { planBackfill, type BackfillPlanInput } from './plan.js';
import { requestCount, streamKey } from './slice.js';

/** Slices and requests of one stream key (`<stream>` or `<stream>@hour`) at one grain. */
export interface GrainCost {
  readonly stream: string;
  /** 'day' | 'month' | 'hour' for analytics streams; 'snapshot' for roles and accounts. */
  readonly grain: string;
  readonly slices: number;
  readonly requests: number;
}

/**
 * What a backfill plan costs per stream and grain, without planning every scope id: each venue
 * (or project) of a stream gets the same slices, so the plan of the first one is priced and
 * multiplied. A two-year plan of 1,000 venues at day grain holds millions of requests; this
 * prices it from a few hundred slices. At least: list endpoints add a request per extra page.
 * A sharded plan has several inputs (the shard's venues, and on shard 0 the shared streams).
 */
export function backfillGrainCosts(inputs: readonly BackfillPlanInput[]): GrainCost[] {
  const costs = new Map<string, { stream: string; grain: string; slices: number; requests: number }>();
  for (const input of inputs) addGrainCosts(input, costs);
  return [...costs.values()];
}

function addGrainCosts(input: BackfillPlanInput, costs: Map<string, { stream: string; grain: string; slices: number; requests: number }>): void {
  const one = { ...input, venues: input.venues.slice(0, 1), projects: input.projects.slice(0, 1) };
  for (const chain of planBackfill(one)) {
    const endpoint = input.catalogue.endpointFor(chain.stream);
    const scopeIds = endpoint.scope === 'venue' ? input.venues.length : endpoint.scope === 'project' ? input.projects.length : 1;
    for (const slice of chain.slices) {
      const grain = isSnapshotEndpoint(endpoint) ? 'snapshot' : (slice.grain ?? 'day');
      const stream = streamKey(slice.stream, slice.grain);
      const key = `${stream}|${grain}`;
      const cost = costs.get(key) ?? { stream, grain, slices: 0, requests: 0 };
      cost.slices += scopeIds;
      cost.requests += scopeIds * requestCount(slice);
      costs.set(key, cost);
    }
  }
}

/** A `sync.summaryGrain` setting, priced: 'tiered' with its horizon, or a grain for every period. */
export interface SummaryGrainSetting {
  readonly label: string;
  readonly grains: readonly SummaryGrain[];
  readonly dayHorizonDays?: number;
}

/** The settings of `sync.summaryGrain` a dry run compares: tiered (with `horizonDays`), day, month, both. */
export function summaryGrainSettings(horizonDays: number): SummaryGrainSetting[] {
  return [
    { label: `tiered (day for the last ${horizonDays} days, month before)`, grains: ['day', 'month'], dayHorizonDays: horizonDays },
    { label: 'day for everything', grains: ['day'] },
    { label: 'month for everything', grains: ['month'] },
    { label: 'day and month for everything', grains: ['day', 'month'] },
  ];
}

/** Requests of the same backfill under another summary grain setting (history and snapshots unchanged). */
export function requestsWithSummaryGrain(inputs: readonly BackfillPlanInput[], setting: SummaryGrainSetting): number {
  const priced = inputs.map((input) => {
    const { dayHorizonDays: _ignored, ...rest } = input;
    return { ...rest, grains: setting.grains, ...(setting.dayHorizonDays === undefined ? {} : { dayHorizonDays: setting.dayHorizonDays }) };
  });
  return backfillGrainCosts(priced).reduce((n, cost) => n + cost.requests, 0);
}
