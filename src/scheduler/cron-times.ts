import cron, { type ScheduledTask } from 'node-cron';
import { firstInstantAtOrAfter, wallTimeAt } from './zoned-time.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Far enough for any expression that can match at all (29 February every four years). */
const MAX_DAYS = 366 * 8;

/**
 * When a cron expression fires in a time zone, daylight saving time included:
 * - a time the clocks skip (spring forward: 02:05 in Europe/Berlin on the last Sunday of
 *   March) fires once, at the first valid time after it (03:00); times skipped together
 *   collapse into that one run;
 * - a time the clocks show twice (fall back: 02:05 on the last Sunday of October) fires once,
 *   the first time.
 *
 * node-cron 4.6 gets both wrong: its next-run search keeps only times that read back as the
 * wanted wall time, so a skipped time does not run that day at all, and an hourly job skips
 * the repeated hour (measured in test/unit/cron-times.test.ts). What it gets right is matching
 * the fields (ranges, steps, names, L, W, #) against a wall time in UTC, where wall time and
 * instant are the same: that matcher is used here, the time zone is handled with Intl.
 */
export class CronTimes {
  private readonly seconds: readonly number[];
  private readonly minutes: readonly number[];
  private readonly hours: readonly number[];
  /** node-cron's matcher of the expression's fields, in UTC (never started). */
  private readonly matcher: ScheduledTask;

  constructor(
    readonly expression: string,
    readonly zone: string,
  ) {
    const fields = cron.parse(expression);
    const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
    this.seconds = ascending(fields.second);
    this.minutes = ascending(fields.minute);
    this.hours = ascending(fields.hour);
    this.matcher = cron.createTask(expression, () => undefined, { timezone: 'UTC' });
  }

  /** The first instant after `after` (epoch ms) at which the expression fires. */
  nextAfter(after: number): number {
    let wall = wallTimeAt(after, this.zone);
    for (;;) {
      wall = this.nextWallTime(wall);
      // Past wall times of a repeated hour come first here (their first showing is over).
      const instant = firstInstantAtOrAfter(wall, this.zone);
      if (instant > after) return instant;
    }
  }

  /** The next `count` fire times after `after`. */
  nextRuns(after: number, count: number): number[] {
    const runs: number[] = [];
    for (let at = after; runs.length < count; ) {
      at = this.nextAfter(at);
      runs.push(at);
    }
    return runs;
  }

  /** Unregisters the matcher from node-cron's task list. */
  dispose(): void {
    void this.matcher.destroy();
  }

  /** The first wall time after `wall` whose fields match, whether or not the zone's clocks show it. */
  private nextWallTime(wall: number): number {
    const firstDay = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
    for (let day = firstDay; day < firstDay + MAX_DAYS * DAY_MS; day += DAY_MS) {
      if (!this.matcher.match(new Date(day + this.hours[0]! * HOUR_MS + this.minutes[0]! * MINUTE_MS + this.seconds[0]! * SECOND_MS))) continue;
      for (const hour of this.hours) {
        if (day + (hour + 1) * HOUR_MS <= wall) continue;
        for (const minute of this.minutes) {
          for (const second of this.seconds) {
            const candidate = day + hour * HOUR_MS + minute * MINUTE_MS + second * SECOND_MS;
            if (candidate > wall) return candidate;
          }
        }
      }
    }
    throw new Error(`"${this.expression}" matches no time within ${MAX_DAYS} days`);
  }
}
