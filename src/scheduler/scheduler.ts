import { formatError } from '../errors/index.js';
import { scrubSecrets, type Logger } from '../log/index.js';
import { CronTimes } from './cron-times.js';
import type { JobContext, JobOutcome } from './job.js';
import { systemClock, type SchedulerClock } from './scheduler-clock.js';
import type { JobSchedule } from './schedules.js';

export interface JobStatus {
  readonly name: string;
  readonly schedule: string;
  readonly timezone: string;
  readonly nextRun: string | null;
  readonly running: boolean;
  readonly runs: number;
  readonly skippedOverlaps: number;
  readonly lastRun: {
    readonly startedAt: string;
    readonly finishedAt?: string;
    readonly status: JobOutcome['status'] | 'running';
    readonly summary: string;
  } | null;
}

/** Serializes everything that writes the warehouse: DuckDB has one writer, and jobs share it. */
export interface WriterQueue {
  run<T>(section: () => Promise<T>): Promise<T>;
}

/**
 * A sleeping scheduler wakes at least this often and looks at the clock again: a clock set
 * forward or a machine waking from sleep is noticed within a minute.
 */
const MAX_SLEEP_MS = 60_000;

interface JobState {
  readonly times: CronTimes;
  /** When the job fires next (epoch ms). */
  next: number;
  cancelTimer: (() => void) | undefined;
  running: Promise<void> | undefined;
  runs: number;
  skipped: number;
  last: JobStatus['lastRun'];
}

/**
 * Runs the jobs on their cron schedules, at the times `CronTimes` computes (daylight saving
 * time included; `venue-etl jobs` shows the same times). A job never overlaps itself (a tick
 * that finds it running is skipped and counted); jobs that write the warehouse queue behind one
 * another. A fire time missed while the machine slept runs once when it wakes. `stop()` stops
 * scheduling, aborts the running job's signal so it stops after committing what is in flight,
 * and waits for it.
 */
export class Scheduler {
  private readonly state = new Map<string, JobState>();
  private readonly controller = new AbortController();
  private readonly hurryController = new AbortController();
  private started = false;

  constructor(
    private readonly schedules: readonly JobSchedule[],
    private readonly contextFor: (name: string, signal: AbortSignal, hurry: AbortSignal) => JobContext,
    private readonly writers: WriterQueue,
    private readonly logger: Logger,
    private readonly clock: SchedulerClock = systemClock,
  ) {
    for (const s of schedules) {
      const times = new CronTimes(s.expression, s.timezone);
      this.state.set(s.job.name, { times, next: times.nextAfter(clock.now()), cancelTimer: undefined, running: undefined, runs: 0, skipped: 0, last: null });
    }
  }

  start(): void {
    this.started = true;
    for (const s of this.schedules) {
      const entry = this.state.get(s.job.name)!;
      entry.next = entry.times.nextAfter(this.clock.now());
      this.logger.info({ job: s.job.name, schedule: s.expression, timezone: s.timezone, nextRun: new Date(entry.next).toISOString() }, 'job scheduled');
      this.wake(s.job.name);
    }
  }

  /** Fires the job if its time has come, then sleeps until its next time (or MAX_SLEEP_MS). */
  private wake(name: string): void {
    const entry = this.state.get(name)!;
    entry.cancelTimer = undefined;
    if (!this.started || this.controller.signal.aborted) return;
    const now = this.clock.now();
    if (now >= entry.next) {
      // Times that passed meanwhile (a sleeping machine) collapse into this one run.
      entry.next = entry.times.nextAfter(Math.max(entry.next, now));
      void this.trigger(name);
    }
    entry.cancelTimer = this.clock.setTimer(() => this.wake(name), Math.min(entry.next - now, MAX_SLEEP_MS));
  }

  /** Runs a job now (a tick, or a test); resolves when it is finished or skipped. */
  trigger(name: string): Promise<void> {
    const entry = this.state.get(name);
    const schedule = this.schedules.find((s) => s.job.name === name);
    if (!entry || !schedule) return Promise.resolve();
    if (this.controller.signal.aborted) return Promise.resolve();
    if (entry.running) {
      entry.skipped += 1;
      this.logger.warn({ job: name }, 'previous run of this job is still going; this tick is skipped');
      return Promise.resolve();
    }
    const run = this.writers.run(async () => {
      if (this.controller.signal.aborted) return;
      const startedAt = new Date(this.clock.now()).toISOString();
      entry.runs += 1;
      entry.last = { startedAt, status: 'running', summary: '' };
      const log = this.logger.child({ job: name });
      log.info('job started');
      try {
        const outcome = await schedule.job.run(this.contextFor(name, this.controller.signal, this.hurryController.signal));
        entry.last = { startedAt, finishedAt: new Date(this.clock.now()).toISOString(), status: outcome.status, summary: outcome.summary };
        log.info({ status: outcome.status }, `job finished: ${outcome.summary}`);
      } catch (error) {
        const summary = scrubSecrets(formatError(error));
        entry.last = { startedAt, finishedAt: new Date(this.clock.now()).toISOString(), status: 'failed', summary };
        log.error({ status: 'failed' }, `job failed: ${summary}`);
      }
    });
    entry.running = run.finally(() => {
      entry.running = undefined;
    });
    return entry.running;
  }

  status(): JobStatus[] {
    return this.schedules.map((s) => {
      const entry = this.state.get(s.job.name)!;
      return {
        name: s.job.name,
        schedule: s.expression,
        timezone: s.timezone,
        nextRun: this.controller.signal.aborted ? null : new Date(entry.next).toISOString(),
        running: entry.running !== undefined,
        runs: entry.runs,
        skippedOverlaps: entry.skipped,
        lastRun: entry.last,
      };
    });
  }

  /**
   * No more ticks; the running job is told to stop (it commits what is in flight and records
   * its run) and waited for. `hurry` aborting tells it to stop waiting for anything.
   */
  async stop(options: { readonly reason?: unknown; readonly hurry?: AbortSignal } = {}): Promise<void> {
    const { hurry } = options;
    for (const entry of this.state.values()) {
      entry.cancelTimer?.();
      entry.cancelTimer = undefined;
    }
    this.controller.abort(options.reason ?? new Error('serve is stopping'));
    const passOn = (): void => this.hurryController.abort(hurry?.reason);
    if (hurry?.aborted) passOn();
    else hurry?.addEventListener('abort', passOn, { once: true });
    try {
      await Promise.all([...this.state.values()].map((entry) => entry.running));
    } finally {
      hurry?.removeEventListener('abort', passOn);
      for (const entry of this.state.values()) entry.times.dispose();
    }
  }
}
