import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';

export interface JobOutcome {
  readonly status: 'succeeded' | 'partial' | 'failed';
  /** A short line for logs and /healthz, e.g. "120 slices, 5,000 rows written". */
  readonly summary: string;
}

/** What a job can do; `serve` provides it, so jobs stay a few lines of intent. */
export interface JobContext {
  readonly config: Config;
  readonly logger: Logger;
  /** Aborted on shutdown: stop after committing what is in flight. */
  readonly signal: AbortSignal;
  /** Aborted on a second signal: stop without waiting for anything, but record the run. */
  readonly hurry: AbortSignal;
  /** One incremental run of these streams (see `venue-etl sync`). */
  sync(streams: readonly string[]): Promise<JobOutcome>;
  /** Incremental Parquet export of every table (see `venue-etl export`). */
  exportParquet(): Promise<JobOutcome>;
}

/** One module in jobs/: its name, default schedule and what it runs. */
export interface JobDefinition {
  readonly name: string;
  readonly description: string;
  /** Cron expression used when `schedule.jobs` does not name the job. */
  readonly defaultSchedule: string;
  run(context: JobContext): Promise<JobOutcome>;
}
