import type { Logger } from '../log/index.js';

export interface ProgressSnapshot {
  readonly slicesDone: number;
  readonly slicesTotal: number;
  readonly rows: number;
  readonly requests: number;
  readonly elapsedMs: number;
}

/**
 * Progress of a long run: a one-line bar redrawn on a terminal, a log line at a steady interval
 * otherwise (a cron log should show life without drowning in lines).
 */
export class ProgressReporter {
  private timer: NodeJS.Timeout | undefined;
  private readonly started = Date.now();
  slicesDone = 0;
  rows = 0;

  constructor(
    private readonly slicesTotal: number,
    private readonly requests: () => number,
    private readonly options: { readonly logger: Logger; readonly tty?: NodeJS.WriteStream; readonly intervalMs?: number; readonly label: string },
  ) {}

  start(): void {
    const interval = this.options.tty ? 250 : (this.options.intervalMs ?? 10_000);
    this.timer = setInterval(() => this.emit(), interval);
    this.timer.unref();
  }

  sliceDone(rows: number): void {
    this.slicesDone += 1;
    this.rows += rows;
  }

  snapshot(): ProgressSnapshot {
    return { slicesDone: this.slicesDone, slicesTotal: this.slicesTotal, rows: this.rows, requests: this.requests(), elapsedMs: Date.now() - this.started };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.options.tty) {
      this.emit();
      this.options.tty.write('\n');
    }
  }

  private emit(): void {
    const s = this.snapshot();
    const seconds = s.elapsedMs / 1000;
    const rate = seconds > 0 ? s.requests / seconds : 0;
    const remaining = s.slicesDone > 0 ? ((s.slicesTotal - s.slicesDone) * seconds) / s.slicesDone : undefined;
    if (this.options.tty) {
      const width = 24;
      const filled = s.slicesTotal > 0 ? Math.round((s.slicesDone / s.slicesTotal) * width) : width;
      const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
      const eta = remaining === undefined ? '--' : formatDuration(remaining);
      this.options.tty.write(`\r${this.options.label} [${bar}] ${s.slicesDone}/${s.slicesTotal} slices  ${s.rows} rows  ${rate.toFixed(1)} req/s  ETA ${eta}   `);
    } else {
      this.options.logger.info({ slicesDone: s.slicesDone, slicesTotal: s.slicesTotal, rows: s.rows, requestsPerSecond: Number(rate.toFixed(1)), etaSeconds: remaining === undefined ? null : Math.round(remaining) }, `${this.options.label} progress`);
    }
  }
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}
