/**
 * Venue names through the built CLI: names from the config (`scope.venues` entries with a name)
 * and from the receiver's events, shown by reports, `status` and the dashboard as one label (the
 * name; with the short id where names repeat or are missing), and taken by `--venues` wherever
 * a venue id is, with unique id prefixes; ambiguity and no match are usage errors (exit 2).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { sendEvents } from '../../src/simulator/index.js';
import { embeddedData, readPage } from '../dashboard/fixture.js';
import { receiverOptions, AUTH } from '../receiver/helpers.js';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type CliResult, type Fixture } from './harness.js';

const TWIN = 'Twin Hostel';
const ALPHA = 'Alpha Config';
const GHOST = 'Ghost Venue';

let fx: Fixture;
/** The world's venues: V[0] named ALPHA by the config, V[1] and V[2] both TWIN, V[3] not named by the config. */
let V: string[];
let worldNames: string[];
/** A venue the API does not know, whose id starts like V[1]'s: in the second config only. */
let ghost: string;
let ghostConfig: string;

const short = (id: string): string => id.slice(0, 8);

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({
    sim: { venues: 4, days: 30 },
    config: { sync: { startDate: addDays(todayUtc(), -4), streams: ['venue-devices-history', 'venue-users-history', 'venue-users-summary'] } },
  });
  V = [...fx.venues];
  worldNames = fx.sim.world.venues.map((v) => v.name);
  const venues = [{ id: V[0]!, name: ALPHA }, { id: V[1]!, name: TWIN }, { id: V[2]!, name: TWIN }, V[3]!];
  fx.writeConfig({ scope: { venues } });
  ghost = `${short(V[1]!)}-ffff-4fff-8fff-ffffffffffff`;
  ghostConfig = fx.writeConfig({ scope: { venues: [...venues, { id: ghost, name: GHOST }] } }, join(fx.dir, 'ghost.config.json'));
}, 120_000);
afterAll(async () => fx?.close());

function json(run: CliResult): Record<string, unknown>[] {
  expect(run.code, describeRun(run)).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>[];
}

/** The venue label each venue id has in a report's rows. */
function labels(rows: readonly Record<string, unknown>[]): Record<string, unknown> {
  return Object.fromEntries(rows.map((r) => [String(r.venue_id), r.venue]));
}

describe('sync and backfill: --venues by the names and id prefixes of scope.venues', () => {
  it('syncs one venue named in the config, then all of them', async () => {
    const one = await fx.cli(['sync', '--venues', ALPHA]);
    expect(one.code, describeRun(one)).toBe(0);
    expect(await queryRows(fx.warehousePath, 'SELECT DISTINCT venue_id::VARCHAR AS id FROM series_points')).toEqual([{ id: V[0] }]);
    const all = await fx.cli(['sync']);
    expect(all.code, describeRun(all)).toBe(0);
  }, 180_000);

  it('refuses a name only the events know, a name two venues share, and plans the same backfill for a prefix as for the id', async () => {
    const eventName = await fx.cli(['sync', '--venues', worldNames[3]!]);
    expect(eventName.code, describeRun(eventName)).toBe(2);
    expect(eventName.stderr).toContain('VENUE_ETL_UNKNOWN_VENUE');
    expect(eventName.stderr).toContain('sync and backfill take the venues of scope.venues');

    const twins = await fx.cli(['backfill', '--from', addDays(todayUtc(), -3), '--to', addDays(todayUtc(), -2), '--venues', TWIN, '--dry-run']);
    expect(twins.code, describeRun(twins)).toBe(2);
    expect(twins.stderr).toContain('VENUE_ETL_AMBIGUOUS_VENUE');
    expect(twins.stderr).toContain(`"${TWIN}" fits 2 venues`);
    for (const id of [V[1]!, V[2]!]) expect(twins.stderr).toContain(id);

    const range = ['--from', addDays(todayUtc(), -3), '--to', addDays(todayUtc(), -2), '--dry-run'];
    const byPrefix = await fx.cli(['backfill', ...range, '--venues', short(V[2]!)]);
    const byId = await fx.cli(['backfill', ...range, '--venues', V[2]!]);
    expect(byPrefix.code, describeRun(byPrefix)).toBe(0);
    expect(byPrefix.stdout.split('\n')[0]).toBe(byId.stdout.split('\n')[0]);
  }, 180_000);
});

describe('reports: labels from the config and from the events', () => {
  it('label config names, repeated names with the short id, and a venue without a name by its short id', async () => {
    const ranking = json(await fx.cli(['report', 'venue-ranking', '--format', 'json']));
    expect(labels(ranking)).toEqual({
      [V[0]!]: ALPHA,
      [V[1]!]: `${TWIN} (${short(V[1]!)})`,
      [V[2]!]: `${TWIN} (${short(V[2]!)})`,
      [V[3]!]: short(V[3]!),
    });
  }, 60_000);

  it("take the receiver's names where the config gives none; the config's win", async () => {
    const receiver = await startReceiver(receiverOptions({ journalDir: join(fx.dir, 'journal'), warehousePath: fx.warehousePath }));
    try {
      const sent = await sendEvents({ receiverBaseUrl: receiver.url, authorization: AUTH, world: fx.sim.world, count: 40 });
      expect(sent.stats.failed).toBe(0);
      await receiver.mergeNow();
    } finally {
      await receiver.close();
    }
    // Every venue got its world name from the events (so the config's names had something to win over).
    const stored = await queryRows(fx.warehousePath, 'SELECT venue_id::VARCHAR AS id, name FROM venues ORDER BY id');
    expect(stored).toEqual(V.map((id, i) => ({ id, name: worldNames[i] })).sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(worldNames).not.toContain(ALPHA);

    const ranking = json(await fx.cli(['report', 'venue-ranking', '--format', 'json']));
    expect(labels(ranking)).toEqual({
      [V[0]!]: ALPHA,
      [V[1]!]: `${TWIN} (${short(V[1]!)})`,
      [V[2]!]: `${TWIN} (${short(V[2]!)})`,
      [V[3]!]: worldNames[3],
    });
    // The same labels on the Parquet export.
    const exported = await fx.cli(['export']);
    expect(exported.code, describeRun(exported)).toBe(0);
    expect(labels(json(await fx.cli(['report', 'venue-ranking', '--format', 'json', '--parquet'])))).toEqual(labels(ranking));
  }, 180_000);
});

describe('report --venues: ids, prefixes, config names and event names', () => {
  const venuesOf = async (selection: string, extra: readonly string[] = []): Promise<Set<unknown>> =>
    new Set(json(await fx.cli(['report', 'daily-devices', '--format', 'json', '--venues', selection, ...extra])).map((r) => r.venue_id));

  it('takes a prefix, a config name, an event name and a label', async () => {
    expect(await venuesOf(short(V[3]!))).toEqual(new Set([V[3]]));
    expect(await venuesOf(worldNames[3]!)).toEqual(new Set([V[3]]));
    expect(await venuesOf(`${ALPHA},${TWIN} (${short(V[1]!)})`)).toEqual(new Set([V[0], V[1]]));
  }, 120_000);

  it('refuses a shared name and a shared prefix listing the matches, and a typo with the closest name (exit 2)', async () => {
    const twins = await fx.cli(['report', 'daily-devices', '--venues', TWIN]);
    expect(twins.code, describeRun(twins)).toBe(2);
    expect(twins.stderr).toContain(`VENUE_ETL_AMBIGUOUS_VENUE: --venues: "${TWIN}" fits 2 venues:`);
    expect(twins.stderr).toContain(`${V[1]}  ${TWIN} (${short(V[1]!)})`);
    expect(twins.stderr).toContain(`${V[2]}  ${TWIN} (${short(V[2]!)})`);

    // The ghost config knows a second id starting like V[1]'s: the short id is ambiguous, and the
    // labels grow to 13 characters for those two.
    const prefix = await fx.cli(['report', 'daily-devices', '--venues', short(V[1]!)], { configPath: ghostConfig });
    expect(prefix.code, describeRun(prefix)).toBe(2);
    expect(prefix.stderr).toContain(`"${short(V[1]!)}" fits 2 venues:`);
    expect(prefix.stderr).toContain(`${V[1]}  ${TWIN} (${V[1]!.slice(0, 13)})`);
    expect(prefix.stderr).toContain(`${ghost}  ${GHOST}`);

    const typo = await fx.cli(['report', 'daily-devices', '--venues', 'Alpha Confg']);
    expect(typo.code, describeRun(typo)).toBe(2);
    expect(typo.stderr).toContain(`VENUE_ETL_UNKNOWN_VENUE: --venues: "Alpha Confg" is no venue's name, label or id; did you mean "${ALPHA}"?`);
  }, 120_000);
});

describe('status, the dashboard and reset', () => {
  it('status names the venue of a failed slice', async () => {
    const run = await fx.cli(['sync', '--venues', `${GHOST},${ALPHA}`], { configPath: ghostConfig });
    expect(run.code, describeRun(run)).toBe(3);
    const status = await fx.cli(['status'], { configPath: ghostConfig });
    expect(status.code, describeRun(status)).toBe(0);
    const failed = status.stdout.slice(status.stdout.indexOf('Failed slices of the last run'));
    expect(failed).toMatch(new RegExp(`venue-devices-history\\s+${GHOST}\\s+${ghost}\\s`));
  }, 180_000);

  it('the dashboard shows the labels and takes --venues by name', async () => {
    const page = (file: string) => embeddedData(readPage(join(fx.dir, file))).venues as { id: string; label: string }[];
    const all = await fx.cli(['dashboard', '--out', 'all.html']);
    expect(all.code, describeRun(all)).toBe(0);
    expect(Object.fromEntries(page('all.html').map((v) => [v.id, v.label]))).toEqual({
      [V[0]!]: ALPHA,
      [V[1]!]: `${TWIN} (${short(V[1]!)})`,
      [V[2]!]: `${TWIN} (${short(V[2]!)})`,
      [V[3]!]: worldNames[3],
    });
    const one = await fx.cli(['dashboard', '--out', 'one.html', '--venues', worldNames[3]!]);
    expect(one.code, describeRun(one)).toBe(0);
    expect(page('one.html').map((v) => v.id)).toEqual([V[3]]);
  }, 120_000);

  it('reset resolves names under its lock and lists the matches of an ambiguous one', async () => {
    const plan = await fx.cli(['reset', '--venues', ALPHA, '--rows']);
    expect(plan.code, describeRun(plan)).toBe(2);
    expect(plan.stdout).toContain(`of venues/projects ${V[0]}`);
    expect(plan.stderr).toContain('nothing changed');
    const twins = await fx.cli(['reset', '--venues', TWIN]);
    expect(twins.code, describeRun(twins)).toBe(2);
    expect(twins.stderr).toContain('VENUE_ETL_AMBIGUOUS_VENUE');
    expect(twins.stdout).toBe('');
  }, 120_000);

  it('config prints the named entries as written, plain ids as ids', async () => {
    const printed = await fx.cli(['config']);
    expect(printed.code, describeRun(printed)).toBe(0);
    expect((JSON.parse(printed.stdout) as { scope: unknown }).scope).toEqual({
      venues: [{ id: V[0], name: ALPHA }, { id: V[1], name: TWIN }, { id: V[2], name: TWIN }, V[3]],
      projects: fx.projects,
    });
  }, 60_000);
});
