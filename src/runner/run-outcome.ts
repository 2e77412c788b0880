import type { ApiClient } from '../api/client.js';
import { ExitCode, formatError } from '../errors/index.js';
import type { HeldSnapshot } from '../lifecycle/index.js';
import { scrubSecrets } from '../log/index.js';
import type { RunTotals } from '../warehouse/index.js';
import type { ChainRunResult } from './run-chains.js';
import type { SliceCounts } from './slice-counts.js';
import type { StreamSummary } from './stream-tally.js';

export type RunStatus = 'succeeded' | 'partial' | 'failed';

/**
 * The exit status of a run is the status it was recorded with, interrupted or not: a Ctrl-C that
 * left some slices done is `partial` in `sync_runs` and exit 3, one that did nothing `failed`
 * and exit 1 (docs/commands.md, "Exit status").
 */
export function exitCodeOf(status: RunStatus): ExitCode {
  return status === 'succeeded' ? ExitCode.ok : status === 'partial' ? ExitCode.partial : ExitCode.failed;
}

export interface RunResult {
  readonly runId: string;
  readonly status: RunStatus;
  readonly exitCode: ExitCode;
  readonly slices: SliceCounts;
  /** Per stream, sorted by name; also in `sync_runs.detail.streams`. */
  readonly streams: readonly StreamSummary[];
  readonly rowsExtracted: number;
  readonly rowsWritten: number;
  readonly requests: number;
  readonly retries: number;
  /** Requests the API refused with 429 (each retried after its Retry-After). */
  readonly throttled: number;
  /** The API's rate limit found by this run or remembered from an earlier one (docs/rate-limits.md). */
  readonly rateLimitPerSecond?: number;
  readonly durationMs: number;
  readonly interrupted: boolean;
  /** Why an interrupted run stopped, e.g. "received SIGTERM". */
  readonly interruption?: string;
  /** The error that stopped the run, formatted for a human. */
  readonly fatal?: string;
  /**
   * Whether `sync_runs` holds the run's end. Not when the warehouse stopped taking writes (a
   * full disk, a corrupt file): the row says `running` until the next run marks it failed.
   */
  readonly recorded: boolean;
  readonly drift: readonly { stream: string; attribute: string }[];
  readonly warnings: readonly string[];
  /**
   * Roles snapshots the run held back instead of storing them (also in `sync_runs.detail`):
   * told to the observers as `snapshot.held` (docs/operations.md).
   */
  readonly snapshotsHeld?: readonly HeldSnapshot[];
}

/** The two passes over a run's chains: those that resolve no ids from other streams, then those that do. */
export interface ChainPasses {
  readonly first: ChainRunResult;
  readonly second: ChainRunResult;
}

/** What the passes came to, before the run is recorded. */
export interface RunOutcome {
  /** The status the slices earn (recording the end may still fail the run). */
  readonly status: RunStatus;
  readonly slices: SliceCounts;
  /** The error that stopped the run; undefined when none did. */
  readonly fatal: unknown;
  readonly interrupted: boolean;
  readonly interruption: string | undefined;
  readonly rowsExtracted: number;
}

/** How the run stopped early, besides a fatal error: the interruption's reason, the second signal's message. */
export interface Stops {
  readonly signalReason: unknown;
  readonly hurried: string | undefined;
}

/**
 * Failed when a fatal error stopped it or it did none of its planned slices; partial when a
 * slice failed or was not run; else succeeded.
 */
export function runOutcome(passes: ChainPasses, planned: number, doneEarlier: number, stops: Stops): RunOutcome {
  const { first, second } = passes;
  const fatal = first.fatal ?? ('fatal' in second ? second.fatal : undefined);
  const done = first.done + second.done;
  const failed = first.failed + second.failed;
  const skipped = first.skipped + second.skipped;
  const interrupted = first.interrupted || second.interrupted;
  const status = fatal !== undefined || (done === 0 && planned > 0) ? 'failed' : failed > 0 || skipped > 0 ? 'partial' : 'succeeded';
  return {
    status,
    slices: { total: planned + doneEarlier, done, failed, skipped, doneEarlier },
    fatal,
    interrupted,
    interruption: interrupted ? [reasonText(stops.signalReason), stops.hurried].filter(Boolean).join('; then ') : undefined,
    rowsExtracted: first.rows + second.rows,
  };
}

/** The client's counts when the run started (a client may serve more than one run). */
export interface RequestCounts {
  readonly requests: number;
  readonly retries: number;
  readonly throttled: number;
}

export function requestCounts(client: ApiClient): RequestCounts {
  return { requests: client.stats.requests, retries: client.stats.retries, throttled: client.stats.throttled };
}

/** The run's own requests: the client's counts now less those when it started. */
export function requestsSince(client: ApiClient, before: RequestCounts): RequestCounts {
  const now = requestCounts(client);
  return { requests: now.requests - before.requests, retries: now.retries - before.retries, throttled: now.throttled - before.throttled };
}

/** What the run's end adds to `sync_runs.detail`, besides the input's own detail. */
export interface EndDetail {
  readonly streams: readonly StreamSummary[];
  /** `{ api: { url, rateLimitPerSecond } }` (rate-limit-memory.ts). */
  readonly rateLimit: Readonly<Record<string, unknown>>;
  readonly drift: readonly { stream: string; attribute: string }[];
  /** The roles snapshots held back and confirmed (held-snapshots.ts). */
  readonly held: Readonly<Record<string, unknown>>;
}

/** The end of the run as `sync_runs` records it. */
export function runEndTotals(
  outcome: RunOutcome,
  counts: RequestCounts,
  rowsWritten: number,
  inputDetail: Readonly<Record<string, unknown>> | undefined,
  end: EndDetail,
): RunTotals {
  return {
    status: outcome.status,
    requests: counts.requests,
    retries: counts.retries,
    rowsWritten,
    // The slice that met a fatal error counts among the failed ones.
    errors: outcome.slices.failed,
    detail: {
      pid: process.pid,
      ...inputDetail,
      slices: outcome.slices,
      streams: end.streams,
      ...end.rateLimit,
      ...(outcome.interrupted ? { interrupted: true, interruption: outcome.interruption } : {}),
      ...(outcome.fatal === undefined ? {} : { fatal: scrubSecrets(formatError(outcome.fatal)) }),
      ...(end.drift.length > 0 ? { drift: end.drift } : {}),
      ...end.held,
    },
  };
}

/** What the run's result says besides its outcome, counts and status. */
export interface ResultParts {
  readonly runId: string;
  readonly streams: readonly StreamSummary[];
  readonly rowsWritten: number;
  readonly rateLimitPerSecond: number | undefined;
  readonly durationMs: number;
  readonly drift: readonly { stream: string; attribute: string }[];
  readonly warnings: readonly string[];
  readonly snapshotsHeld?: readonly HeldSnapshot[];
}

/**
 * The run's result. `unrecorded`: why its end could not be recorded (the disk filled as it
 * ended): such a run failed, and says why.
 */
export function runResult(outcome: RunOutcome, counts: RequestCounts, unrecorded: unknown, parts: ResultParts): RunResult {
  const status = unrecorded === undefined ? outcome.status : 'failed';
  const stoppedBy = outcome.fatal ?? unrecorded;
  const fatalText = stoppedBy === undefined ? undefined : scrubSecrets(formatError(stoppedBy));
  return {
    runId: parts.runId,
    status,
    exitCode: exitCodeOf(status),
    slices: outcome.slices,
    streams: parts.streams,
    rowsExtracted: outcome.rowsExtracted,
    rowsWritten: parts.rowsWritten,
    requests: counts.requests,
    retries: counts.retries,
    throttled: counts.throttled,
    ...(parts.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: parts.rateLimitPerSecond }),
    durationMs: parts.durationMs,
    interrupted: outcome.interrupted,
    ...(outcome.interruption ? { interruption: outcome.interruption } : {}),
    ...(fatalText ? { fatal: fatalText } : {}),
    recorded: unrecorded === undefined,
    drift: parts.drift,
    warnings: parts.warnings,
    ...(parts.snapshotsHeld === undefined ? {} : { snapshotsHeld: parts.snapshotsHeld }),
  };
}

/** "received SIGTERM" from an abort reason (an Error, a DOMException or anything else). */
export function reasonText(reason: unknown): string {
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return typeof reason === 'string' ? reason : 'stopped';
}
