import type { Config } from '../config/index.js';
import type { RunObserver } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { deliver } from '../notify/index.js';
import { endType, runEvent } from './run-event.js';

/** Retries of one lineage event stop after this long: lineage is worth a few seconds of a batch process, no more. */
const LINEAGE_RETRY_FOR_MS = 10_000;

/**
 * OpenLineage RunEvents over HTTP when `lineage.url` is set: START when the run is recorded, then
 * COMPLETE, FAIL or ABORT (sent after the START was answered, so a consumer sees them in order).
 * A run that failed before its first slice sends START and FAIL together. Never fails the run.
 */
export function lineageObserver(config: Pick<Config, 'lineage'>, logger: Logger): RunObserver[] {
  const { url, namespace, timeoutMs } = config.lineage;
  if (url === undefined) return [];
  const send = async (event: Record<string, unknown>): Promise<void> => {
    const outcome = await deliver(url, event, { timeoutMs, retryForMs: LINEAGE_RETRY_FOR_MS });
    const fields = { eventType: event.eventType, attempts: outcome.attempts, status: outcome.status };
    if (outcome.delivered) logger.debug(fields, 'lineage event sent');
    else logger.warn({ ...fields, error: outcome.error }, 'lineage event not taken; the run is not affected');
  };
  const started = new Map<string, Promise<void>>();
  return [
    {
      name: 'lineage',
      started(run) {
        started.set(run.runId, send(runEvent('START', namespace, run)));
      },
      async finished(run) {
        await (started.get(run.runId) ?? send(runEvent('START', namespace, run, run.startedAt)));
        started.delete(run.runId);
        await send(runEvent(endType(run), namespace, run));
      },
    },
  ];
}
