import { domainOf, type EndpointRow } from '../catalogue/index.js';
import { badValue, contradictoryValues, incompleteAnswer, wrongGrain } from './answer-errors.js';
import type { Granularity, SeriesColumns } from './columns.js';
import { schemaError } from './schema-error.js';
import { DAY_MS, msToDate } from '../calendar/index.js';
import { HOUR_MS, offsetMsOf, parseTimestampMs } from './timestamp.js';
import { valueProblem } from './value-check.js';

export interface SeriesWindow {
  /** Epoch ms of windowFrom 00:00Z and of windowTo + 1 day 00:00Z. */
  readonly startMs: number;
  readonly endMs: number;
  /**
   * The grain asked for: 'hour' for a one-day request (its 24 UTC hours, every point inside the
   * day), 'day' for a longer one. Another grain fails the slice: stored, it would mix both grains
   * in one window. Absent: whatever the API sent (callers that do not plan a grain).
   */
  readonly grain?: Granularity;
}

export interface SeriesOutcome {
  readonly points: number;
  /** Points the API sent outside the requested window: not loaded (their own window owns them). */
  readonly outsideWindow: number;
}

/**
 * Points whose wall-clock times (in their own offsets) are this far apart or more are days;
 * hours are one hour apart. Wall-clock rather than instants: the same date written in two
 * offsets is the same day twice (a contradiction to report), not two points hours apart.
 */
const DAY_SPACING_MS = 23 * HOUR_MS;
/** Missing days or hours named in an error message; the count says how many there are. */
const NAMED_MISSING = 5;

// One series at a time is parsed into these, grown as needed and reused: a history answer
// holds up to a window of days per metric, and the load path runs this for every point.
let instants = new Float64Array(256);
let dates = new Float64Array(256);
let values = new Float64Array(256);
/** Per slot (day or hour of the window): 1 + the index of the point filling it, 0 while empty. */
let slots = new Int32Array(256);

function reserve(points: number, slotCount: number): void {
  if (points > instants.length) {
    const size = Math.max(points, instants.length * 2);
    instants = new Float64Array(size);
    dates = new Float64Array(size);
    values = new Float64Array(size);
  }
  if (slotCount > slots.length) slots = new Int32Array(Math.max(slotCount, slots.length * 2));
}

/**
 * Appends the time-series attributes of one history resource to `out` as long rows, every pair
 * checked in the loop that reads it (the zod schema only checks that each is an array).
 *
 * - Granularity comes from the spacing of the points' wall-clock times (a day or more apart:
 *   days; closer: hours), never from where UTC midnight falls: an API whose days start at `+02:00` midnight
 *   sends days too.
 * - A day point belongs to its calendar date in its own offset and is stored as that date
 *   (00:00 UTC); an hour point keeps its instant.
 * - With `window.grain` set, the series must have that grain, and an hourly one no point outside
 *   the window (its one day).
 * - Every day (or hour) of the window must have exactly one point: a missing one fails the slice
 *   (the window's rows would otherwise be replaced by fewer), and so does the same day twice with
 *   different values. Identical copies are dropped.
 * - Every value must lie in its metric's domain (the catalogue's).
 */
export function appendSeries(
  endpoint: EndpointRow,
  attributes: Record<string, unknown>,
  window: SeriesWindow,
  out: SeriesColumns,
  where: string,
): SeriesOutcome {
  const metrics = endpoint.inferMetrics ? Object.keys(attributes).filter((key) => Array.isArray(attributes[key])) : endpoint.metrics;
  let points = 0;
  let outsideWindow = 0;
  for (const metric of metrics) {
    const series = attributes[metric];
    if (!Array.isArray(series)) throw schemaError(endpoint.stream, `${where}.attributes.${metric}`, 'must be a list of [timestamp, count] pairs');
    const path = `${where}.attributes.${metric}`;
    const grain = readSeries(endpoint, metric, series, path);
    if (window.grain !== undefined && grain !== window.grain) {
      throw wrongGrain(
        endpoint.stream,
        path,
        `has ${grain === 'day' ? 'daily' : 'hourly'} points where ${window.grain === 'day' ? 'daily' : 'hourly'} ones were asked for (${msToDate(window.startMs)}..${msToDate(window.endMs - DAY_MS)})`,
      );
    }
    const result = placeInWindow(endpoint.stream, series, grain, window, path);
    outsideWindow += result.outside;
    const step = grain === 'day' ? DAY_MS : HOUR_MS;
    for (let s = 0; s < result.slotCount; s++) {
      const value = values[slots[s]! - 1]!;
      out.metric.push(metric);
      out.granularity.push(grain);
      out.tsMs.push(window.startMs + s * step);
      out.value.push(Number.isNaN(value) ? null : value);
    }
    points += result.slotCount;
  }
  return { points, outsideWindow };
}

/** Checks every pair into the scratch arrays; returns the series' granularity. */
function readSeries(endpoint: EndpointRow, metric: string, series: readonly unknown[], path: string): Granularity {
  const stream = endpoint.stream;
  const domain = domainOf(endpoint, metric);
  const n = series.length;
  reserve(n, 0);
  let minStep = Number.POSITIVE_INFINITY;
  let allAtLocalMidnight = true;
  /** Offset of the previous point: its wall-clock time is its instant plus this. */
  let wallOffset = 0;
  for (let i = 0; i < n; i++) {
    const pair: unknown = series[i];
    if (!Array.isArray(pair) || pair.length !== 2) throw schemaError(stream, `${path}[${i}]`, 'must be a [timestamp, count] pair');
    const stamp: unknown = pair[0];
    const value: unknown = pair[1];
    if (typeof stamp !== 'string') throw schemaError(stream, `${path}[${i}][0]`, 'must be an ISO 8601 timestamp string');
    if (value !== null && typeof value !== 'number') {
      throw schemaError(stream, `${path}[${i}][1]`, `must be a number or null, got ${JSON.stringify(value)}`);
    }
    const problem = valueProblem(domain, value);
    if (problem !== undefined) throw badValue(stream, `${path}[${i}][1]`, `${problem} (at ${stamp})`);
    const ms = parseTimestampMs(stamp);
    const offset = offsetMsOf(stamp);
    if (Number.isNaN(ms) || Number.isNaN(offset)) {
      throw schemaError(stream, `${path}[${i}][0]`, `is not an ISO 8601 timestamp with an offset: ${JSON.stringify(stamp)}`);
    }
    const local = ms + offset;
    const date = Math.floor(local / DAY_MS) * DAY_MS;
    if (local !== date) allAtLocalMidnight = false;
    if (i > 0) {
      const step = Math.abs(local - (instants[i - 1]! + wallOffset));
      if (step > 0 && step < minStep) minStep = step;
    }
    wallOffset = offset;
    instants[i] = ms;
    dates[i] = date;
    values[i] = value ?? Number.NaN;
  }
  // One point has no spacing: a day when it falls on a midnight of its own offset.
  if (minStep === Number.POSITIVE_INFINITY) return allAtLocalMidnight ? 'day' : 'hour';
  return minStep >= DAY_SPACING_MS ? 'day' : 'hour';
}

/** Files each point in its day or hour of the window; every one must be filled exactly once. */
function placeInWindow(
  stream: string,
  series: readonly unknown[],
  grain: Granularity,
  window: SeriesWindow,
  path: string,
): { slotCount: number; outside: number } {
  const step = grain === 'day' ? DAY_MS : HOUR_MS;
  const slotCount = Math.round((window.endMs - window.startMs) / step);
  reserve(0, slotCount);
  slots.fill(0, 0, slotCount);
  let outside = 0;
  let filled = 0;
  for (let i = 0; i < series.length; i++) {
    const ts = grain === 'day' ? dates[i]! : instants[i]!;
    if (ts < window.startMs || ts >= window.endMs) {
      // An hourly answer is one day's 24 hours: an hour of another day means the answer is not
      // the day asked for (a shifted or mislabelled day), so nothing of it is trusted.
      if (window.grain === 'hour')
        throw wrongGrain(stream, `${path}[${i}][0]`, `is outside the requested day ${msToDate(window.startMs)} (UTC): ${stampOf(series, i)}`);
      outside += 1;
      continue;
    }
    const offset = ts - window.startMs;
    if (offset % step !== 0) throw schemaError(stream, `${path}[${i}][0]`, `is not on the hour in an hourly series: ${stampOf(series, i)}`);
    const s = offset / step;
    const first = slots[s]!;
    if (first === 0) {
      slots[s] = i + 1;
      filled += 1;
      continue;
    }
    const a = values[first - 1]!;
    const b = values[i]!;
    if (a === b || (Number.isNaN(a) && Number.isNaN(b))) continue;
    const at = grain === 'day' ? `the day ${msToDate(ts)}` : `the hour ${new Date(ts).toISOString()}`;
    throw contradictoryValues(
      stream,
      `${path}[${i}]`,
      `repeats ${at} of [${first - 1}] (${stampOf(series, first - 1)} then ${stampOf(series, i)}) with another value: ${show(a)} then ${show(b)}`,
    );
  }
  if (filled < slotCount) throw incompleteAnswer(stream, path, missingText(grain, window, slotCount, filled, series.length));
  return { slotCount, outside };
}

function missingText(grain: Granularity, window: SeriesWindow, slotCount: number, filled: number, sent: number): string {
  const unit = grain === 'day' ? 'days' : 'hours';
  const range = `${msToDate(window.startMs)}..${msToDate(window.endMs - DAY_MS)}`;
  if (sent === 0) return `has no point for ${range} (0 of ${slotCount} ${unit})`;
  const missing: string[] = [];
  const step = grain === 'day' ? DAY_MS : HOUR_MS;
  for (let s = 0; s < slotCount && missing.length < NAMED_MISSING; s++) {
    if (slots[s] !== 0) continue;
    const ms = window.startMs + s * step;
    missing.push(grain === 'day' ? msToDate(ms) : `${new Date(ms).toISOString().slice(0, 13)}:00Z`);
  }
  const more = slotCount - filled > missing.length ? ', …' : '';
  return `is missing ${slotCount - filled} of ${slotCount} ${unit} of ${range}: ${missing.join(', ')}${more}`;
}

function stampOf(series: readonly unknown[], i: number): string {
  const pair: unknown = series[i];
  return Array.isArray(pair) ? String(pair[0]) : '?';
}

function show(value: number): string {
  return Number.isNaN(value) ? 'null' : String(value);
}
