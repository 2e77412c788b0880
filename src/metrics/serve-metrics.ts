import { Counter, Gauge, Registry } from 'prom-client';
import type { RunObserver } from '../lifecycle/index.js';
import type { ReceiverStats } from '../receiver/index.js';
import type { FoundRunState } from '../run-state/index.js';
import { RunMetrics } from './run-metrics.js';

export interface ServeSources {
  /** The receiver's counters, when it runs. */
  readonly receiver: () => ReceiverStats | undefined;
  readonly maxJournalBytes: number;
  /** The run-state file beside the warehouse: this serve's job or another process's run. */
  readonly runState: () => FoundRunState | undefined;
}

/**
 * serve's registry: the runs of its jobs (added when each ends), and at each scrape the
 * receiver's counters and the progress of whatever run holds the warehouse (its run-state file).
 */
export class ServeMetrics {
  readonly registry = new Registry();
  readonly runs = new RunMetrics(this.registry);

  constructor(sources: ServeSources) {
    const registers = [this.registry];
    const receiver = sources.receiver;
    const counter = (name: string, help: string, read: (stats: ReceiverStats) => number): void => {
      new Counter({
        name,
        help,
        registers,
        collect() {
          const stats = receiver();
          this.reset();
          if (stats) this.inc(read(stats));
        },
      });
    };
    counter('venue_etl_receiver_events_acknowledged_total', 'Events the receiver acknowledged (durable in its journal).', (s) => s.accepted);
    counter('venue_etl_receiver_events_merged_total', 'Acknowledged events merged into the warehouse (new ones; duplicates apart).', (s) => s.merged.inserted);
    counter('venue_etl_receiver_events_refused_journal_full_total', 'Events refused with 503 because the journal was full.', (s) => s.journal.refusedFull);
    new Gauge({
      name: 'venue_etl_receiver_journal_bytes',
      help: 'Journal bytes not yet merged into the warehouse.',
      registers,
      collect() {
        const stats = receiver();
        if (stats) this.set(stats.journal.unmergedBytes);
      },
    });
    new Gauge({ name: 'venue_etl_receiver_journal_max_bytes', help: 'receiver.maxJournalBytes: past it events are refused.', registers }).set(
      sources.maxJournalBytes,
    );
    runStateGauges(registers, sources.runState);
  }

  observer(): RunObserver {
    return { name: 'metrics', finished: (run) => this.runs.recordRun(run) };
  }

  async text(): Promise<string> {
    this.runs.refreshFreshness(new Date());
    return this.registry.metrics();
  }
}

function runStateGauges(registers: Registry[], read: () => FoundRunState | undefined): void {
  let found: FoundRunState | undefined;
  const live = (): FoundRunState | undefined => (found?.alive === false ? undefined : found);
  new Gauge({
    name: 'venue_etl_run_in_progress',
    help: '1 while a run holds the warehouse (its run-state file is fresh and its process alive).',
    labelNames: ['job'],
    registers,
    collect() {
      found = read();
      this.reset();
      const state = live()?.state;
      if (state) this.set({ job: state.job }, 1);
    },
  });
  new Gauge({
    name: 'venue_etl_run_state_orphaned',
    help: '1 when the run-state file was left by a process that is gone (a run that never finished).',
    registers,
    collect() {
      this.set(found?.alive === false ? 1 : 0);
    },
  });
  const figure = (name: string, help: string, value: (s: FoundRunState['state']) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['job'],
      registers,
      collect() {
        this.reset();
        const state = live()?.state;
        if (state) this.set({ job: state.job }, value(state));
      },
    });
  };
  figure('venue_etl_run_slices_done', 'Slices the running run has done.', (s) => s.slicesDone);
  figure('venue_etl_run_slices_planned', 'Slices the running run planned.', (s) => s.slicesTotal);
  figure('venue_etl_run_requests', 'Requests the running run has sent.', (s) => s.requests);
  figure('venue_etl_run_eta_seconds', 'Seconds the running run has left at its pace so far.', (s) => s.etaSeconds ?? Number.NaN);
}
