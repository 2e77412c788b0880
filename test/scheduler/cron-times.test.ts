import { describe, expect, it } from 'vitest';
import { CronTimes } from '../../src/scheduler/cron-times.js';
import { firstInstantAtOrAfter, formatInZone, wallTimeAt } from '../../src/scheduler/zoned-time.js';

/** Fire times (ISO, UTC) of `expression` in `zone` after `after`. */
function fires(expression: string, zone: string, after: string, count: number): string[] {
  const times = new CronTimes(expression, zone);
  try {
    return times.nextRuns(Date.parse(after), count).map((at) => new Date(at).toISOString().replace('.000Z', 'Z'));
  } finally {
    times.dispose();
  }
}

describe('wall-clock arithmetic in a time zone', () => {
  it('finds the first instant a wall time is shown: once, twice, or never (the jump)', () => {
    const wall = (text: string): number => Date.parse(`${text}Z`);
    // Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
    expect(new Date(firstInstantAtOrAfter(wall('2026-03-29T01:30:00'), 'Europe/Berlin')).toISOString()).toBe('2026-03-29T00:30:00.000Z');
    expect(new Date(firstInstantAtOrAfter(wall('2026-03-29T02:05:00'), 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(firstInstantAtOrAfter(wall('2026-10-25T02:05:00'), 'Europe/Berlin')).toISOString()).toBe('2026-10-25T00:05:00.000Z');
    expect(wallTimeAt(Date.parse('2026-10-25T01:05:00Z'), 'Europe/Berlin')).toBe(wall('2026-10-25T02:05:00'));
    expect(formatInZone(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
    expect(formatInZone(Date.parse('2026-03-29T01:00:00Z'), 'Asia/Kolkata')).toBe('2026-03-29T06:30:00+05:30');
  });
});

describe('cron fire times across daylight saving changes', () => {
  it('runs a job whose time the clocks skip once, at the first valid time after it (Europe/Berlin, 02:05)', () => {
    expect(fires('5 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 4)).toEqual([
      '2026-03-28T01:05:00Z', // 02:05 CET
      '2026-03-29T01:00:00Z', // 03:00 CEST: 02:05 does not exist that day
      '2026-03-30T00:05:00Z', // 02:05 CEST
      '2026-03-31T00:05:00Z',
    ]);
  });

  it('runs a job whose time the clocks show twice once, the first time (Europe/Berlin, 02:05)', () => {
    expect(fires('5 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 3)).toEqual([
      '2026-10-25T00:05:00Z', // 02:05 CEST; 02:05 CET an hour later does not run again
      '2026-10-26T01:05:00Z',
      '2026-10-27T01:05:00Z',
    ]);
  });

  it('collapses the skipped times of a frequent job into one run, and does not repeat the repeated hour', () => {
    expect(fires('*/30 * * * *', 'Europe/Berlin', '2026-03-29T00:00:00Z', 3)).toEqual([
      '2026-03-29T00:30:00Z', // 01:30 CET
      '2026-03-29T01:00:00Z', // 03:00 CEST, standing in for 02:00 and 02:30
      '2026-03-29T01:30:00Z',
    ]);
    expect(fires('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 3)).toEqual([
      '2026-10-25T00:00:00Z', // 02:00 CEST
      '2026-10-25T02:00:00Z', // 03:00 CET: 02:00 CET (01:00Z) was shown before
      '2026-10-25T03:00:00Z',
    ]);
  });

  it('handles other rules: New York, a 30-minute change (Lord Howe), no DST (Kolkata), a skipped day (Samoa 2011)', () => {
    expect(fires('30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 2)).toEqual(['2026-03-08T07:00:00Z', '2026-03-09T06:30:00Z']);
    expect(fires('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 2)).toEqual(['2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z']);
    expect(fires('15 2 * * *', 'Australia/Lord_Howe', '2026-10-03T00:00:00Z', 2)).toEqual(['2026-10-03T15:30:00Z', '2026-10-04T15:15:00Z']);
    expect(fires('0 3 * * *', 'Asia/Kolkata', '2026-03-28T00:00:00Z', 2)).toEqual(['2026-03-28T21:30:00Z', '2026-03-29T21:30:00Z']);
    // 2011-12-30 does not exist in Samoa (UTC-10 → UTC+14 at midnight): its 10:00 run comes at the jump.
    expect(fires('0 10 * * *', 'Pacific/Apia', '2011-12-28T21:00:00Z', 3)).toEqual(['2011-12-29T20:00:00Z', '2011-12-30T10:00:00Z', '2011-12-30T20:00:00Z']);
  });

  it("keeps node-cron's field syntax: seconds, steps, last day of month", () => {
    expect(fires('*/20 * * * * *', 'UTC', '2026-01-01T00:00:00Z', 3)).toEqual(['2026-01-01T00:00:20Z', '2026-01-01T00:00:40Z', '2026-01-01T00:01:00Z']);
    expect(fires('0 0 L * *', 'Europe/Berlin', '2026-02-01T00:00:00Z', 2)).toEqual(['2026-02-27T23:00:00Z', '2026-03-30T22:00:00Z']);
  });
});
