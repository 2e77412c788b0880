import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_FILES } from '../../src/dashboard/assets.js';
import { demoWarehouse, embeddedData, onFile, readPage, runCli, withHourlyRows, type DemoWarehouse } from './fixture.js';

type Row = Record<string, unknown>;

let demo: DemoWarehouse;

beforeAll(async () => {
  demo = await demoWarehouse();
});
afterAll(() => demo?.cleanup());

async function dashboard(name: string, extra: readonly string[] = [], config = demo.config): Promise<{ html: string; data: Row; stdout: string }> {
  const out = join(demo.dir, name);
  const run = await runCli(['dashboard', '--out', out, '--config', config, ...extra]);
  expect(run.code, run.stderr).toBe(0);
  const html = readPage(out);
  return { html, data: embeddedData(html), stdout: run.stdout };
}

async function report(name: string, extra: readonly string[] = []): Promise<Row[]> {
  const run = await runCli(['report', name, '--format', 'json', '--config', demo.config, ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Row[];
}

/** Inline <script> bodies other than the embedded data. */
function scripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}

describe('venue-etl dashboard', () => {
  it('writes one self-contained HTML file that parses and names no other host', async () => {
    const { html, data, stdout } = await dashboard('page.html');
    expect(stdout.trim()).toBe(join(demo.dir, 'page.html'));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    const code = scripts(html);
    expect(code.length).toBe(SCRIPT_FILES.length);
    for (const body of code) expect(() => new Script(body)).not.toThrow();
    // Nothing that makes a browser fetch: no URL, no src/href, no CSS url() or @import, no fetch API.
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\s(src|href|srcset|action)\s*=/i);
    expect(html).not.toMatch(/url\(|@import|\bfetch\(|XMLHttpRequest|WebSocket|EventSource/);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    expect((data.venues as Row[]).length).toBe(8);
  });

  it('embeds the figures of the named reports on the same warehouse', async () => {
    const { data } = await dashboard('figures.html');
    const venues = data.venues as Row[];
    const ranking = await report('venue-ranking');
    expect(venues.map((v) => [v.id, v.rank, v.detected, v.authenticated, v.logins, v.embeds])).toEqual(
      ranking.map((r) => [r.venue_id, r.rank, r.detected, r.authenticated, r.logins, r.embeds]),
    );

    const days = data.days as string[];
    const daily = data.daily as Record<string, (number | null)[][]>;
    const devices = await report('daily-devices');
    const logins = await report('daily-logins');
    const users = await report('users-summary');
    const embeds = await report('remarketing-trend');
    expect(devices.length).toBe(venues.length * days.length);
    const at = (venueId: unknown, day: unknown) => [venues.findIndex((v) => v.id === venueId), days.indexOf(String(day))] as const;
    for (const r of devices) {
      const [v, d] = at(r.venue_id, r.day);
      expect([daily.detected![v]![d], daily.authenticated![v]![d]]).toEqual([r.detected, r.authenticated]);
    }
    for (const r of logins) {
      const [v, d] = at(r.venue_id, r.day);
      expect([daily.logins![v]![d], daily.uniqueLogins![v]![d]]).toEqual([r.logins, r.unique_logins]);
    }
    for (const r of users) {
      const [v, d] = at(r.venue_id, r.period_start);
      expect([daily.confirmedUsers![v]![d], daily.returningUsers![v]![d]]).toEqual([r.confirmed_users, r.returning_users]);
    }
    for (const r of embeds) {
      const [v, d] = at(r.venue_id, r.day);
      expect(daily.embeds![v]![d]).toBe(r.embeds);
    }

    // Read by month: each month is the report over that month's days of the window, and the
    // months add up to the report over the whole window.
    const months = data.months as string[];
    const funnel = data.funnel as (number[] | null)[][];
    const methods = data.methods as { names: string[]; logins: (number[] | null)[][] };
    const last = months.length - 1;
    const lastMonth = ['--from', `${months[last]}-01`, '--to', days.at(-1)!];
    const sumOver = (rows: (number[] | null)[]) =>
      rows.reduce<number[] | null>((sum, row) => (row === null ? sum : row.map((x, k) => (sum?.[k] ?? 0) + x)), null);
    for (const r of await report('rating-request-funnel', lastMonth)) {
      expect(funnel[venues.findIndex((v) => v.id === r.venue_id)]![last]).toEqual([r.sent, r.opened, r.rated, r.commented]);
    }
    for (const r of await report('rating-request-funnel')) {
      expect(sumOver(funnel[venues.findIndex((v) => v.id === r.venue_id)]!)).toEqual([r.sent, r.opened, r.rated, r.commented]);
    }
    for (const r of await report('login-method-shares', lastMonth)) {
      expect(methods.logins[venues.findIndex((v) => v.id === r.venue_id)]![last]![methods.names.indexOf(String(r.method))]).toBe(r.logins);
    }
    for (const r of await report('login-method-shares')) {
      expect(sumOver(methods.logins[venues.findIndex((v) => v.id === r.venue_id)]!)![methods.names.indexOf(String(r.method))]).toBe(r.logins);
    }
    const rated = (data.ratings as { rated: number[][][] }).rated;
    for (const r of await report('rating-distribution')) {
      expect(rated[venues.findIndex((v) => v.id === r.venue_id)]![months.indexOf(String(r.month))]).toEqual([
        r.rated_1,
        r.rated_2,
        r.rated_3,
        r.rated_4,
        r.rated_5,
      ]);
    }
    const coverage = data.coverage as { streams: string[]; days: string[]; status: string[] };
    // Over the window the file holds: by default from the first of the month 12 months back.
    expect(data.from).toMatch(/^\d{4}-\d\d-01$/);
    const coverageRows = await report('coverage', ['--from', String(data.from)]);
    expect(coverageRows.length).toBe(coverage.streams.length * coverage.days.length);
    for (const r of coverageRows) {
      expect(coverage.status[coverage.streams.indexOf(String(r.stream))]![coverage.days.indexOf(String(r.day))]).toBe(String(r.status)[0]!.toUpperCase());
    }
    expect((data.access as Row[]).map((r) => [r.venue_id, r.account_id, r.roles])).toEqual(
      (await report('venue-access')).map((r) => [r.venue_id, r.account_id, r.roles]),
    );
    expect((data.lastRuns as Row[]).map((r) => r.run_id)).toEqual((await report('last-runs')).map((r) => r.run_id));
    // A dozen runs of the built CLI.
  }, 240_000);

  it('--venues, --from and --to narrow the page like the reports', async () => {
    const all = (await report('venue-ranking')).map((r) => String(r.venue_id));
    const chosen = [all[1]!, all[3]!];
    const devices = await report('daily-devices', ['--venues', chosen.join(',')]);
    const from = String(devices[3]!.day);
    const to = String(devices[9]!.day);
    const { data } = await dashboard('narrow.html', ['--venues', chosen.join(','), '--from', from, '--to', to]);
    expect((data.venues as Row[]).map((v) => v.id).sort()).toEqual([...chosen].sort());
    expect(data.days).toEqual((await report('daily-devices', ['--venues', chosen[0]!, '--from', from, '--to', to])).map((r) => r.day));
    // Several runs of the built CLI: minutes on a loaded 2-core machine.
  }, 180_000);

  it('says there is no hourly data, then draws peak hours from hourly rows, in --tz', async () => {
    const before = await dashboard('no-hourly.html');
    expect(before.data.peak).toBeNull();
    expect(before.html).toContain('No hourly rows');

    const venue = String((before.data.venues as Row[])[2]!.id);
    const day = await withHourlyRows(demo.warehouse, venue);
    const utc = await dashboard('hourly-utc.html', ['--tz', 'UTC']);
    const peak = utc.data.peak as { average: (number[] | null)[][]; hours: (number[] | null)[][] };
    const month = (utc.data.months as string[]).indexOf(day.slice(0, 7));
    const v = (utc.data.venues as Row[]).findIndex((r) => r.id === venue);
    const rows = (await report('peak-hours')).filter(
      (r) => r.venue_id === venue && r.stream === 'venue-devices-history' && r.metric === 'detected' && r.weekday !== null,
    );
    expect(rows.length).toBe(24);
    for (const r of rows) {
      expect(peak.average[v]![month]![(Number(r.weekday) - 1) * 24 + Number(r.hour)]).toBe(r.average);
      expect(peak.hours[v]![month]![(Number(r.weekday) - 1) * 24 + Number(r.hour)]).toBe(r.hours);
    }
    expect(peak.average.flat().filter((grid) => grid !== null)).toHaveLength(1);

    // Asia/Kolkata is UTC+05:30: the UTC hour 0 point (10 + 0 + 8 = 18 detected) is read at 05:30.
    const weekday = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const local = embeddedData(readPage(join(demo.dir, (await dashboard('hourly-kolkata.html', ['--tz', 'Asia/Kolkata'])).stdout.trim().split('/').pop()!)));
    const grid = (local.peak as { average: (number[] | null)[][] }).average[v]![(local.months as string[]).indexOf(day.slice(0, 7))]!;
    expect(local.tz).toBe('Asia/Kolkata');
    expect(grid[(weekday - 1) * 24 + 5]).toBe(18);
    expect(grid[(weekday - 1) * 24 + 0]).toBe(0);
    // Several runs of the built CLI: minutes on a loaded 2-core machine.
  }, 180_000);

  it('keeps a hostile venue name inside the data: it cannot end the script element', async () => {
    const { data: before } = await dashboard('before-name.html');
    const venue = String((before.venues as Row[])[0]!.id);
    const name = 'Bar </script><script>alert(1)</script> & <b>"Grill"</b>';
    await onFile(demo.warehouse, [`INSERT OR REPLACE INTO venues (venue_id, name) VALUES ('${venue}', '${name.replace(/'/g, "''")}')`]);
    // The demo's config names every venue, and a config name wins over the events': this page is
    // made with a config that names none, so the name shown is the one from outside.
    const unnamed = join(demo.dir, 'unnamed.config.json');
    writeFileSync(unnamed, JSON.stringify({ warehouse: { path: 'warehouse.duckdb' }, parquet: { dir: 'parquet' } }));
    const { html, data } = await dashboard('named.html', [], unnamed);
    expect(html).not.toContain('<script>alert(1)');
    expect((data.venues as Row[])[0]!.label).toBe(name);
    expect(scripts(html)).toHaveLength(SCRIPT_FILES.length);
  });

  it('refuses a bad --tz or --top before opening anything (exit 2)', async () => {
    const tz = await runCli(['dashboard', '--tz', 'Mars/Olympus', '--config', join(demo.dir, 'missing.json')]);
    expect(tz.code).toBe(2);
    expect(tz.stderr).toMatch(/--tz must be an IANA time zone/);
    const top = await runCli(['dashboard', '--top', '0', '--config', demo.config]);
    expect(top.code).toBe(2);
  });
});
