export { freshnessTargets, maxAgeDaysOf, evaluateFreshness, dataAgeSeconds } from './targets.js';
export type { FreshnessTargets, StreamCursor } from './targets.js';
