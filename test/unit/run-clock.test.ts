import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_WARN_MS, clockDetail, runClock } from '../../src/runner/run-clock.js';
import { machineNow } from '../../src/runner/machine-clock.js';

const at = (iso: string): Date => new Date(iso);

describe('the run clock', () => {
  it("takes the earlier of the two clocks' yesterdays as the last complete day", () => {
    const ahead = runClock(at('2026-11-30T12:00:00Z'), 'Fri, 20 Nov 2026 12:00:00 GMT');
    expect(ahead).toMatchObject({ today: '2026-11-20', lastCompleteDay: '2026-11-19', skewMs: 10 * 86_400_000 });
    expect(ahead.warning?.code).toBe('VENUE_CLOCK_SKEW');
    expect(ahead.warning?.message).toMatch(/10\.0 days ahead of the API's .* up to 2026-11-19 \(the API's yesterday\)/);
    const behind = runClock(at('2026-11-17T12:00:00Z'), 'Fri, 20 Nov 2026 12:00:00 GMT');
    expect(behind).toMatchObject({ today: '2026-11-17', lastCompleteDay: '2026-11-16' });
    expect(behind.warning?.message).toMatch(/3\.0 days behind/);
    expect(clockDetail(behind)).toEqual({
      machine: '2026-11-17T12:00:00.000Z',
      api: '2026-11-20T12:00:00.000Z',
      skewSeconds: -259_200,
      lastCompleteDay: '2026-11-16',
      warning: 'VENUE_CLOCK_SKEW',
    });
  });

  it('stays quiet within the skew threshold, yet never lets a day count before it ended at the API', () => {
    // Two minutes ahead, just after midnight: the machine is in the 21st, the API still in the 20th.
    const close = runClock(at('2026-11-21T00:01:00Z'), 'Fri, 20 Nov 2026 23:59:00 GMT');
    expect(close.warning).toBeUndefined();
    expect(close.lastCompleteDay).toBe('2026-11-19');
    expect(runClock(at('2026-11-20T12:00:00Z'), new Date(Date.parse('2026-11-20T12:00:00Z') - CLOCK_SKEW_WARN_MS - 1000).toUTCString()).warning?.code).toBe(
      'VENUE_CLOCK_SKEW',
    );
  });

  it("falls back to the machine's clock, with a warning, when the API sends no usable Date", () => {
    for (const header of [undefined, 'yesterday']) {
      const clock = runClock(at('2026-11-20T12:00:00Z'), header);
      expect(clock).toMatchObject({ today: '2026-11-20', lastCompleteDay: '2026-11-19' });
      expect(clock.warning?.code).toBe('VENUE_CLOCK_UNKNOWN');
    }
  });

  it('reads the test hook only when set, and refuses a value that is not an instant', () => {
    expect(machineNow({ VENUE_ETL_TEST_NOW: '2026-11-30T12:00:00Z' }).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    const before = Date.now();
    expect(machineNow({}).getTime()).toBeGreaterThanOrEqual(before);
    expect(() => machineNow({ VENUE_ETL_TEST_NOW: '2026-11-30' })).toThrow(/VENUE_ETL_TEST_NOW is not an ISO 8601 instant/);
  });
});
