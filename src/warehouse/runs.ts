import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';

export type RunStatus = 'running' | 'succeeded' | 'partial' | 'failed';

export interface RunTotals {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly requests?: number;
  readonly retries?: number;
  readonly rowsWritten?: number;
  readonly errors?: number;
  /** Merged into the run's detail (JSON object). */
  readonly detail?: Readonly<Record<string, unknown>>;
}

export interface RunRow {
  readonly runId: string;
  readonly job: string;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly status: RunStatus;
  readonly requests: number;
  readonly retries: number;
  readonly rowsWritten: number;
  readonly errors: number;
  readonly detail: Record<string, unknown>;
}

/** Runs started by this process and not finished yet; any other 'running' run is abandoned. */
const liveRuns = new Set<string>();

/**
 * `20260121T054300123Z-3f9a1c`: sorts by start time (to the millisecond), unique thanks to the
 * random suffix, and readable in `status` output.
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export async function startRun(session: Session, job: string, detail: Readonly<Record<string, unknown>> = {}): Promise<string> {
  const runId = newRunId();
  const fullDetail = { ...detail, pid: process.pid, host: hostname() };
  await session.run(sql('warehouse/run-start.sql'), [runId, job, JSON.stringify(fullDetail)]);
  await markTableChanged(session, 'sync_runs');
  liveRuns.add(runId);
  return runId;
}

export async function finishRun(session: Session, runId: string, totals: RunTotals): Promise<void> {
  await session.run(sql('warehouse/run-finish.sql'), [
    runId,
    totals.status,
    totals.requests ?? 0,
    totals.retries ?? 0,
    totals.rowsWritten ?? 0,
    totals.errors ?? 0,
    JSON.stringify(totals.detail ?? {}),
  ]);
  await markTableChanged(session, 'sync_runs');
  liveRuns.delete(runId);
}

/**
 * A run whose end cannot be recorded (its warehouse stopped taking writes: a full disk, a
 * corrupt file) is no longer live: the next run marks it failed, in this process too (`serve`).
 */
export function forgetRun(runId: string): void {
  liveRuns.delete(runId);
}

/**
 * Marks as failed the runs left 'running' by a process that died (kill -9, power loss) or whose
 * warehouse stopped taking writes before it could record the end (a full disk). Only one
 * process can write the warehouse at a time, so while this one holds it, a 'running' run it
 * is not running itself is over. The old pid stays in detail.
 */
export async function markAbandonedRuns(session: Session): Promise<string[]> {
  const running = await session.all<{ run_id: string }>(sql('warehouse/runs-running.sql'));
  const abandoned = running.map((row) => row.run_id).filter((runId) => !liveRuns.has(runId));
  for (const runId of abandoned) {
    const why = {
      abandoned:
        'the process that ran it ended without finishing it (killed, crashed, or stopped by a warehouse that took no more writes, ' +
        `e.g. a full disk: its log says which); marked failed by pid ${process.pid}`,
    };
    await session.run(sql('warehouse/run-abandoned.sql'), [runId, JSON.stringify(why)]);
  }
  if (abandoned.length > 0) await markTableChanged(session, 'sync_runs');
  return abandoned;
}

/** A sync_runs row as runs-read.sql returns it. */
const StoredRun = z.object({
  run_id: z.string(),
  job: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  status: z.enum(['running', 'succeeded', 'partial', 'failed']),
  requests: z.number(),
  retries: z.number(),
  rows_written: z.number(),
  errors: z.number(),
  detail: z.string().nullable(),
});

const Detail = z.record(z.string(), z.unknown());

export async function readRuns(session: Pick<Session, 'all'>, limit = 20): Promise<RunRow[]> {
  const rows = await session.all(sql('warehouse/runs-read.sql'), [limit]);
  return rows.map((stored) => {
    const row = StoredRun.parse(stored);
    return {
      runId: row.run_id,
      job: row.job,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      status: row.status,
      requests: row.requests,
      retries: row.retries,
      rowsWritten: row.rows_written,
      errors: row.errors,
      detail: row.detail === null ? {} : Detail.parse(JSON.parse(row.detail)),
    };
  });
}

/** A remembered rate limit: a number of requests per second a client can pace at. */
const RememberedRateLimit = z.coerce.number().finite().positive();

/**
 * The API's rate limit (requests/s) the latest finished run against `apiUrl` recorded in
 * `detail.api.rateLimitPerSecond`; undefined when it recorded none, or something that is not a
 * rate (a hand-edited detail must not pace a run at nonsense).
 */
export async function rememberedRateLimit(session: Pick<Session, 'all'>, apiUrl: string): Promise<number | undefined> {
  const [row] = await session.all<{ rate_limit: string | null }>(sql('warehouse/runs-rate-limit.sql'), [apiUrl]);
  if (row === undefined || row.rate_limit === null) return undefined;
  const parsed = RememberedRateLimit.safeParse(row.rate_limit);
  return parsed.success ? parsed.data : undefined;
}
