import { requireApi, type Config } from '../config/index.js';
import { exportParquet, exportTotals, writerId } from '../export/index.js';
import type { Logger } from '../log/index.js';
import { formatSliceCounts } from '../runner/slice-counts.js';
import { runSync } from '../runner/sync-job.js';
import type { JobContext, JobOutcome } from './job.js';
import type { RunObserver } from '../lifecycle/index.js';

/** The operations a scheduled job may run, bound to the config, a logger and the stop signal. */
export function jobContext(
  config: Config,
  logger: Logger,
  signal: AbortSignal,
  hurry: AbortSignal,
  job: string,
  observers?: readonly RunObserver[],
): JobContext {
  return {
    config,
    logger,
    signal,
    hurry,
    async sync(streams): Promise<JobOutcome> {
      if (streams.length === 0) return { status: 'succeeded', summary: 'no streams selected' };
      const result = await runSync(requireApi(config), logger, { streams, job, signal, hurry, ...(observers ? { observers } : {}) });
      return {
        status: result.status,
        summary: `slices ${formatSliceCounts(result.slices)}, ${result.requests} requests, ${result.rowsWritten} rows written${result.interruption ? `; interrupted (${result.interruption})` : ''}${result.fatal ? `; ${result.fatal}` : ''}`,
      };
    },
    async exportParquet(): Promise<JobOutcome> {
      const totals = exportTotals(
        await exportParquet({
          warehouse: config.warehouse.path,
          dir: config.parquet.dir,
          writer: writerId(config.parquet.writer, undefined),
          ...(config.parquet.s3 ? { s3: config.parquet.s3 } : {}),
          logger,
          signal,
        }),
      );
      return { status: 'succeeded', summary: `${totals.written} files written, ${totals.unchanged} unchanged, ${totals.removed} removed` };
    },
  };
}
