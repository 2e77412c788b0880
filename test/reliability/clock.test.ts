/**
 * Clock and calendar: the machine's clock days ahead of or behind the API's (the CLI runs with
 * the test hook VENUE_ETL_TEST_NOW; the simulator's `Date` header follows its simulated today),
 * and daily series whose midnights carry another offset than `+00:00`. The policy (docs/api-assumptions.md,
 * Clock): a run's last complete day is the earlier of the machine's and the API's
 * yesterday; a skew beyond 5 minutes is a warning in the log and in `sync_runs.detail`; a day
 * point belongs to its calendar date in its own offset.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  addDays,
  assertBuilt,
  childEnv,
  cursorsOf,
  describeRun,
  diffMaps,
  queryRows,
  REPO_ROOT,
  runsOf,
  startFixture,
  TOKEN_ENV,
  type CliResult,
  type Fixture,
} from '../e2e/harness.js';
import { expectedSeries, SERIES, storedSeries, SUMMARY_KIND, type Range } from '../e2e/truth.js';
import { budget, reportFigure, reportTable } from './figures.js';

/** The API's today in these cases (fixed: nothing here depends on the real date). */
const T = '2026-11-20';
const START = addDays(T, -14);
const SEED = 41;
const STREAMS = [...SERIES, ...SUMMARY_KIND];
/** The simulated clock shows noon (on its own `today`); the CLI's clock is set to noon of some day. */
const NOON = (): Date => new Date('2000-01-01T12:00:00Z');
const GAPS_SQL = readFileSync(`${REPO_ROOT}sql/checks/series-gaps.sql`, 'utf8');

const fixtures: Fixture[] = [];
const simulators: Simulator[] = [];
beforeAll(assertBuilt);
afterAll(async () => {
  await Promise.all([...fixtures.map((fx) => fx.close()), ...simulators.map((sim) => sim.close())]);
});

async function fixture(faults?: string): Promise<Fixture> {
  const fx = await startFixture({
    sim: { seed: SEED, venues: 2, days: 60, today: T, clock: NOON, ...(faults ? { faults } : {}) },
    config: { sync: { startDate: START, streams: STREAMS } },
  });
  fixtures.push(fx);
  return fx;
}

/** The same world on a later day: what the API serves when the calendar has moved on. */
async function laterApi(fx: Fixture, today: string): Promise<void> {
  const sim = await startSimulator({ seed: SEED, venues: 2, days: 60, today, clock: NOON });
  simulators.push(sim);
  fx.writeConfig({ api: { baseUrl: sim.url }, sync: { startDate: START, streams: STREAMS } });
}

const at = (day: string): NodeJS.ProcessEnv => ({ ...childEnv({ [TOKEN_ENV]: 'sim-token' }), VENUE_ETL_TEST_NOW: `${day}T12:00:00Z` });

async function sync(fx: Fixture, machineDay: string): Promise<CliResult> {
  return fx.cli(['sync'], { env: at(machineDay) });
}

/** Latest analytics cursor over every stream and venue. */
async function latestCursor(fx: Fixture): Promise<string> {
  const dates = [...(await cursorsOf(fx.warehousePath)).entries()].filter(([key]) => STREAMS.some((s) => key.startsWith(`${s}|`))).map(([, c]) => c.date);
  return dates.sort().at(-1) ?? '';
}

async function gapDays(fx: Fixture): Promise<number> {
  const rows = await queryRows(fx.warehousePath, GAPS_SQL.replace(/;\s*$/, ''));
  return rows.reduce((n, row) => n + Number(row.missing_days), 0);
}

/** Summary rows for days after the API's today: zeros it served for days that had not happened. */
async function futureSummaryRows(fx: Fixture, apiToday: string): Promise<number> {
  const [row] = await queryRows(fx.warehousePath, `SELECT count(*)::INTEGER AS n FROM summary_values WHERE period_start > '${apiToday}'::DATE`);
  return Number(row!.n);
}

const skewWarned = (run: CliResult): boolean => /VENUE_CLOCK_SKEW/.test(run.stderr) || /VENUE_CLOCK_SKEW/.test(run.stdout);

async function skewInDetail(fx: Fixture): Promise<number | undefined> {
  const run = (await runsOf(fx.warehousePath)).at(-1);
  const [row] = await queryRows(fx.warehousePath, `SELECT detail::VARCHAR AS d FROM sync_runs WHERE run_id = '${run?.runId}'`);
  const detail = JSON.parse(String(row?.d ?? '{}')) as { clock?: { skewSeconds?: number } };
  return detail.clock?.skewSeconds;
}

interface ClockOutcome {
  readonly case: string;
  readonly exit: string;
  readonly cursorVsApiYesterday: number;
  readonly futureRows: number;
  readonly warned: boolean;
  readonly skewDays: number | '-';
  readonly laterGapDays: number;
  readonly laterDataDiff: number;
}

it(
  "a clock 10 days ahead never moves a cursor past the API's yesterday, and later runs leave no gap",
  async () => {
    const fx = await fixture();
    const first = await sync(fx, addDays(T, 10));
    const cursor = await latestCursor(fx);
    const outcome = {
      exit: String(first.code),
      cursor,
      futureRows: await futureSummaryRows(fx, addDays(T, -1)),
      warned: skewWarned(first),
      skewSeconds: await skewInDetail(fx),
    };
    // A week later on the right clock, then five days after that.
    await laterApi(fx, addDays(T, 7));
    const second = await sync(fx, addDays(T, 7));
    await laterApi(fx, addDays(T, 12));
    const third = await sync(fx, addDays(T, 12));
    const range: Range = { venues: fx.venues, streams: SERIES, from: START, to: addDays(T, 11) };
    const diff = diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(simulators.at(-1)!, range));
    const result: ClockOutcome = {
      case: 'machine clock 10 days ahead',
      exit: `${outcome.exit}, ${second.code}, ${third.code}`,
      cursorVsApiYesterday: daysFrom(addDays(T, -1), outcome.cursor),
      futureRows: outcome.futureRows,
      warned: outcome.warned,
      skewDays: outcome.skewSeconds === undefined ? '-' : Math.round(outcome.skewSeconds / 86_400),
      laterGapDays: await gapDays(fx),
      laterDataDiff: diff.missing + diff.extra + diff.different,
    };
    outcomes.push(result);
    expect(first.code, describeRun(first)).toBe(0);
    expect(second.code, describeRun(second)).toBe(0);
    expect(third.code, describeRun(third)).toBe(0);
    expect(result).toMatchObject({ cursorVsApiYesterday: 0, futureRows: 0, warned: true, skewDays: 10, laterGapDays: 0, laterDataDiff: 0 });
  },
  budget(90_000, 120_000),
);

it(
  'a clock 3 days behind loads less, warns, and the next run on the right clock catches up',
  async () => {
    const fx = await fixture();
    const first = await sync(fx, addDays(T, -3));
    const cursor = await latestCursor(fx);
    const warned = skewWarned(first);
    const skewSeconds = await skewInDetail(fx);
    const second = await sync(fx, T);
    const range: Range = { venues: fx.venues, streams: SERIES, from: START, to: addDays(T, -1) };
    const diff = diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(fx.sim, range));
    const result: ClockOutcome = {
      case: 'machine clock 3 days behind',
      exit: `${first.code}, ${second.code}`,
      cursorVsApiYesterday: daysFrom(addDays(T, -1), cursor),
      futureRows: await futureSummaryRows(fx, addDays(T, -1)),
      warned,
      skewDays: skewSeconds === undefined ? '-' : Math.round(skewSeconds / 86_400),
      laterGapDays: await gapDays(fx),
      laterDataDiff: diff.missing + diff.extra + diff.different,
    };
    outcomes.push(result);
    expect(first.code, describeRun(first)).toBe(0);
    expect(second.code, describeRun(second)).toBe(0);
    expect(await latestCursor(fx)).toBe(addDays(T, -1));
    expect(result).toMatchObject({ cursorVsApiYesterday: -3, futureRows: 0, warned: true, skewDays: -3, laterGapDays: 0, laterDataDiff: 0 });
  },
  budget(60_000, 90_000),
);

interface OffsetOutcome {
  readonly offset: string;
  readonly exit: number | null;
  readonly rowsDiffering: number;
  readonly hourRows: number;
  readonly nullUnique: number;
  readonly warnings: number;
  readonly errors: number;
}

const offsetOutcomes: OffsetOutcome[] = [];

it.each(['+02:00', '-05:00', '+14:00'])(
  'daily points at midnight %s are stored on their own date, at day grain, nothing dropped or nulled',
  async (offset) => {
    const fx = await fixture(`offset=1,utc-offset=${offset}`);
    const run = await sync(fx, T);
    const range: Range = { venues: fx.venues, streams: SERIES, from: START, to: addDays(T, -1) };
    const diff = diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(fx.sim, range));
    const [hours] = await queryRows(fx.warehousePath, `SELECT count(*)::INTEGER AS n FROM series_points WHERE granularity = 'hour'`);
    const report = await fx.cli(['report', 'daily-devices', '--format', 'json']);
    const days = JSON.parse(report.stdout || '[]') as { unique_detected: number | null }[];
    const result: OffsetOutcome = {
      offset,
      exit: run.code,
      rowsDiffering: diff.missing + diff.extra + diff.different,
      hourRows: Number(hours!.n),
      nullUnique: days.filter((d) => d.unique_detected === null).length,
      warnings: run.stderr.split('\n').filter((line) => /"level":(40|"warn")/.test(line)).length,
      errors: (await queryRows(fx.warehousePath, 'SELECT 1 FROM sync_errors')).length,
    };
    offsetOutcomes.push(result);
    expect(run.code, describeRun(run)).toBe(0);
    expect(days.length, report.stdout).toBeGreaterThan(0);
    expect(result, JSON.stringify(diff.samples)).toMatchObject({ rowsDiffering: 0, hourRows: 0, nullUnique: 0, warnings: 0, errors: 0 });
  },
  budget(60_000, 90_000),
);

const outcomes: ClockOutcome[] = [];

afterAll(() => {
  reportTable('clock', outcomes);
  reportTable('offsets', offsetOutcomes);
  reportFigure('clock', {
    cases: outcomes.map((o) => ({
      case: o.case,
      cursorVsApiYesterday: o.cursorVsApiYesterday,
      futureRows: o.futureRows,
      warned: o.warned,
      skewDays: o.skewDays,
      laterGapDays: o.laterGapDays,
      laterDataDiff: o.laterDataDiff,
    })),
    offsets: offsetOutcomes,
  });
});

function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
