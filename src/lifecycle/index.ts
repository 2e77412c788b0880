export { RunLifecycle, MAX_FAILURES_KEPT, PROGRESS_INTERVAL_MS } from './run-lifecycle.js';
export type { BeginInfo, EndInfo } from './run-lifecycle.js';
export type * from './run-events.js';
