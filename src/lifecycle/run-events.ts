/**
 * What the run lifecycle tells its observers (notifications, metrics, the run-state file,
 * lineage): a run begun, its progress every few seconds, and how it finished. One vocabulary
 * for all of them, so none of them reads the runner's internals.
 */

/** The batch commands whose runs are observed. */
export type RunCommand = 'sync' | 'backfill' | 'export' | 'merge-events';

export type RunOutcome = 'succeeded' | 'partial' | 'failed';

export interface RunIdentity {
  /** The job name recorded in `sync_runs.job` (`sync`, `backfill`, a serve job such as `nightly-sync`). */
  readonly job: string;
  readonly command: RunCommand;
  /** `I/N` when the worker runs a shard (metrics are grouped by it). */
  readonly shard?: string;
  readonly warehousePath: string;
}

export interface RunBegun extends RunIdentity {
  readonly runId: string;
  readonly startedAt: Date;
  /** Streams (sync, backfill) or tables (export) the run works on. */
  readonly streams: readonly string[];
  /** Status of the job's previous finished run, if any (for `run.recovered`). */
  readonly previousStatus?: RunOutcome | undefined;
}

/** The live figures of a running run, read every few seconds (never per request). */
export interface LiveProgress {
  readonly slicesDone: number;
  readonly slicesTotal: number;
  readonly requests: number;
  readonly rows: number;
  /** The last failed slice's code and message, scrubbed. */
  readonly lastError?: string | undefined;
}

export interface FailedScope {
  readonly stream: string;
  readonly scopeId: string;
  readonly code: string;
  readonly message: string;
}

/** A schema change seen by the run: an attribute the catalogue does not know, or one the API stopped sending. */
export interface DriftSeen {
  readonly stream: string;
  readonly attribute: string;
  readonly change: 'added' | 'missing';
}

/** Requests of one stream by outcome: answered 2xx, refused with 429, answered 5xx, calls given up. */
export interface StreamRequests {
  readonly stream: string;
  readonly ok: number;
  readonly throttled: number;
  readonly serverErrors: number;
  readonly failed: number;
  readonly retries: number;
}

export interface StreamFreshness {
  readonly stream: string;
  /** The newest day every scope of the stream has loaded (its oldest cursor). */
  readonly newestDay: string;
  readonly daysBehind: number;
  readonly maxAgeDays: number;
  readonly stale: boolean;
}

/**
 * A roles snapshot the run held back instead of storing it (the run records these in its
 * `sync_runs.detail`); each run that held any is told as `snapshot.held`.
 */
export interface HeldSnapshot {
  readonly stream: string;
  readonly scopeId: string;
  readonly reason: string;
}

export interface RunTotals {
  readonly slicesTotal: number;
  readonly slicesDone: number;
  readonly slicesFailed: number;
  readonly slicesSkipped: number;
  readonly requests: number;
  readonly retries: number;
  readonly throttled: number;
  readonly rowsWritten: number;
  /** Rows written per warehouse table (or Parquet table, for the export). */
  readonly rowsByTable: Readonly<Record<string, number>>;
  readonly requestsByStream: readonly StreamRequests[];
  readonly rateLimitPerSecond?: number | undefined;
}

export interface RunEnded extends RunBegun {
  readonly outcome: RunOutcome;
  /** Stopped by a signal (lineage ABORT). */
  readonly interrupted: boolean;
  readonly finishedAt: Date;
  readonly durationMs: number;
  /** Failed before its first slice: the access check, a held lock, the API unreachable. */
  readonly beforeFirstSlice: boolean;
  readonly totals?: RunTotals | undefined;
  /** The first failed slices (at most MAX_FAILURES_KEPT) and how many failed in all. */
  readonly failures: readonly FailedScope[];
  readonly failuresTotal: number;
  /** The error that stopped the run, scrubbed. */
  readonly error?: { readonly code: string; readonly message: string; readonly hint?: string | undefined } | undefined;
  readonly drift: readonly DriftSeen[];
  /** Freshness of every stream after the run (read while the warehouse was still open). */
  readonly freshness?: readonly StreamFreshness[] | undefined;
  readonly snapshotsHeld?: readonly HeldSnapshot[] | undefined;
  /** Data the run read and wrote, for lineage (API endpoints, warehouse tables, Parquet prefixes). */
  readonly datasets?: RunDatasets | undefined;
}

export interface RunDatasets {
  readonly inputs: readonly DatasetRef[];
  readonly outputs: readonly DatasetRef[];
}

export interface DatasetRef {
  readonly namespace: string;
  readonly name: string;
  /** Column names and types, when known (the OpenLineage schema facet). */
  readonly fields?: readonly { readonly name: string; readonly type: string }[];
  readonly rowCount?: number;
}

/**
 * An observer of runs. Each hook is optional; a hook that throws or rejects is logged and never
 * touches the run. `finished` may deliver over the network: the lifecycle waits for it, bounded
 * by the observer's own timeouts, before the process exits.
 */
export interface RunObserver {
  readonly name: string;
  started?(run: RunBegun): void | Promise<void>;
  progress?(run: RunBegun, live: LiveProgress): void;
  finished?(run: RunEnded): void | Promise<void>;
}
