export type { Slice, Chain, PlannedRequest } from './slice.js';
export { SliceKeySet } from './slice-key-set.js';
export { sliceKey, requestsOf, requestCount, streamKey, HOUR_SUFFIX } from './slice.js';
export { planSync, planBackfill, syncChains, backfillChains, plannedRequests, cursorKey, ALL_ACCOUNTS } from './plan.js';
export type { SyncPlanInput, BackfillPlanInput, PlanScope } from './plan.js';
export * from './dates.js';
export { backfillGrainCosts, summaryGrainSettings, requestsWithSummaryGrain } from './grain-costs.js';
export type { GrainCost, SummaryGrainSetting } from './grain-costs.js';
