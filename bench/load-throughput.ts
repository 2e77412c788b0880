/**
 * B2: normalize + load throughput, committed: JSON:API bodies held as strings go through the
 * real runner (chains, extraction with JSON.parse and the envelope check, normalization, group
 * commit) into `series_points`; the network is replaced by an in-memory client. The same
 * bodies are then loaded by DuckDB itself (`read_json` + unnest, one INSERT) into the same
 * table of a second warehouse file, in the same process.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { requireApi, resolveConfig } from '../src/config/index.js';
import { createLogger } from '../src/log/index.js';
import { addDays } from '../src/calendar/index.js';
import { planBackfillRun } from '../src/runner/backfill-job.js';
import { executeRun } from '../src/runner/execute-run.js';
import { extractAnalytics } from '../src/extract/index.js';
import { DriftReporter } from '../src/normalize/index.js';
import { openWarehouse } from '../src/warehouse/index.js';
import { memoryClient } from './memory-client.js';
import { buildSeriesBodies, SERIES_STREAMS, type SeriesBodies } from './series-bodies.js';
import { fmt, type Figure } from './figure.js';

export interface LoadThroughput {
  readonly rows: number;
  readonly bodies: number;
  readonly megabytes: number;
  readonly ms: number;
  readonly rowsPerSecond: number;
  readonly nativeRows: number;
  readonly nativeMs: number;
  readonly nativeRowsPerSecond: number;
  /** CPU (all threads) per row of each path, µs. */
  readonly cpuPerRowUs: number;
  readonly nativeCpuPerRowUs: number;
  /** JSON.parse, checks and normalization alone (no warehouse), one thread. */
  readonly normalizeRowsPerSecond: number;
}

/**
 * Each path `attempts` times, alternating, into fresh warehouse files; the fastest run of each
 * counts (on a shared machine one run can land on a busy moment).
 */
export async function measureLoadThroughput(options: { readonly rows: number; readonly attempts?: number }): Promise<LoadThroughput> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b2-'));
  try {
    const bodies = await buildSeriesBodies({ rows: options.rows });
    const normalized = await normalizeOnly(bodies);
    const file = await writeNdjson(bodies, dir);
    let ours: { rows: number; bodies: number; ms: number; cpuUs: number } | undefined;
    let native: { rows: number; ms: number; cpuUs: number } | undefined;
    for (let i = 0; i < Math.max(1, options.attempts ?? 1); i++) {
      const cpu = process.cpuUsage();
      const run = await loadThroughRunner(bodies, join(dir, `runner-${i}.duckdb`));
      const used = process.cpuUsage(cpu);
      if (!ours || run.ms < ours.ms) ours = { ...run, cpuUs: used.user + used.system };
      const nativeRun = await loadNatively(file, join(dir, `native-${i}.duckdb`));
      if (!native || nativeRun.ms < native.ms) native = nativeRun;
      rmSync(join(dir, `runner-${i}.duckdb`), { force: true });
      rmSync(join(dir, `native-${i}.duckdb`), { force: true });
    }
    if (!ours || !native) throw new Error('no load ran');
    return {
      rows: ours.rows,
      bodies: ours.bodies,
      megabytes: bodies.bytes / 1e6,
      ms: ours.ms,
      rowsPerSecond: (ours.rows * 1000) / ours.ms,
      nativeRows: native.rows,
      nativeMs: native.ms,
      nativeRowsPerSecond: (native.rows * 1000) / native.ms,
      cpuPerRowUs: ours.cpuUs / ours.rows,
      nativeCpuPerRowUs: native.cpuUs / native.rows,
      normalizeRowsPerSecond: (normalized.rows * 1000) / normalized.ms,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The JavaScript side alone: every body parsed, checked and normalized, nothing loaded. */
async function normalizeOnly(bodies: SeriesBodies): Promise<{ rows: number; ms: number }> {
  const config = requireApi(
    resolveConfig({
      api: { baseUrl: 'http://127.0.0.1:9', token: 'bench-token' },
      scope: { venues: [...bodies.scopeIds] },
      sync: { windowDays: bodies.windowDays },
    }),
  );
  const plan = planBackfillRun(config, { from: bodies.from, to: bodies.to, streams: SERIES_STREAMS, now: new Date(`${addDays(bodies.to, 1)}T12:00:00Z`) });
  const context = { source: memoryClient(bodies), drift: new DriftReporter(), pageSize: 100 };
  let rows = 0;
  const started = performance.now();
  for (const chain of plan.chains()) for (const slice of chain.slices) rows += (await extractAnalytics(slice, context)).rows;
  return { rows, ms: performance.now() - started };
}

export async function loadThroughRunner(bodies: SeriesBodies, path: string): Promise<{ rows: number; bodies: number; ms: number }> {
  const config = requireApi(
    resolveConfig({
      api: { baseUrl: 'http://127.0.0.1:9', token: 'bench-token', concurrency: 16 },
      scope: { venues: [...bodies.scopeIds] },
      sync: { windowDays: bodies.windowDays },
      warehouse: { path },
    }),
  );
  const now = new Date(`${addDays(bodies.to, 1)}T12:00:00Z`);
  const plan = planBackfillRun(config, { from: bodies.from, to: bodies.to, streams: SERIES_STREAMS, now });
  const client = memoryClient(bodies);
  const warehouse = await openWarehouse(path);
  try {
    const baseline = addDays(bodies.from, -1);
    const started = performance.now();
    const result = await executeRun({
      job: 'bench-load',
      config,
      catalogue: plan.catalogue,
      logger: createLogger({ level: 'warn' }),
      client,
      warehouse,
      chains: plan.chains,
      cursorFor: (slice) => ({ mode: 'extend', date: slice.windowTo, baseline }),
    });
    const ms = performance.now() - started;
    if (result.status !== 'succeeded') throw new Error(`the load run ended ${result.status}: ${result.fatal ?? ''}`);
    return { rows: result.rowsWritten, bodies: client.stats.requests, ms };
  } finally {
    await warehouse.close();
  }
}

/**
 * DuckDB's own JSON reader over the same bodies, one NDJSON line per body with its scope id
 * and stream beside it. Granularity is decided per point here (the runner decides it per
 * series); the reader does no other validation.
 */
export const NATIVE_LOAD_SQL = `
INSERT INTO series_points
SELECT venue_id, stream, metric,
       CASE WHEN epoch(ts)::BIGINT % 86400 = 0 THEN 'day' ELSE 'hour' END,
       ts, value, 'duckdb-native', now()
FROM (
  SELECT venue_id, stream, e.key AS metric, (p->>0)::TIMESTAMPTZ AS ts, (p->>1)::DOUBLE AS value
  FROM (
    SELECT venue_id, stream, e, unnest(e.value) AS p
    FROM (
      SELECT venue_id::UUID AS venue_id, stream, unnest(map_entries(body.data.attributes)) AS e
      FROM read_json($1, format = 'newline_delimited',
        columns = {venue_id: 'VARCHAR', stream: 'VARCHAR', body: 'STRUCT(data STRUCT(attributes MAP(VARCHAR, JSON[])))'})
    )
  )
)`;

/** One NDJSON line per body, with its scope id and stream beside it. */
async function writeNdjson(bodies: SeriesBodies, dir: string): Promise<string> {
  const file = join(dir, 'bodies.ndjson');
  const out = createWriteStream(file);
  for (const { scopeId, stream, body } of bodies.each()) {
    if (!out.write(`{"venue_id":"${scopeId}","stream":"${stream}","body":${body}}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

async function loadNatively(file: string, path: string): Promise<{ rows: number; ms: number; cpuUs: number }> {
  const warehouse = await openWarehouse(path);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const rows = await warehouse.transaction((session) => session.run(NATIVE_LOAD_SQL, [file]), 'native load');
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { rows, ms, cpuUs: used.user + used.system };
  } finally {
    await warehouse.close();
  }
}

export async function loadThroughputFigure(options: { readonly rows: number; readonly attempts?: number }): Promise<Figure> {
  const r = await measureLoadThroughput(options);
  const versusNative = r.rowsPerSecond / r.nativeRowsPerSecond;
  return {
    id: 'B2',
    what: `normalize + load ${fmt.count(r.rows)} rows from bodies in memory`,
    measured: `${fmt.rate(r.rowsPerSecond)} rows/s`,
    limit: `DuckDB read_json ${fmt.rate(r.nativeRowsPerSecond)} rows/s`,
    ratio: fmt.ratio(versusNative),
    target: '>= 1M rows/s and >= 1.00x',
    met: r.rowsPerSecond >= 1e6 && versusNative >= 1,
    notes: [
      `Runner path: ${fmt.seconds(r.ms)} for ${fmt.count(r.rows)} rows from ${fmt.count(r.bodies)} bodies (${fmt.mb(r.megabytes * 1e6)}: JSON.parse, envelope and attribute ` +
        'checks, normalization, group commit into series_points, cursors).',
      `DuckDB native: one INSERT ... SELECT over read_json of the same bodies (NDJSON file, page cache), ${fmt.seconds(r.nativeMs)} for ${fmt.count(r.nativeRows)} rows.` +
        `${(options.attempts ?? 1) > 1 ? ` Best of ${options.attempts} runs of each path, alternating.` : ''}`,
      `CPU per row (all threads): runner ${r.cpuPerRowUs.toFixed(2)} µs, DuckDB native ${r.nativeCpuPerRowUs.toFixed(2)} µs. The JavaScript side alone ` +
        `(JSON.parse, checks, normalization; one thread, nothing loaded) runs at ${fmt.rate(r.normalizeRowsPerSecond)} rows/s.`,
    ],
  };
}
