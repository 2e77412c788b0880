import { randomUUID } from 'node:crypto';
import type { NotifyEvent } from '../config/index.js';
import type { DriftSeen, FailedScope, HeldSnapshot, RunEnded, RunOutcome, StreamFreshness } from '../lifecycle/index.js';

/** The version of the JSON body (docs/operations.md, "Event bodies"): a field is only ever added within a version. */
export const BODY_VERSION = 1;

export interface JournalFullFacts {
  readonly unmergedBytes: number;
  readonly maxJournalBytes: number;
  readonly refused: number;
}

/** The `json` format's body; the `slack` format is made from it. */
export interface NotificationBody {
  readonly version: typeof BODY_VERSION;
  readonly event: NotifyEvent;
  readonly id: string;
  readonly time: string;
  readonly title: string;
  /** A short next step for whoever reads it. */
  readonly nextStep: string;
  readonly job?: string;
  readonly runId?: string;
  readonly shard?: string;
  readonly outcome?: RunOutcome;
  readonly beforeFirstSlice?: boolean;
  readonly totals?: {
    readonly slicesDone: number;
    readonly slicesTotal: number;
    readonly slicesFailed: number;
    readonly requests: number;
    readonly rowsWritten: number;
    readonly durationMs: number;
  };
  readonly error?: { readonly code: string; readonly message: string; readonly hint?: string | undefined };
  readonly failures?: readonly FailedScope[];
  readonly failuresTotal?: number;
  readonly streams?: readonly StreamFreshness[];
  readonly drift?: readonly DriftSeen[];
  readonly receiver?: JournalFullFacts;
  readonly snapshots?: readonly HeldSnapshot[];
}

type Fields = Omit<NotificationBody, 'version' | 'id' | 'time'>;

function body(fields: Fields, now = new Date()): NotificationBody {
  return { version: BODY_VERSION, id: randomUUID(), time: now.toISOString(), ...fields };
}

function runFields(run: RunEnded): Pick<NotificationBody, 'job' | 'runId' | 'shard' | 'outcome' | 'beforeFirstSlice' | 'totals'> {
  const t = run.totals;
  return {
    job: run.job,
    runId: run.runId,
    ...(run.shard ? { shard: run.shard } : {}),
    outcome: run.outcome,
    beforeFirstSlice: run.beforeFirstSlice,
    ...(t
      ? {
          totals: {
            slicesDone: t.slicesDone,
            slicesTotal: t.slicesTotal,
            slicesFailed: t.slicesFailed,
            requests: t.requests,
            rowsWritten: t.rowsWritten,
            durationMs: run.durationMs,
          },
        }
      : {}),
  };
}

/** run.failed / run.partial / run.recovered for a finished run, or none (a success after a success). */
export function runOutcomeBody(run: RunEnded): NotificationBody | undefined {
  const failures = run.failuresTotal > 0 ? { failures: run.failures, failuresTotal: run.failuresTotal } : {};
  const error = run.error ? { error: run.error } : {};
  if (run.outcome === 'failed') {
    const why = run.error ? `${run.error.code}` : `${run.failuresTotal} failed slices`;
    return body({
      event: 'run.failed',
      title: `${run.job} run ${run.runId} failed${run.beforeFirstSlice ? ' before its first slice' : ''}: ${why}`,
      nextStep: run.error?.hint ?? 'The next run retries what failed (cursors did not move); `venue-etl status` lists the failed slices.',
      ...runFields(run),
      ...error,
      ...failures,
    });
  }
  if (run.outcome === 'partial') {
    return body({
      event: 'run.partial',
      title: `${run.job} run ${run.runId} was partial: ${run.failuresTotal} failed, ${run.totals?.slicesSkipped ?? 0} not run${run.interrupted ? ' (interrupted)' : ''}`,
      nextStep: 'The next run retries the failed and skipped slices; `venue-etl status` lists them with their error codes.',
      ...runFields(run),
      ...error,
      ...failures,
    });
  }
  if (run.previousStatus === 'failed' || run.previousStatus === 'partial') {
    return body({
      event: 'run.recovered',
      title: `${run.job} run ${run.runId} succeeded after a ${run.previousStatus} run`,
      nextStep: 'Nothing to do: the slices that failed before are loaded.',
      ...runFields(run),
    });
  }
  return undefined;
}

export function driftBody(run: RunEnded): NotificationBody | undefined {
  if (run.drift.length === 0) return undefined;
  const names = run.drift.map((d) => `${d.stream}.${d.attribute} (${d.change})`).join(', ');
  const missing = run.drift.some((d) => d.change === 'missing');
  return body({
    event: 'schema.drift',
    title: `the API's schema changed: ${names}`,
    nextStep: missing
      ? 'Slices of an attribute the API stopped sending fail until venue-etl is updated (docs/api.md lists the fields); the other streams load.'
      : 'Known attributes are loaded and the new ones ignored; update venue-etl to load them.',
    ...runFields(run),
    drift: run.drift,
  });
}

export function staleBody(streams: readonly StreamFreshness[], run?: RunEnded): NotificationBody {
  const names = streams.map((s) => `${s.stream} (${s.daysBehind} days behind, target ${s.maxAgeDays})`).join(', ');
  return body({
    event: 'stream.stale',
    title: `stale data: ${names}`,
    nextStep: 'Check that the nightly job runs and succeeds (`venue-etl status`); the next successful run catches up from the cursors.',
    ...(run ? runFields(run) : {}),
    streams,
  });
}

export function journalFullBody(facts: JournalFullFacts): NotificationBody {
  return body({
    event: 'receiver.journal_full',
    title: `the receiver's journal is full (${facts.unmergedBytes} of ${facts.maxJournalBytes} bytes unmerged): events are refused with 503`,
    nextStep:
      'The warehouse has not taken events for a while: see that serve can merge (a long job holding the warehouse, a disk error), or run `venue-etl merge-events`; the platform retries refused events.',
    receiver: facts,
  });
}

export function snapshotHeldBody(run: RunEnded, snapshots: readonly HeldSnapshot[]): NotificationBody {
  return body({
    event: 'snapshot.held',
    title: `${snapshots.length} roles snapshot${snapshots.length === 1 ? '' : 's'} held back: ${snapshots.map((s) => `${s.stream} ${s.scopeId}`).join(', ')}`,
    nextStep: 'The stored roles were kept; review the change the API reported and rerun when it is expected.',
    ...runFields(run),
    snapshots,
  });
}
