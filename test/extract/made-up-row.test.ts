/**
 * A made-up row of the endpoint table, of the kind config rows cannot describe (a list paged by
 * page number, filtered by venue, with its own names for the date parameters), is followed like
 * the built-in rows: planned, requested as the row says, normalized, loaded into a real DuckDB
 * file and exported to Parquet, with no code but the row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { buildCatalogue, COUNT, ENDPOINTS, PAGES, type EndpointRow } from '../../src/catalogue/index.js';
import { requireApi, resolveConfig } from '../../src/config/index.js';
import { exportParquet } from '../../src/export/index.js';
import { createLogger } from '../../src/log/index.js';
import { eachDay } from '../../src/calendar/index.js';
import { planSync } from '../../src/plan/index.js';
import { executeRun } from '../../src/runner/execute-run.js';
import { openWarehouse } from '../../src/warehouse/index.js';
import { sendJson, startServer, TOKEN, type TestServer } from '../api/helpers.js';

const VENUES = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];
const FROM = '2026-02-25';
const UNTIL = '2026-03-03';

const ROW: EndpointRow = {
  stream: 'footfall-summaries',
  kind: 'summary',
  scope: 'venue',
  path: '/statistics/footfall-summaries/',
  query: { 'filter[venue]': '{venue_id}' },
  dates: { from: 'since', to: 'until' },
  paginator: PAGES,
  resourceType: 'footfall-summary',
  attributes: z.looseObject({ visitors: z.number(), passers: z.number() }),
  metrics: ['visitors', 'passers'],
  domains: { visitors: COUNT, passers: COUNT },
  venueFrom: 'relationship',
};

/** The made-up API's answer for a venue and a period: a number nobody else computes. */
const visitors = (venue: string, from: string, to: string): number => VENUES.indexOf(venue) * 1000 + Number(from.slice(8)) * 10 + Number(to.slice(8));

let api: TestServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-made-up-row-'));
  api = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://api.test');
    const venue = url.searchParams.get('filter[venue]') ?? '';
    const [since = '', until = ''] = [url.searchParams.get('since') ?? '', url.searchParams.get('until') ?? ''];
    if (url.pathname !== '/statistics/footfall-summaries/' || !VENUES.includes(venue) || !since || !until)
      return sendJson(res, 404, { errors: [{ title: 'no such list' }] });
    // Two pages: the period's summary, then nothing more.
    const page = Number(url.searchParams.get('page[number]'));
    const resource = {
      type: 'footfall-summary',
      id: `${venue.slice(0, -2)}ff`,
      attributes: { visitors: visitors(venue, since, until), passers: 7 },
      relationships: { venue: { data: { type: 'venues', id: venue } } },
    };
    const next = new URL(url);
    next.searchParams.set('page[number]', '2');
    return sendJson(res, 200, {
      data: page === 1 ? [resource] : [],
      links: { next: page === 1 ? `${api.url}${next.pathname}${next.search}` : null },
      meta: { count: 1 },
      jsonapi: { version: '1.0' },
    });
  });
});

afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('plans, requests, normalizes, loads and exports a made-up list row added to the table', async () => {
  const warehousePath = join(dir, 'warehouse.duckdb');
  const config = requireApi(
    resolveConfig(
      {
        api: { baseUrl: api.url, token: TOKEN, pageSize: 5 },
        scope: { venues: VENUES },
        sync: { summaryGrain: ['day', 'month'] },
        warehouse: { path: warehousePath },
      },
      {},
    ),
  );
  const catalogue = buildCatalogue([], [...ENDPOINTS, ROW]);
  const chains = planSync({
    catalogue,
    streams: [ROW.stream],
    venues: VENUES,
    projects: [],
    cursors: new Map(),
    startDate: FROM,
    until: UNTIL,
    today: '2026-03-04',
    lookbackDays: 3,
    windowDays: 31,
    grains: ['day', 'month'],
  });
  const logger = createLogger({ level: 'silent' });
  const client = createApiClient({ baseUrl: api.url, token: TOKEN, concurrency: 4, timeoutMs: 5_000, maxRetries: 0, maxRetryAfterMs: 1_000, logger });
  const warehouse = await openWarehouse(warehousePath);
  try {
    const result = await executeRun({
      job: 'sync',
      config,
      catalogue,
      logger,
      client,
      warehouse,
      chains: () => chains,
      cursorFor: (slice) => ({ mode: 'advance', date: slice.windowTo }),
    });
    expect(result.status, result.fatal).toBe('succeeded');
  } finally {
    await warehouse.close();
    await client.close();
  }

  // Day periods and the months touched, each asked with the row's own parameters, first page first.
  const periods = [...eachDay(FROM, UNTIL).map((day) => [day, day]), ['2026-02-01', '2026-02-28'], ['2026-03-01', UNTIL]];
  const firstPages = api.requests.map((r) => r.url).filter((url) => url.includes('page[number]=1&'));
  expect(firstPages.sort()).toEqual(
    VENUES.flatMap((venue) =>
      periods.map(([since, until]) => `/statistics/footfall-summaries/?filter[venue]=${venue}&since=${since}&until=${until}&page[number]=1&page[size]=5`),
    ).sort(),
  );
  expect(api.requests).toHaveLength(firstPages.length * 2);

  const expected = VENUES.flatMap((venue) =>
    periods.flatMap(([since = '', until = '']) => [
      [venue, 'passers', since, until, 7],
      [venue, 'visitors', since, until, visitors(venue, since, until)],
    ]),
  )
    .map((row) => JSON.stringify(row))
    .sort();
  const parquetDir = join(dir, 'parquet');
  await exportParquet({ warehouse: warehousePath, dir: parquetDir, logger });
  const stored = async (source: string): Promise<string[]> => {
    const instance = await DuckDBInstance.create(warehousePath, { access_mode: 'READ_ONLY' });
    try {
      const connection = await instance.connect();
      const reader = await connection.runAndReadAll(
        `SELECT venue_id::VARCHAR, metric, period_start::VARCHAR, period_end::VARCHAR, value FROM ${source} WHERE stream = '${ROW.stream}'`,
      );
      connection.closeSync();
      return reader
        .getRowsJson()
        .map((row) => JSON.stringify(row))
        .sort();
    } finally {
      instance.closeSync();
    }
  };
  expect(await stored('summary_values')).toEqual(expected);
  expect(await stored(`read_parquet('${parquetDir}/summary_values/**/*.parquet', hive_partitioning = true)`)).toEqual(expected);
});
