/**
 * B9: requests of the default plan of a two-year backfill, against the same backfill with day
 * summaries for every day (`sync.summaryGrain: "day"`, the default before tiered summaries).
 * Planned, not run: the planner `venue-etl backfill --dry-run` uses, over made-up venue ids (a
 * venue's slices do not depend on its id), every windowed stream of the catalogue.
 */
import { requireApi, resolveConfig } from '../src/config/index.js';
import { addDays, todayUtc } from '../src/calendar/index.js';
import { backfillGrainCosts, dayTierStart } from '../src/plan/index.js';
import { planBackfillRun } from '../src/runner/backfill-job.js';
import { summaryGrainCosts } from '../src/runner/estimate.js';
import { fmt, type Figure } from './figure.js';

export interface PlanRequestsOptions {
  readonly venues: number;
  readonly days: number;
}

/** Requests of the tiered plan at most, per 1,000 venues (two years: 4.48M with day summaries every day). */
const TARGET_PER_1000 = 1_000_000;

export function planRequestsFigure(options: PlanRequestsOptions): Figure {
  const venues = Array.from({ length: options.venues }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
  const config = requireApi(resolveConfig({ api: { baseUrl: 'http://127.0.0.1:1', token: 'bench' }, scope: { venues } }));
  const to = addDays(todayUtc(), -1);
  const from = addDays(to, 1 - options.days);
  const plan = planBackfillRun(config, { from, to });
  const settings = summaryGrainCosts(plan.planInputs, 92);
  const tiered = settings.find((s) => s.current)!.requests;
  const dayForAll = settings.find((s) => s.label.includes('day for everything'))!.requests;
  const costs = backfillGrainCosts(plan.planInputs);
  const daySummaries = costs.filter((c) => c.grain === 'day' && plan.catalogue.endpointFor(c.stream).kind !== 'series').reduce((n, c) => n + c.requests, 0);
  const target = (TARGET_PER_1000 * options.venues) / 1000;
  const firstDay = dayTierStart(to, plan.planInputs[0]?.dayHorizonDays ?? 92);
  return {
    id: 'B9',
    what: `default plan, ${fmt.count(options.venues)} venues x ${options.days} d backfill`,
    measured: `${fmt.count(tiered)} requests`,
    limit: `day summaries every day ${fmt.count(dayForAll)}`,
    ratio: fmt.ratio(tiered / dayForAll),
    target: `<= ${fmt.count(target)} requests`,
    met: tiered === plan.requests && tiered <= target && firstDay <= addDays(to, -91),
    notes: [
      `Planned by backfill --dry-run's planner, ${from} .. ${to}: ${fmt.count(plan.slices)} slices; day summaries from ${firstDay} ` +
        `(the last 92 days and the rest of their first month): ${fmt.count(daySummaries)} requests, months before.`,
      `Other summaryGrain settings: ${settings.map((s) => `${s.label.replace('summaryGrain ', '')} ${fmt.count(s.requests)}`).join('; ')}.`,
    ],
  };
}
