import { hostname } from 'node:os';
import { Registry } from 'prom-client';
import type { Config } from '../config/index.js';
import type { RunObserver } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { pushMetrics } from './pushgateway.js';
import { RunMetrics } from './run-metrics.js';

/** A push takes a moment on a healthy gateway; a batch process does not wait longer than this for one. */
const PUSH_TIMEOUT_MS = 10_000;

/**
 * A batch command's metrics (sync, backfill, export, merge-events run as short-lived processes
 * that no Prometheus scrapes): pushed once when the run ends, grouped by job, instance and shard.
 * A push that fails is logged; the run's outcome does not change.
 */
export function pushObserver(config: Pick<Config, 'metrics'>, logger: Logger): RunObserver | undefined {
  const gateway = config.metrics.pushgateway;
  if (gateway === undefined) return undefined;
  return {
    name: 'metrics push',
    async finished(run) {
      const metrics = new RunMetrics(new Registry());
      metrics.recordRun(run);
      const grouping = { job: run.job, instance: config.metrics.instance ?? hostname(), shard: run.shard ?? 'none' };
      try {
        await pushMetrics(gateway, grouping, metrics.registry, PUSH_TIMEOUT_MS);
        logger.debug(grouping, 'metrics pushed');
      } catch (error) {
        logger.warn({ err: error, ...grouping }, 'could not push the run metrics; the run is not affected');
      }
    },
  };
}
