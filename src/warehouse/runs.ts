import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Session } from './session.js';

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
  await session.run(
    `INSERT INTO sync_runs (run_id, job, started_at, status, detail) VALUES ($1, $2, now(), 'running', $3::JSON)`,
    [runId, job, JSON.stringify(fullDetail)],
  );
  liveRuns.add(runId);
  return runId;
}

export async function finishRun(session: Session, runId: string, totals: RunTotals): Promise<void> {
  await session.run(
    `UPDATE sync_runs SET finished_at = now(), status = $2, requests = $3, retries = $4, rows_written = $5,
       errors = $6, detail = json_merge_patch(coalesce(detail, '{}'::JSON), $7::JSON)
     WHERE run_id = $1`,
    [
      runId,
      totals.status,
      totals.requests ?? 0,
      totals.retries ?? 0,
      totals.rowsWritten ?? 0,
      totals.errors ?? 0,
      JSON.stringify(totals.detail ?? {}),
    ],
  );
  liveRuns.delete(runId);
}

/**
 * Marks as failed the runs left 'running' by a process that died (kill -9, power loss).
 * Only one process can write the warehouse at a time, so while this one holds it, a
 * 'running' run it did not start itself cannot still be running. The old pid stays in detail.
 */
export async function markAbandonedRuns(session: Session): Promise<string[]> {
  const running = await session.all<{ run_id: string }>(`SELECT run_id FROM sync_runs WHERE status = 'running'`);
  const abandoned = running.map((row) => row.run_id).filter((runId) => !liveRuns.has(runId));
  for (const runId of abandoned) {
    await session.run(
      `UPDATE sync_runs SET status = 'failed', finished_at = now(),
         detail = json_merge_patch(coalesce(detail, '{}'::JSON), $2::JSON)
       WHERE run_id = $1`,
      [
        runId,
        JSON.stringify({
          abandoned: `the process that ran it ended without finishing it; marked failed by pid ${process.pid}`,
        }),
      ],
    );
  }
  return abandoned;
}

export async function readRuns(session: Pick<Session, 'all'>, limit = 20): Promise<RunRow[]> {
  const rows = await session.all<Record<string, unknown>>(
    `SELECT run_id, job, strftime(started_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS started_at,
       strftime(finished_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS finished_at, status,
       requests::DOUBLE AS requests, retries::DOUBLE AS retries, rows_written::DOUBLE AS rows_written,
       errors::DOUBLE AS errors, detail::VARCHAR AS detail
     FROM sync_runs ORDER BY run_id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    runId: String(row.run_id),
    job: String(row.job),
    startedAt: String(row.started_at),
    finishedAt: row.finished_at === null ? null : String(row.finished_at),
    status: row.status as RunStatus,
    requests: Number(row.requests),
    retries: Number(row.retries),
    rowsWritten: Number(row.rows_written),
    errors: Number(row.errors),
    detail: row.detail === null ? {} : (JSON.parse(String(row.detail)) as Record<string, unknown>),
  }));
}
