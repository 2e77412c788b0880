import type { ApiClient } from '../api/client.js';
import type { Catalogue, EndpointRow } from '../catalogue/index.js';
import { todayUtc } from '../calendar/index.js';
import type { ApiReadyConfig as Config } from '../config/index.js';
import { evaluateFreshness, freshnessTargets } from '../freshness/index.js';
import type { DatasetRef, HeldSnapshot, LiveProgress, RunLifecycle, RunOutcome, StreamRequests } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { snapshotsHeldOf, type Warehouse } from '../warehouse/index.js';
import { machineNow } from './machine-clock.js';
import type { StreamSummary } from './stream-tally.js';
import { apiUrlOf } from './rate-limit-memory.js';

/**
 * The run's side of the lifecycle seam (see RunLifecycle): what executeRun tells it when the
 * run is recorded as started, and just before it lets the warehouse go.
 */
export async function beginObservation(
  lifecycle: RunLifecycle | undefined,
  warehouse: Warehouse,
  run: { readonly runId: string; readonly job: string; readonly streams: readonly string[]; readonly live: () => LiveProgress },
  logger: Logger,
): Promise<void> {
  if (!lifecycle) return;
  // Runs that failed while another process held the warehouse are recorded now (see observeRun).
  const deferred = await warehouse.recordDeferredRuns().catch((error: unknown) => {
    logger.warn({ err: error }, 'could not record the runs that failed while the warehouse was held');
    return 0;
  });
  if (deferred > 0) logger.info({ runs: deferred }, 'recorded runs that failed while another process held the warehouse');
  const previous = await warehouse.previousRunStatus(run.job, run.runId).catch(() => undefined);
  lifecycle.begin({ runId: run.runId, streams: run.streams, previousStatus: previous as RunOutcome | undefined, live: run.live });
}

export interface EndObservation {
  readonly warehouse: Warehouse;
  readonly client: ApiClient;
  readonly catalogue: Catalogue;
  readonly config: Config;
  readonly streams: readonly StreamSummary[];
  readonly status: RunOutcome;
}

/** Freshness after the run, requests by outcome, rows by table and the datasets, while the warehouse is open. */
export async function endObservation(lifecycle: RunLifecycle | undefined, end: EndObservation, logger: Logger): Promise<void> {
  if (!lifecycle?.observed) return;
  const cursors = await end.warehouse.readStreamCursors().catch((error: unknown) => {
    logger.warn({ err: error }, 'could not read the freshness of the streams');
    return undefined;
  });
  const rowsByTable: Record<string, number> = {};
  for (const stream of end.streams) {
    const table = tableOf(end.catalogue.rowsOf(stream.stream)[0]);
    rowsByTable[table] = (rowsByTable[table] ?? 0) + stream.rowsWritten;
  }
  const columns = await end.warehouse.readTableColumns(Object.keys(rowsByTable)).catch(() => new Map<string, { name: string; type: string }[]>());
  lifecycle.annotate({
    ...(cursors ? { freshness: evaluateFreshness(cursors, freshnessTargets(end.config), todayUtc(machineNow())) } : {}),
    requestsByStream: requestsByStream(end.client),
    rowsByTable,
    datasets: datasetsOf(end, rowsByTable, columns),
  });
}

function requestsByStream(client: ApiClient): StreamRequests[] {
  return [...client.stats.byStream].map(([stream, c]) => ({
    stream,
    ok: c.ok,
    throttled: c.throttled,
    serverErrors: c.serverErrors,
    failed: c.failures,
    retries: c.retries,
  }));
}

/** The warehouse table a stream's rows go to (docs/warehouse.md). */
export function tableOf(row: EndpointRow | undefined): string {
  if (row === undefined) return 'unknown';
  if (row.kind === 'series') return 'series_points';
  if (row.kind === 'summary') return 'summary_values';
  if (row.kind === 'accounts') return 'accounts';
  return row.scope === 'project' ? 'project_roles' : 'venue_roles';
}

/** Inputs: the API endpoints of the streams run; outputs: the warehouse tables written. */
function datasetsOf(
  end: EndObservation,
  rowsByTable: Readonly<Record<string, number>>,
  columns: ReadonlyMap<string, readonly { name: string; type: string }[]>,
): { inputs: DatasetRef[]; outputs: DatasetRef[] } {
  const api = apiUrlOf(end.config.api);
  const inputs = new Map<string, DatasetRef>();
  for (const stream of end.streams) {
    for (const row of end.catalogue.rowsOf(stream.stream)) inputs.set(row.path, { namespace: api, name: row.path });
  }
  const warehouse = `duckdb://${end.warehouse.path}`;
  const outputs = Object.entries(rowsByTable).map(([table, rows]) => {
    const fields = columns.get(table);
    return { namespace: warehouse, name: table, rowCount: rows, ...(fields ? { fields } : {}) };
  });
  return { inputs: [...inputs.values()], outputs };
}

/**
 * The roles snapshots the run held back (`sync_runs.detail.snapshotsHeld`, see HeldSnapshots)
 * as the lifecycle tells them (`snapshot.held`).
 */
export function heldForObservers(detail: Readonly<Record<string, unknown>>): { snapshotsHeld?: HeldSnapshot[] } {
  const held = snapshotsHeldOf(detail);
  if (held.length === 0) return {};
  return {
    snapshotsHeld: held.map((h) => ({
      stream: h.stream,
      scopeId: h.scope,
      reason: `the answer would close ${h.wouldClose} of ${h.open} open roles; held since ${h.heldSince}`,
    })),
  };
}
