/**
 * An endpoint venue-etl has never heard of becomes a stream by adding its row and nothing else:
 * a made-up venue history and a made-up project summary, served by a small HTTP server in front
 * of the simulator, are extracted, normalized, loaded into DuckDB and exported to Parquet by the
 * built CLI. A row copying a built-in endpoint loads exactly the built-in stream's rows: config
 * rows and built-in rows take the same path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, eachDay, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';
import { startMutatingProxy, type TestHost } from './mutating-proxy.js';

const UNTIL = addDays(todayUtc(), -1);
const START = addDays(UNTIL, -9);
const ROWS = [
  {
    stream: 'venue-footfall-history',
    path: '/analytics/venue-footfall-history/{venue_id}/',
    scope: 'venue',
    kind: 'series',
    resourceType: 'venue-footfall-history',
  },
  {
    stream: 'project-footfall-summary',
    path: '/analytics/project-footfall-summary/{project_id}/',
    scope: 'project',
    kind: 'summary',
    resourceType: 'project-footfall-summary',
    metrics: ['visitors'],
  },
  { stream: 'my-users-history', path: '/analytics/venue-users-history/{venue_id}/', scope: 'venue', kind: 'series', resourceType: 'venue-users-history' },
];

/** What the made-up endpoints answer: a number per scope and day nobody else computes. */
const visitors = (scopeIndex: number, day: string): number => (Number(day.replaceAll('-', '')) % 997) + 1000 * scopeIndex;
const dwellMinutes = (scopeIndex: number, day: string): number => (visitors(scopeIndex, day) % 60) + 0.25;

let fx: Fixture;
let proxy: TestHost;

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { seed: 23, venues: 2, days: 30 }, config: { sync: { startDate: START, windowDays: 7 } } });
  const send = (res: ServerResponse, type: string, id: string, attributes: Record<string, unknown>): void => {
    res.writeHead(200, { 'content-type': 'application/vnd.api+json' }).end(JSON.stringify({ data: { type, id, attributes }, jsonapi: { version: '1.0' } }));
  };
  proxy = await startMutatingProxy(fx.sim.url, async (req, res, forward) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const [from = '', to = ''] = [url.searchParams.get('from') ?? '', url.searchParams.get('to') ?? ''];
    const venue = /^\/analytics\/venue-footfall-history\/([^/]+)\/$/.exec(url.pathname)?.[1];
    if (venue !== undefined) {
      const index = fx.venues.indexOf(venue);
      const series = (value: (i: number, day: string) => number) => eachDay(from, to).map((day) => [`${day}T00:00:00+00:00`, value(index, day)]);
      return send(res, 'venue-footfall-history', venue, { visitors: series(visitors), 'dwell-minutes': series(dwellMinutes) });
    }
    const project = /^\/analytics\/project-footfall-summary\/([^/]+)\/$/.exec(url.pathname)?.[1];
    if (project !== undefined) {
      const index = fx.projects.indexOf(project);
      return send(res, 'project-footfall-summary', project, { visitors: eachDay(from, to).reduce((n, day) => n + visitors(index, day), 0) });
    }
    const answer = await forward();
    res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
  });
  // Only rows are added: the config's endpoints[], and the address of the server in front.
  const config = fx.writeConfig({ api: { baseUrl: proxy.url } });
  writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), endpoints: ROWS }, null, 2));
});

afterAll(async () => {
  await proxy?.close();
  await fx?.close();
});

it('extracts, normalizes, loads and exports a made-up endpoint row', async () => {
  const streams = 'venue-footfall-history,project-footfall-summary,my-users-history,venue-users-history';
  const sync = await fx.cli(['sync', '--streams', streams, '--until', UNTIL]);
  expect(sync.code, describeRun(sync)).toBe(0);

  // Requests as the row says: the path's id, the window in from/to (7 + 3 days).
  const footfall = proxy.requests.filter((r) => r.includes('/analytics/venue-footfall-history/'));
  expect(footfall.sort()).toEqual(
    fx.venues
      .flatMap((v) => [
        `GET /analytics/venue-footfall-history/${v}/?from=${START}&to=${addDays(START, 6)}`,
        `GET /analytics/venue-footfall-history/${v}/?from=${addDays(START, 7)}&to=${UNTIL}`,
      ])
      .sort(),
  );

  const days = eachDay(START, UNTIL);
  const series = fx.venues.flatMap((venue, i) =>
    days.flatMap((day) => [
      { venue, metric: 'dwell-minutes', day, granularity: 'day', value: dwellMinutes(i, day) },
      { venue, metric: 'visitors', day, granularity: 'day', value: visitors(i, day) },
    ]),
  );
  const summaries = fx.projects.flatMap((project, i) => days.map((day) => ({ project, metric: 'visitors', from: day, to: day, value: visitors(i, day) })));
  const seriesSql = (source: string) =>
    `SELECT venue_id::VARCHAR AS venue, metric, strftime(ts, '%Y-%m-%d') AS day, granularity, value FROM ${source} WHERE stream = 'venue-footfall-history' ORDER BY venue, day, metric`;
  const summarySql = (source: string) =>
    `SELECT venue_id::VARCHAR AS project, metric, period_start::VARCHAR AS "from", period_end::VARCHAR AS "to", value FROM ${source} WHERE stream = 'project-footfall-summary' ORDER BY project, "from"`;
  const byKey = <T extends Record<string, unknown>>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();
  expect(byKey(await queryRows(fx.warehousePath, seriesSql('series_points')))).toEqual(byKey(series));
  expect(byKey(await queryRows(fx.warehousePath, summarySql('summary_values')))).toEqual(byKey(summaries));

  // A config row copying a built-in endpoint loads what the built-in row loads.
  const copySql = (stream: string) =>
    `SELECT venue_id::VARCHAR AS venue, metric, granularity, ts::VARCHAR AS ts, value FROM series_points WHERE stream = '${stream}' ORDER BY ALL`;
  const builtIn = await queryRows(fx.warehousePath, copySql('venue-users-history'));
  expect(builtIn.length).toBe(fx.venues.length * days.length * 2);
  expect(await queryRows(fx.warehousePath, copySql('my-users-history'))).toEqual(builtIn);

  const exported = await fx.cli(['export']);
  expect(exported.code, describeRun(exported)).toBe(0);
  const parquet = join(fx.dir, 'parquet');
  expect(byKey(await queryRows(fx.warehousePath, seriesSql(`read_parquet('${parquet}/series_points/**/*.parquet', hive_partitioning = true)`)))).toEqual(
    byKey(series),
  );
  expect(byKey(await queryRows(fx.warehousePath, summarySql(`read_parquet('${parquet}/summary_values/**/*.parquet', hive_partitioning = true)`)))).toEqual(
    byKey(summaries),
  );
});
