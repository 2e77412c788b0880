import type { EtlError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { isWarehouseFailure, type RunTotals, type Warehouse } from '../warehouse/index.js';

/**
 * Where a run's outcome is written to `sync_runs`, whichever way it ended (finished, stopped by
 * a fatal error, broken by a bug): the one place that records it.
 *
 * A warehouse that stopped taking writes (a full disk, a corrupt file, an invalidated
 * database) is not written again to record the end: the row stays `running` and the next run
 * marks it failed (src/warehouse/runs.ts, markAbandonedRuns). Resolves with that failure when
 * the end could not be recorded because of it, undefined once recorded. Any other error of the
 * recording is thrown.
 */
export async function recordRunEnd(warehouse: Warehouse, runId: string, totals: RunTotals, log: Logger): Promise<EtlError | undefined> {
  if (warehouse.failure === undefined) {
    try {
      await warehouse.finishRun(runId, totals);
      return undefined;
    } catch (error) {
      if (!isWarehouseFailure(error)) throw error;
    }
  }
  const failure = warehouse.failure;
  warehouse.forgetRun(runId);
  log.error(
    { runId, code: failure?.code },
    'the end of the run could not be recorded (the warehouse takes no more writes): sync_runs shows it running until the next run marks it failed',
  );
  return failure;
}
