import type { Logger } from '../log/index.js';

export interface ProgressSnapshot {
  readonly slicesDone: number;
  readonly slicesTotal: number;
  readonly rows: number;
  /** Undefined for work without requests (the export): no rate is shown. */
  readonly requests: number | undefined;
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
    private readonly requests: (() => number) | undefined,
    private readonly options: {
      readonly logger: Logger;
      readonly tty?: NodeJS.WriteStream;
      readonly intervalMs?: number;
      readonly label: string;
      /** What is counted: slices (default) or, for the export, files. */
      readonly unit?: string;
    },
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
    return { slicesDone: this.slicesDone, slicesTotal: this.slicesTotal, rows: this.rows, requests: this.requests?.(), elapsedMs: Date.now() - this.started };
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
    const rate = s.requests === undefined ? undefined : seconds > 0 ? s.requests / seconds : 0;
    const remaining = s.slicesDone > 0 ? ((s.slicesTotal - s.slicesDone) * seconds) / s.slicesDone : undefined;
    const { tty } = this.options;
    if (tty) {
      // Redrawn in place: a line as wide as the terminal would wrap and scroll a line per tick.
      const columns = typeof tty.columns === 'number' && tty.columns > 0 ? tty.columns : FALLBACK_COLUMNS;
      tty.write(`\r${progressLine(this.options.label, s, rate, remaining, columns - 1, this.options.unit)}\x1b[K`);
    } else {
      const counts =
        this.options.unit === undefined
          ? { slicesDone: s.slicesDone, slicesTotal: s.slicesTotal }
          : { done: s.slicesDone, total: s.slicesTotal, unit: this.options.unit };
      this.options.logger.info(
        {
          ...counts,
          rows: s.rows,
          ...(rate === undefined ? {} : { requestsPerSecond: Number(rate.toFixed(1)) }),
          etaSeconds: remaining === undefined ? null : Math.round(remaining),
        },
        `${this.options.label} progress`,
      );
    }
  }
}

/** A terminal that does not say its width (e.g. a pty of size 0) is taken as the classic 80. */
const FALLBACK_COLUMNS = 80;
/** A bar narrower than this says little: fields are dropped first. */
const MIN_BAR = 10;
const MAX_BAR = 40;

/**
 * `backfill [#####.....] 12/35 slices  840 rows  31.2 req/s  ETA 4s`, at most `width` characters:
 * the bar takes the room the figures leave (up to 40), and on a narrow terminal the rate, then
 * the rows, then the ETA are left out before the bar shrinks below 10. Without a rate
 * (`export [###.......] 40/132 files  …`) that field is never shown.
 */
export function progressLine(
  label: string,
  s: ProgressSnapshot,
  rate: number | undefined,
  remainingSeconds: number | undefined,
  width: number,
  unit = 'slices',
): string {
  const fields = {
    rows: `${s.rows} rows`,
    rate: rate === undefined ? undefined : `${rate.toFixed(1)} req/s`,
    eta: `ETA ${remainingSeconds === undefined ? '--' : formatDuration(remainingSeconds)}`,
  };
  const dropOrder: readonly (keyof typeof fields)[][] = [[], ['rate'], ['rate', 'rows'], ['rate', 'rows', 'eta']];
  for (const [attempt, dropped] of dropOrder.entries()) {
    const shown = [
      `${s.slicesDone}/${s.slicesTotal} ${unit}`,
      ...(['rows', 'rate', 'eta'] as const).filter((key) => !dropped.includes(key)).flatMap((key) => fields[key] ?? []),
    ];
    const text = shown.join('  ');
    const room = width - label.length - text.length - 4; // "label [" and "] "
    if (room >= MIN_BAR || attempt === dropOrder.length - 1) {
      const barWidth = Math.max(0, Math.min(MAX_BAR, room));
      const filled = s.slicesTotal > 0 ? Math.round((s.slicesDone / s.slicesTotal) * barWidth) : barWidth;
      const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${text}`;
      return line.slice(0, Math.max(0, width));
    }
  }
  return '';
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}
