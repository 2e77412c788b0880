import { Counter, Gauge, type Registry } from 'prom-client';
import { dataAgeSeconds } from '../freshness/index.js';
import type { RunEnded, RunOutcome, StreamFreshness } from '../lifecycle/index.js';

const OUTCOMES: readonly RunOutcome[] = ['succeeded', 'partial', 'failed'];
const DAY_SECONDS = 86_400;

/**
 * The metrics of runs (docs/operations.md, "Metrics"). Nothing here is touched per request or
 * per slice: a run's figures are added once, when it ends (the client and the runner count in
 * place, as they always did), so metrics cost the hot path nothing.
 */
export class RunMetrics {
  readonly runs: Counter<'job' | 'status'>;
  readonly lastDuration: Gauge<'job'>;
  readonly lastSuccess: Gauge<'job'>;
  readonly lastRun: Gauge<'job'>;
  readonly lastOutcome: Gauge<'job' | 'outcome'>;
  readonly requests: Counter<'job' | 'stream' | 'outcome'>;
  readonly retries: Counter<'job' | 'stream'>;
  readonly rowsWritten: Counter<'job' | 'table'>;
  readonly slices: Counter<'job' | 'outcome'>;
  readonly rateLimit: Gauge;
  readonly dataAge: Gauge<'stream'>;
  readonly freshnessTarget: Gauge<'stream'>;
  readonly stale: Gauge<'stream'>;
  private freshness: readonly StreamFreshness[] = [];

  constructor(readonly registry: Registry) {
    const registers = [registry];
    this.runs = new Counter({
      name: 'venue_etl_runs_total',
      help: 'Runs by job and status (pushed: the run that pushed).',
      labelNames: ['job', 'status'],
      registers,
    });
    this.lastDuration = new Gauge({
      name: 'venue_etl_last_run_duration_seconds',
      help: "The job's last run: seconds from start to end.",
      labelNames: ['job'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'venue_etl_last_success_timestamp_seconds',
      help: "End of the job's last succeeded run (Unix time).",
      labelNames: ['job'],
      registers,
    });
    this.lastRun = new Gauge({
      name: 'venue_etl_last_run_timestamp_seconds',
      help: "End of the job's last run, whatever its outcome (Unix time).",
      labelNames: ['job'],
      registers,
    });
    this.lastOutcome = new Gauge({
      name: 'venue_etl_last_run_outcome',
      help: "1 for the outcome of the job's last run, 0 for the others.",
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.requests = new Counter({
      name: 'venue_etl_api_requests_total',
      help: 'API requests by stream and outcome: ok (2xx), 429, 5xx; failed counts calls given up after their retries.',
      labelNames: ['job', 'stream', 'outcome'],
      registers,
    });
    this.retries = new Counter({ name: 'venue_etl_api_retries_total', help: 'API requests retried, by stream.', labelNames: ['job', 'stream'], registers });
    this.rowsWritten = new Counter({ name: 'venue_etl_rows_written_total', help: 'Rows written, by table.', labelNames: ['job', 'table'], registers });
    this.slices = new Counter({
      name: 'venue_etl_slices_total',
      help: 'Slices by outcome: done, failed, skipped (not run).',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.rateLimit = new Gauge({
      name: 'venue_etl_api_rate_limit_requests_per_second',
      help: "The API's rate limit the client learned or remembered.",
      registers,
    });
    this.dataAge = new Gauge({
      name: 'venue_etl_stream_data_age_seconds',
      help: "Seconds since the end of the stream's newest loaded day (its oldest cursor).",
      labelNames: ['stream'],
      registers,
    });
    this.freshnessTarget = new Gauge({
      name: 'venue_etl_stream_freshness_target_seconds',
      help: "How old the stream's newest loaded day may be (freshness.streams, else sync.staleAfterDays), from yesterday's end.",
      labelNames: ['stream'],
      registers,
    });
    this.stale = new Gauge({ name: 'venue_etl_stream_stale', help: '1 while the stream is behind its freshness target.', labelNames: ['stream'], registers });
  }

  /** Adds a finished run's figures (once per run). */
  recordRun(run: RunEnded): void {
    const job = run.job;
    const end = run.finishedAt.getTime() / 1000;
    this.runs.inc({ job, status: run.outcome });
    this.lastDuration.set({ job }, run.durationMs / 1000);
    this.lastRun.set({ job }, end);
    if (run.outcome === 'succeeded') this.lastSuccess.set({ job }, end);
    for (const outcome of OUTCOMES) this.lastOutcome.set({ job, outcome }, outcome === run.outcome ? 1 : 0);
    const totals = run.totals;
    if (totals) {
      for (const s of totals.requestsByStream) {
        this.requests.inc({ job, stream: s.stream, outcome: 'ok' }, s.ok);
        this.requests.inc({ job, stream: s.stream, outcome: '429' }, s.throttled);
        this.requests.inc({ job, stream: s.stream, outcome: '5xx' }, s.serverErrors);
        this.requests.inc({ job, stream: s.stream, outcome: 'failed' }, s.failed);
        this.retries.inc({ job, stream: s.stream }, s.retries);
      }
      for (const [table, rows] of Object.entries(totals.rowsByTable)) this.rowsWritten.inc({ job, table }, rows);
      this.slices.inc({ job, outcome: 'done' }, totals.slicesDone);
      this.slices.inc({ job, outcome: 'failed' }, totals.slicesFailed);
      this.slices.inc({ job, outcome: 'skipped' }, totals.slicesSkipped);
      if (totals.rateLimitPerSecond !== undefined) this.rateLimit.set(totals.rateLimitPerSecond);
    }
    if (run.freshness) this.setFreshness(run.freshness);
  }

  /** The streams' freshness; ages are read against the clock at each scrape or push. */
  setFreshness(freshness: readonly StreamFreshness[]): void {
    this.freshness = freshness;
    this.refreshFreshness(new Date());
  }

  refreshFreshness(now: Date): void {
    for (const f of this.freshness) {
      this.dataAge.set({ stream: f.stream }, dataAgeSeconds(f, now));
      // The target counts days behind yesterday: the age of the newest day may reach target + 1 days.
      this.freshnessTarget.set({ stream: f.stream }, (f.maxAgeDays + 1) * DAY_SECONDS);
      this.stale.set({ stream: f.stream }, f.stale ? 1 : 0);
    }
  }
}
