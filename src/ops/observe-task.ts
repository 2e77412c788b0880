import { codeOf, ExitCode, isEtlError } from '../errors/index.js';
import { RunLifecycle, type DatasetRef, type RunCommand, type RunOutcome } from '../lifecycle/index.js';
import { scrubSecrets, type Logger } from '../log/index.js';
import { newRunId } from '../warehouse/index.js';
import { observersFor, type ObservedConfig } from './observers.js';

/** What a finished export or merge tells the observers. */
export interface TaskSummary {
  readonly outcome: RunOutcome;
  readonly rowsByTable: Readonly<Record<string, number>>;
  readonly outputs: readonly DatasetRef[];
}

export interface TaskProgress {
  /** Units done (files written, journal records merged) of `total`. */
  done(units: number, rows: number): void;
  planned(total: number): void;
}

/**
 * A batch command that is not a sync run (export, merge-events), observed like one: the
 * run-state file, the metrics push, lineage, and notifications when the command read them. Not
 * recorded in `sync_runs` (they are not extraction runs); the run id is made the same way.
 */
export async function observeTask<T>(
  setup: { readonly config: ObservedConfig; readonly logger: Logger; readonly job: string; readonly command: RunCommand; readonly shard?: string },
  work: (progress: TaskProgress) => Promise<T>,
  summarize: (result: T) => TaskSummary,
): Promise<T> {
  const { config, logger } = setup;
  const identity = { job: setup.job, command: setup.command, warehousePath: config.warehouse.path, ...(setup.shard ? { shard: setup.shard } : {}) };
  const lifecycle = new RunLifecycle(identity, observersFor(config, logger), logger);
  const live = { slicesDone: 0, slicesTotal: 0, requests: 0, rows: 0 };
  lifecycle.begin({ runId: newRunId(), streams: [], live: () => ({ ...live }) });
  const progress: TaskProgress = {
    done: (units, rows) => {
      live.slicesDone += units;
      live.rows += rows;
    },
    planned: (total) => {
      live.slicesTotal = total;
    },
  };
  let result: T;
  try {
    result = await work(progress);
  } catch (error) {
    if (!(isEtlError(error) && error.exitCode === ExitCode.usage)) {
      const message = scrubSecrets(error instanceof Error ? error.message : String(error));
      await lifecycle.finish({ outcome: 'failed', error: { code: codeOf(error) ?? 'VENUE_ETL_INTERNAL', message } });
    } else await lifecycle.finish({ outcome: 'failed' });
    throw error;
  }
  const summary = summarize(result);
  lifecycle.annotate({
    rowsByTable: summary.rowsByTable,
    datasets: { inputs: [{ namespace: `duckdb://${config.warehouse.path}`, name: 'warehouse' }], outputs: summary.outputs },
  });
  const rows = Object.values(summary.rowsByTable).reduce((n, r) => n + r, 0);
  await lifecycle.finish({
    outcome: summary.outcome,
    totals: {
      slicesTotal: live.slicesTotal,
      slicesDone: live.slicesDone,
      slicesFailed: 0,
      slicesSkipped: 0,
      requests: 0,
      retries: 0,
      throttled: 0,
      rowsWritten: rows,
      rowsByTable: summary.rowsByTable,
      requestsByStream: [],
    },
  });
  return result;
}
