export { RunMetrics } from './run-metrics.js';
export { ServeMetrics } from './serve-metrics.js';
export type { ServeSources } from './serve-metrics.js';
export { pushObserver } from './push-observer.js';
export { pushMetrics } from './pushgateway.js';
export { startMetricsServer } from './metrics-server.js';
export type { MetricsServer } from './metrics-server.js';
