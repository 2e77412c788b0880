import { appendFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { z } from 'zod';
import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';

/** A run that failed before its first slice, as `sync_runs` records it. */
export interface FailedRunRecord {
  readonly runId: string;
  readonly job: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

const Deferred = z.object({
  runId: z.string().min(1),
  job: z.string().min(1),
  startedAt: z.string().min(1),
  finishedAt: z.string().min(1),
  detail: z.record(z.string(), z.unknown()),
});

export async function insertFailedRun(session: Session, run: FailedRunRecord): Promise<void> {
  await session.run(sql('warehouse/run-insert-failed.sql'), [run.runId, run.job, run.startedAt, run.finishedAt, JSON.stringify(run.detail)]);
  await markTableChanged(session, 'sync_runs');
}

export async function previousRunStatus(session: Pick<Session, 'all'>, job: string, runId: string): Promise<string | undefined> {
  const [row] = await session.all<{ status: string }>(sql('warehouse/runs-previous-status.sql'), [job, runId]);
  return row?.status;
}

/**
 * Runs that failed while another process held the warehouse (so they could not be written):
 * one JSON line each beside the warehouse, moved into `sync_runs` by the next process that
 * writes it. A few lines a failed night; appends of one short line are atomic.
 */
export function deferredRunsPath(warehousePath: string): string {
  return `${warehousePath}.failed-runs.jsonl`;
}

export function deferFailedRun(warehousePath: string, run: FailedRunRecord): void {
  appendFileSync(deferredRunsPath(warehousePath), `${JSON.stringify(run)}\n`);
}

/**
 * Takes the deferred runs for recording: the file is renamed first, so a run deferred meanwhile
 * starts a new file and is not lost. Malformed lines (a torn append) are skipped.
 */
export function takeDeferredRuns(warehousePath: string): { runs: FailedRunRecord[]; done: () => void } {
  const path = deferredRunsPath(warehousePath);
  if (!existsSync(path)) return { runs: [], done: () => undefined };
  const taking = `${path}.${process.pid}.taking`;
  renameSync(path, taking);
  const runs: FailedRunRecord[] = [];
  for (const line of readFileSync(taking, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = Deferred.safeParse(JSON.parse(line));
      if (parsed.success) runs.push(parsed.data);
    } catch {
      // A torn last line of a process killed mid-append: nothing to record.
    }
  }
  return { runs, done: () => rmSync(taking, { force: true }) };
}
