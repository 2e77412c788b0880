import { existsSync } from 'node:fs';
import { openWarehouse } from '../warehouse/index.js';
import { sql } from '../warehouse/sql-files.js';
import type { SummaryGrain } from '../config/index.js';
import { requestsWithSummaryGrain, summaryGrainSettings, type BackfillPlanInput } from '../plan/index.js';

export interface PastRunFacts {
  /** Requests per second of the latest run that made enough requests to tell. */
  readonly requestsPerSecond?: number;
  readonly fromRun?: string;
  /** The API's rate limit the latest run against it found (docs/rate-limits.md). */
  readonly rateLimitPerSecond?: number;
  /** Slices of this backfill already committed by an earlier, interrupted run. */
  readonly doneSlices: number;
}

/**
 * What the warehouse knows that helps plan a backfill: the API's observed throughput (the latest
 * run's requests per second, which reflects its latency at the concurrency then in force), its
 * rate limit when a run found one (a long backfill runs at it), and
 * the slices of this same backfill already done. Read-only; nothing when there is no warehouse
 * yet or another process holds it.
 */
export async function pastRunFacts(warehousePath: string, backfillId: string, apiUrl: string): Promise<PastRunFacts> {
  if (!existsSync(warehousePath)) return { doneSlices: 0 };
  try {
    const warehouse = await openWarehouse(warehousePath, { readOnly: true });
    try {
      const [run] = await warehouse.query(sql('warehouse/runs-throughput.sql'));
      const done = await warehouse.backfillDoneSlices(backfillId);
      const rateLimit = await warehouse.rememberedRateLimit(apiUrl);
      const ms = Number(run?.ms);
      return {
        doneSlices: done.size,
        ...(rateLimit === undefined ? {} : { rateLimitPerSecond: rateLimit }),
        ...(run && ms > 0 ? { requestsPerSecond: (Number(run.requests) * 1000) / ms, fromRun: String(run.run_id) } : {}),
      };
    } finally {
      await warehouse.close();
    }
  } catch {
    return { doneSlices: 0 };
  }
}

export interface SummaryGrainCost {
  readonly label: string;
  readonly requests: number;
  /** The setting the plan was made with. */
  readonly current: boolean;
}

/**
 * The same backfill under each `sync.summaryGrain` setting, so a dry run shows what another
 * grain would cost (1,000 venues x 2 years: 4,476,000 requests with day for everything).
 */
export function summaryGrainCosts(inputs: readonly BackfillPlanInput[], horizonDays: number): SummaryGrainCost[] {
  const [input] = inputs;
  if (input === undefined) return [];
  const sameGrains = (grains: readonly SummaryGrain[]): boolean => grains.length === input.grains.length && grains.every((g) => input.grains.includes(g));
  return summaryGrainSettings(input.dayHorizonDays ?? horizonDays).map((setting) => ({
    label: `summaryGrain ${setting.label}`,
    requests: requestsWithSummaryGrain(inputs, setting),
    current: sameGrains(setting.grains) && setting.dayHorizonDays === input.dayHorizonDays,
  }));
}
