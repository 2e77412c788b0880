import cron, { type ScheduledTask } from 'node-cron';
import { formatError } from '../errors/index.js';
import { scrubSecrets, type Logger } from '../log/index.js';
import type { JobContext, JobOutcome } from './job.js';
import type { JobSchedule } from './schedules.js';

export interface JobStatus {
  readonly name: string;
  readonly schedule: string;
  readonly timezone: string;
  readonly nextRun: string | null;
  readonly running: boolean;
  readonly runs: number;
  readonly skippedOverlaps: number;
  readonly lastRun: { readonly startedAt: string; readonly finishedAt?: string; readonly status: JobOutcome['status'] | 'running'; readonly summary: string } | null;
}

/** Serializes everything that writes the warehouse: DuckDB has one writer, and jobs share it. */
export interface WriterQueue {
  run<T>(section: () => Promise<T>): Promise<T>;
}

/**
 * Runs the jobs on their cron schedules. A job never overlaps itself (a tick that finds it
 * running is skipped and counted); jobs that write the warehouse queue behind one another.
 * `stop()` stops scheduling, aborts the running job's signal so it stops after committing what
 * is in flight, and waits for it.
 */
export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  private readonly state = new Map<string, { running: Promise<void> | undefined; runs: number; skipped: number; last: JobStatus['lastRun'] }>();
  private readonly controller = new AbortController();

  constructor(
    private readonly schedules: readonly JobSchedule[],
    private readonly contextFor: (name: string, signal: AbortSignal) => JobContext,
    private readonly writers: WriterQueue,
    private readonly logger: Logger,
  ) {
    for (const s of schedules) this.state.set(s.job.name, { running: undefined, runs: 0, skipped: 0, last: null });
  }

  start(): void {
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    for (const s of this.schedules) {
      const task = cron.schedule(s.expression, () => this.trigger(s.job.name), { timezone: s.timezone, name: s.job.name, logger: quiet });
      this.tasks.push(task);
      this.logger.info({ job: s.job.name, schedule: s.expression, timezone: s.timezone, nextRun: task.getNextRun()?.toISOString() }, 'job scheduled');
    }
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
      const startedAt = new Date().toISOString();
      entry.runs += 1;
      entry.last = { startedAt, status: 'running', summary: '' };
      const log = this.logger.child({ job: name });
      log.info('job started');
      try {
        const outcome = await schedule.job.run(this.contextFor(name, this.controller.signal));
        entry.last = { startedAt, finishedAt: new Date().toISOString(), status: outcome.status, summary: outcome.summary };
        log.info({ status: outcome.status }, `job finished: ${outcome.summary}`);
      } catch (error) {
        const summary = scrubSecrets(formatError(error));
        entry.last = { startedAt, finishedAt: new Date().toISOString(), status: 'failed', summary };
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
      const task = this.tasks.find((t) => t.name === s.job.name);
      return {
        name: s.job.name,
        schedule: s.expression,
        timezone: s.timezone,
        nextRun: task?.getNextRun()?.toISOString() ?? null,
        running: entry.running !== undefined,
        runs: entry.runs,
        skippedOverlaps: entry.skipped,
        lastRun: entry.last,
      };
    });
  }

  async stop(): Promise<void> {
    for (const task of this.tasks) await task.destroy();
    this.controller.abort(new Error('shutting down'));
    await Promise.all([...this.state.values()].map((entry) => entry.running));
  }
}
