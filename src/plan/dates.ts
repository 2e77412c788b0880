import { addDays, minDate, monthEnd, monthStart } from '../calendar/index.js';

/**
 * Splits [from, to] into windows of `windowDays`. A trailing one-day remainder joins the previous
 * window: the API answers a one-day range with hourly points, so a stray one-day window would
 * give one day a different granularity than its neighbours.
 */
export function splitWindows(from: string, to: string, windowDays: number): { from: string; to: string }[] {
  const windows: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = addDays(start, windowDays)) {
    windows.push({ from: start, to: minDate(addDays(start, windowDays - 1), to) });
  }
  const last = windows.at(-1);
  if (windows.length > 1 && last && last.from === last.to) {
    windows.pop();
    windows[windows.length - 1] = { from: windows.at(-1)!.from, to: last.to };
  }
  return windows;
}

/**
 * Windows of a history stream over [from, to]: like splitWindows, but never one day long, because
 * the API answers a one-day range with hourly points. A one-day window would load that day at
 * another granularity than its neighbours, and re-loading it (a second sync with a one-day
 * lookback) would replace its daily point with 24 hourly ones. So windows span at least two days,
 * and a one-day range reaches back one day (that day is re-read and replaced with itself).
 */
export function historyWindows(from: string, to: string, windowDays: number): { from: string; to: string }[] {
  if (from === to) return [{ from: addDays(from, -1), to }];
  return splitWindows(from, to, Math.max(2, windowDays));
}

/** Calendar months touched by [from, to], each clipped to `to`. */
export function monthPeriods(from: string, to: string): { from: string; to: string }[] {
  const periods: { from: string; to: string }[] = [];
  for (let start = monthStart(from); start <= to; start = addDays(monthEnd(start), 1)) {
    periods.push({ from: start, to: minDate(monthEnd(start), to) });
  }
  return periods;
}

/**
 * First day of the day tier of tiered summaries: the first day of the month that holds the
 * horizon's first day (`until` - horizonDays + 1), so that month is loaded whole by the day and
 * the months before it whole by the month: no period is covered by both grains.
 */
export function dayTierStart(until: string, horizonDays: number): string {
  return monthStart(addDays(until, 1 - horizonDays));
}
