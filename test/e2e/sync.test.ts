/**
 * The nightly sync end to end, on one warehouse: a first run against the truth, the same run
 * again (nothing changes, the fewest requests the lookback needs), late data, role changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  checksums,
  cursorsOf,
  describeRun,
  diffMaps,
  duplicateKeys,
  NO_DIFF,
  queryRows,
  runsOf,
  startFixture,
  summaryNumber,
  todayUtc,
  WRITTEN_COLUMNS,
  type Fixture,
} from './harness.js';
import {
  expectedAccounts,
  expectedRoles,
  expectedSeries,
  expectedSummaries,
  SERIES,
  storedAccounts,
  storedRoles,
  storedSeries,
  storedSummaries,
  SUMMARY_KIND,
  type Range,
} from './truth.js';

const LOOKBACK = 3;
// 15 days in windows of 7: 7 + 8 (a trailing one-day window joins the one before it).
const DAYS = 15;
// Late data reaches further back than the lookback re-reads.
const REVISED_DAYS = 5;

let fx: Fixture;
let today: string;
let yesterday: string;
let all: Range;

beforeAll(async () => {
  assertBuilt();
  today = todayUtc();
  yesterday = addDays(today, -1);
  fx = await startFixture({
    sim: { seed: 11, venues: 4, days: 40, reviseRecentDays: REVISED_DAYS },
    config: { sync: { startDate: addDays(today, -DAYS), lookbackDays: LOOKBACK, windowDays: 7 } },
  });
  all = { venues: fx.venues, streams: [...SERIES, ...SUMMARY_KIND], from: addDays(today, -DAYS), to: yesterday };
});

afterAll(async () => {
  await fx?.close();
});

describe('sync', () => {
  it('loads every stream exactly as the API serves it', async () => {
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/^sync run \S+ succeeded/);
    const path = fx.warehousePath;

    const series = await storedSeries(path, all);
    expect(diffMaps(series, expectedSeries(fx.sim, all))).toEqual(NO_DIFF);
    // 4 venues × 15 days × 9 series metrics, all daily (no hourly window slipped in).
    expect(series.size).toBe(4 * DAYS * 9);
    expect(await queryRows(path, `SELECT DISTINCT granularity FROM series_points`)).toEqual([{ granularity: 'day' }]);

    const summaries = await storedSummaries(path, all);
    expect(diffMaps(summaries, expectedSummaries(fx.sim, all))).toEqual(NO_DIFF);
    const ratingMetrics = await queryRows(path, `SELECT DISTINCT metric FROM summary_values WHERE stream = 'rating-summary' ORDER BY metric`);
    expect(ratingMetrics.map((r) => r.metric)).toEqual([
      'average_rate',
      'rates_count',
      'rates_per_value.1',
      'rates_per_value.2',
      'rates_per_value.3',
      'rates_per_value.4',
      'rates_per_value.5',
    ]);
    // Every summary period is one day.
    expect(await queryRows(path, `SELECT count(*)::INTEGER AS n FROM summary_values WHERE period_end <> period_start`)).toEqual([{ n: 0 }]);

    const roles = await storedRoles(path);
    const truthRoles = expectedRoles(fx.sim, fx.venues, fx.projects);
    expect(diffMaps(roles.venue, truthRoles.venue)).toEqual(NO_DIFF);
    expect(diffMaps(roles.project, truthRoles.project)).toEqual(NO_DIFF);
    // Project roles reach the venues as inherited roles.
    const inherited = [...roles.venue.values()].filter((r) => r.inheritedFrom === 'project-roles');
    expect(inherited.length).toBeGreaterThan(0);
    expect(inherited.length).toBe(fx.venues.reduce((n, v) => n + fx.sim.truth.projectRoles(fx.sim.world.venues.find((x) => x.id === v)!.projectId).length, 0));

    const holders = [...roles.venue.values(), ...roles.project.values()].map((r) => r.account);
    const accounts = await storedAccounts(path);
    expect(diffMaps(accounts, expectedAccounts(fx.sim, holders))).toEqual(NO_DIFF);
    const me = fx.sim.truth.account('me').id;
    expect([...accounts].filter(([, a]) => a.isMe).map(([id]) => id)).toEqual([me]);

    // Analytics cursors stand at yesterday, snapshot cursors at today.
    const cursors = await cursorsOf(path);
    for (const stream of all.streams) for (const venue of fx.venues) expect(cursors.get(`${stream}|${venue}`)?.date, `${stream}|${venue}`).toBe(yesterday);
    for (const venue of fx.venues) expect(cursors.get(`venue-roles|${venue}`)?.date).toBe(today);
    expect(cursors.get('accounts|*')?.date).toBe(today);
    expect(await duplicateKeys(path)).toEqual({ series: 0, summaries: 0, cursors: 0 });

    // On an empty warehouse every row stored was written by this run, and the run says so.
    const [stored] = await queryRows(
      path,
      `SELECT ((SELECT count(*) FROM series_points) + (SELECT count(*) FROM summary_values) + (SELECT count(*) FROM venue_roles)
         + (SELECT count(*) FROM project_roles) + (SELECT count(*) FROM accounts))::INTEGER AS n`,
    );
    expect(summaryNumber(run.stdout, /([\d,]+) written/)).toBe(stored!.n);
    expect((await runsOf(path))[0]).toMatchObject({ status: 'succeeded', rowsWritten: stored!.n, errors: 0 });
  });

  it('run again, changes nothing and asks only for the lookback', async () => {
    const before = await checksums(fx.warehousePath, WRITTEN_COLUMNS);
    const runsBefore = await runsOf(fx.warehousePath);
    fx.sim.clearRequests();

    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(await checksums(fx.warehousePath, WRITTEN_COLUMNS)).toEqual(before);
    expect(summaryNumber(run.stdout, /([\d,]+) written/)).toBe(0);

    // The fewest requests the lookback needs: per venue one history window per series stream
    // and one request per lookback day per summary stream; one roles list per venue and
    // project; accounts (one batch + me); the token check before anything else.
    const venues = fx.venues.length;
    const expected = venues * (SERIES.length * 1 + SUMMARY_KIND.length * LOOKBACK) + venues + fx.projects.length + 2 + 1;
    expect(fx.sim.requests.length).toBe(expected);
    expect(fx.sim.requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(summaryNumber(run.stdout, /requests: ([\d,]+)/)).toBe(expected - 1);
    const history = fx.sim.requests.filter((r) => r.path.includes('/venue-devices-history/'));
    expect(history.map((r) => r.query).sort()).toEqual(fx.venues.map(() => `from=${addDays(yesterday, 1 - LOOKBACK)}&to=${yesterday}`));

    const runs = await runsOf(fx.warehousePath);
    expect(runs).toHaveLength(runsBefore.length + 1);
    expect(runs.at(-1)).toMatchObject({ job: 'sync', status: 'succeeded', rowsWritten: 0, requests: expected - 1, errors: 0 });
  });

  it('picks up late data within the lookback and leaves older days alone', async () => {
    const path = fx.warehousePath;
    const firstRun = (await runsOf(path))[0]!.runId;
    const lookbackFrom = addDays(yesterday, 1 - LOOKBACK);
    const older: Range = { ...all, to: addDays(lookbackFrom, -1) };
    const recent: Range = { ...all, from: lookbackFrom };
    const oldTruth = { series: expectedSeries(fx.sim, all), summaries: expectedSummaries(fx.sim, all) };

    fx.sim.revise();
    const newTruth = { series: expectedSeries(fx.sim, recent), summaries: expectedSummaries(fx.sim, recent) };
    // The revision really changed the recent days, and days before the lookback too.
    expect(diffMaps(newTruth.series, oldTruth.series).different).toBeGreaterThan(0);
    const revisedOlder: Range = { ...all, from: addDays(today, -REVISED_DAYS), to: older.to };
    expect(diffMaps(expectedSeries(fx.sim, revisedOlder), oldTruth.series).different).toBeGreaterThan(0);

    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(summaryNumber(run.stdout, /([\d,]+) written/)).toBeGreaterThan(0);
    const lateRun = (await runsOf(path)).at(-1)!.runId;

    expect(diffMaps(await storedSeries(path, recent), newTruth.series)).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(path, recent), newTruth.summaries)).toEqual(NO_DIFF);
    // Before the lookback: what the first run loaded, untouched (the sync does not look there).
    const keep = (map: Map<string, number | null>, range: Range) =>
      new Map(
        [...map].filter(([key]) => {
          const day = key.split('|')[4]!.slice(0, 10);
          return day >= range.from && day <= range.to;
        }),
      );
    expect(diffMaps(await storedSeries(path, older), keep(oldTruth.series, older))).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(path, older), keep(oldTruth.summaries, older))).toEqual(NO_DIFF);
    const writers = await queryRows(
      path,
      `SELECT run_id, min(d) AS first_day, max(d) AS last_day FROM (
         SELECT run_id, strftime(ts, '%Y-%m-%d') AS d FROM series_points UNION ALL
         SELECT run_id, strftime(period_start, '%Y-%m-%d') FROM summary_values) GROUP BY run_id ORDER BY run_id`,
    );
    expect(writers).toEqual([
      { run_id: firstRun, first_day: all.from, last_day: older.to },
      { run_id: lateRun, first_day: lookbackFrom, last_day: yesterday },
    ]);
  });

  it('versions role changes: removed roles closed, changed roles closed and reopened', async () => {
    const path = fx.warehousePath;
    const changes = fx.sim.mutateRoles();
    expect(changes.removed).toHaveLength(1);
    expect(changes.changed).toHaveLength(1);

    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);

    const truth = expectedRoles(fx.sim, fx.venues, fx.projects);
    const roles = await storedRoles(path);
    expect(diffMaps(roles.venue, truth.venue)).toEqual(NO_DIFF);
    expect(diffMaps(roles.project, truth.project)).toEqual(NO_DIFF);

    const versions = async (roleId: string) => {
      const rows = await queryRows(
        path,
        `SELECT permissions, valid_to IS NULL AS current FROM venue_roles WHERE role_id = '${roleId}'::UUID
         UNION ALL SELECT permissions, valid_to IS NULL FROM project_roles WHERE role_id = '${roleId}'::UUID ORDER BY current`,
      );
      return rows.map((r) => ({ permissions: [...(r.permissions as string[])].sort(), current: r.current }));
    };
    const removed = changes.removed[0]!;
    expect(await versions(removed.id)).toEqual([{ permissions: [...removed.permissions].sort(), current: false }]);
    const { before, after } = changes.changed[0]!;
    expect(await versions(before.id)).toEqual([
      { permissions: [...before.permissions].sort(), current: false },
      { permissions: [...after.permissions].sort(), current: true },
    ]);
    // A project role's change reaches every venue that inherits it, as a closed and an open version there.
    if (before.level === 'project') {
      const venuesOfProject = fx.sim.world.venues.filter((v) => v.projectId === before.scopeId).length;
      const inheritedVersions = await queryRows(
        path,
        `SELECT count(*) FILTER (WHERE valid_to IS NULL)::INTEGER AS open, count(*) FILTER (WHERE valid_to IS NOT NULL)::INTEGER AS closed
         FROM venue_roles WHERE inherited_from = 'project-roles' AND permissions = ${sqlList(after.permissions)}`,
      );
      expect(inheritedVersions[0]!.open).toBeGreaterThanOrEqual(venuesOfProject);
    }
    for (const added of changes.added) {
      const stored = await versions(added.id);
      if (added.level === 'venue' || added.level === 'project') expect(stored).toEqual([{ permissions: [...added.permissions].sort(), current: true }]);
    }
    // Every account a current role points to is there (a new role may bring a new account).
    const holders = [...truth.venue.values(), ...truth.project.values()].map((r) => r.account);
    const accounts = await storedAccounts(path);
    for (const [id, facts] of expectedAccounts(fx.sim, holders)) expect(accounts.get(id), id).toEqual(facts);
  });
});

function sqlList(values: readonly string[]): string {
  return `[${[...values]
    .sort()
    .map((v) => `'${v}'`)
    .join(', ')}]::VARCHAR[]`;
}
