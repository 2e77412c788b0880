import { describe, expect, it } from 'vitest';
import { addDays, dateToDays, daysBetween, daysToDate, eachDay, isCalendarDate, monthEnd, todayUtc } from '../../src/calendar/index.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { resolveOptions } from '../../src/simulator/options.js';

const REAL = ['2026-01-01', '2024-02-29', '2000-02-29', '1970-01-01', '2026-12-31'];
const NOT_REAL = [
  '2026-02-29',
  '1900-02-29',
  '2026-02-30',
  '2026-13-01',
  '2026-00-10',
  '2026-1-01',
  '2026-01-1',
  '20260101',
  '2026-01-01T00:00:00Z',
  ' 2026-01-01',
  '',
];

describe('the calendar', () => {
  it('accepts real dates in the YYYY-MM-DD form only, the same for config, simulator and validator', () => {
    expect(REAL.filter((date) => !isCalendarDate(date))).toEqual([]);
    expect(NOT_REAL.filter((date) => isCalendarDate(date))).toEqual([]);
    // A date seen valid once stays valid; one seen invalid stays invalid on the next call too.
    expect([isCalendarDate('2024-02-29'), isCalendarDate('2026-02-29')]).toEqual([true, false]);
    for (const date of [...REAL, ...NOT_REAL]) {
      expect(resolveOptionsAccepts(date), date).toBe(isCalendarDate(date));
      expect(configAccepts(date), date).toBe(isCalendarDate(date));
    }
  });

  it('does day arithmetic in UTC across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2025-12-30', '2026-01-02')).toBe(3);
    expect(monthEnd('2024-02-10')).toBe('2024-02-29');
    expect(monthEnd('2026-12-01')).toBe('2026-12-31');
    expect(eachDay('2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(dateToDays('1970-01-02')).toBe(1);
    expect(daysToDate(dateToDays('2026-03-29'))).toBe('2026-03-29');
    expect(todayUtc(new Date('2026-03-29T23:59:59.999-02:00'))).toBe('2026-03-30');
  });
});

function resolveOptionsAccepts(today: string): boolean {
  try {
    resolveOptions({ today });
    return true;
  } catch {
    return false;
  }
}

function configAccepts(startDate: string): boolean {
  const parsed = ConfigSchema.safeParse({ sync: { startDate } });
  return parsed.success || !parsed.error.issues.some((issue) => issue.path.join('.') === 'sync.startDate');
}
