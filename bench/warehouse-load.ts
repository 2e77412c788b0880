/**
 * Micro-benchmark of the warehouse loader: how fast series rows get from normalized columns
 * into `series_points`, and the alternatives the loader was chosen from.
 *
 *   npx tsc -p . && node dist/bench/warehouse-load.js [--quick] [--rows 5000000] [--group 100]
 *                                                     [--small-rows 1000000] [--small-group 1000]
 *
 * Prints rows/s per variant. Uses a DuckDB file in a temp dir (removed at the end).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BIGINT,
  DOUBLE,
  DuckDBDataChunk,
  DuckDBTimestampTZValue,
  DuckDBUUIDValue,
  INTEGER,
  TIMESTAMPTZ,
  UUID,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBVector,
} from '@duckdb/node-api';
import type { SeriesColumns } from '../src/normalize/columns.js';
import { openWarehouse, type SliceCommit, type Warehouse } from '../src/warehouse/index.js';
import type { Session } from '../src/warehouse/session.js';
import { sql } from '../src/warehouse/sql-files.js';

const METRICS = ['detected', 'unique-detected', 'unique-authenticated', 'authenticated'];
const STREAM = 'venue-devices-history';
const DAY_MS = 86_400_000;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const quick = process.argv.includes('--quick');

/** A load to measure: slices of one size, committed in groups. */
interface Shape {
  readonly label: string;
  readonly granularity: 'hour' | 'day';
  readonly windowDays: number;
  readonly windowsPerVenue: number;
  readonly rowsPerSlice: number;
  readonly sliceCount: number;
  readonly groupSize: number;
}

function shape(label: string, granularity: 'hour' | 'day', windowDays: number, windowsPerVenue: number, rows: number, groupSize: number): Shape {
  const rowsPerSlice = METRICS.length * windowDays * (granularity === 'hour' ? 24 : 1);
  return { label, granularity, windowDays, windowsPerVenue, rowsPerSlice, sliceCount: Math.max(1, Math.round(rows / rowsPerSlice)), groupSize };
}

/** Backfill-like: 26-day windows of hourly points (2,496 rows per slice). */
const large = shape('large slices (26 days × 24 hourly points × 4 metrics)', 'hour', 26, 20, option('rows', quick ? 500_000 : 5_000_000), option('group', 100));
/** Sync-like: 31-day windows of daily points (124 rows per slice), big groups like the runner's. */
const small = shape(
  'small slices (31 daily points × 4 metrics)',
  'day',
  31,
  12,
  option('small-rows', quick ? 200_000 : 1_000_000),
  option('small-group', 1_000),
);

function venueId(v: number): string {
  return `6f1c1a52-0000-4000-8000-${v.toString(16).padStart(12, '0')}`;
}

/** Slice s of a shape: venue s / windowsPerVenue, consecutive windows; every 7th value NULL. */
function slice(shape: Shape, s: number, salt = 0): SliceCommit {
  const venue = venueId(Math.floor(s / shape.windowsPerVenue));
  const start = Date.UTC(2026, 0, 1) + (s % shape.windowsPerVenue) * shape.windowDays * DAY_MS;
  const step = shape.granularity === 'hour' ? 3_600_000 : DAY_MS;
  const points = shape.rowsPerSlice / METRICS.length;
  const columns: SeriesColumns = { venueId: venue, stream: STREAM, metric: [], granularity: [], tsMs: [], value: [] };
  for (const metric of METRICS) {
    for (let h = 0; h < points; h++) {
      columns.metric.push(metric);
      columns.granularity.push(shape.granularity);
      columns.tsMs.push(start + h * step);
      columns.value.push(h % 7 === 0 ? null : ((h * 31 + s) % 97) + salt);
    }
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const windowTo = day(start + (shape.windowDays - 1) * DAY_MS);
  return { stream: STREAM, scopeId: venue, windowFrom: day(start), windowTo, series: columns, cursor: { mode: 'advance', date: windowTo } };
}

function group(shape: Shape, first: number, salt = 0): SliceCommit[] {
  return Array.from({ length: Math.min(shape.groupSize, shape.sliceCount - first) }, (_, i) => slice(shape, first + i, salt));
}

function rate(rows: number, ms: number): string {
  const perSecond = rows / (ms / 1000);
  const text = perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)}M` : `${(perSecond / 1e3).toFixed(0)}k`;
  return `${text.padStart(7)} rows/s  (${rows.toLocaleString('en')} rows in ${(ms / 1000).toFixed(2)} s)`;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

// ------------------------------------------------------------------------------------------
// Staging variants: rows of one group into a temp table, nothing else.
// ------------------------------------------------------------------------------------------

type Stager = (session: Session, slices: readonly SliceCommit[]) => Promise<number>;

/** Fills chunks column by column through setItem; `write(row, vectors, k)` per row. */
async function chunkLoop(
  appender: DuckDBAppender,
  types: Parameters<typeof DuckDBDataChunk.create>[0],
  slices: readonly SliceCommit[],
  write: (series: SeriesColumns, i: number, w: number, vectors: DuckDBVector[], k: number) => void,
): Promise<number> {
  const capacity = 2048;
  const chunk = DuckDBDataChunk.create(types, capacity);
  let vectors = types.map((_, c) => chunk.getColumnVector(c));
  let k = 0;
  let rows = 0;
  const flush = () => {
    for (const vector of vectors) vector.flush();
    if (k !== capacity) chunk.rowCount = k;
    appender.appendDataChunk(chunk);
    rows += k;
    k = 0;
    chunk.reset();
    chunk.rowCount = capacity;
    vectors = types.map((_, c) => chunk.getColumnVector(c));
  };
  slices.forEach((commit, w) => {
    const series = commit.series!;
    for (let i = 0; i < series.tsMs.length; i++) {
      write(series, i, w, vectors, k);
      if (++k === capacity) flush();
    }
  });
  if (k > 0) flush();
  appender.flushSync();
  appender.closeSync();
  return rows;
}

const stagers: Record<string, [string, Stager]> = {
  numeric: [
    'data chunks, numbers only: window id, metric id, epoch-ms DOUBLE, value DOUBLE (NaN = NULL)  [used]',
    async (session, slices) => {
      await session.run('CREATE OR REPLACE TEMP TABLE bench_stage (w INTEGER, m INTEGER, ts_ms DOUBLE, value DOUBLE)');
      const ids = new Map(METRICS.map((m, i) => [m, i]));
      const appender = await session.connection.createAppender('bench_stage', 'main', 'temp');
      return chunkLoop(appender, [INTEGER, INTEGER, DOUBLE, DOUBLE], slices, (s, i, w, v, k) => {
        v[0].setItem(k, w);
        v[1].setItem(k, ids.get(s.metric[i])!);
        v[2].setItem(k, s.tsMs[i]);
        const value = s.value[i];
        v[3].setItem(k, value === null ? NaN : value);
      });
    },
  ],
  numericNulls: [
    'same, NULL through the validity mask instead of NaN',
    async (session, slices) => {
      await session.run('CREATE OR REPLACE TEMP TABLE bench_stage (w INTEGER, m INTEGER, ts_ms DOUBLE, value DOUBLE)');
      const ids = new Map(METRICS.map((m, i) => [m, i]));
      const appender = await session.connection.createAppender('bench_stage', 'main', 'temp');
      return chunkLoop(appender, [INTEGER, INTEGER, DOUBLE, DOUBLE], slices, (s, i, w, v, k) => {
        v[0].setItem(k, w);
        v[1].setItem(k, ids.get(s.metric[i])!);
        v[2].setItem(k, s.tsMs[i]);
        v[3].setItem(k, s.value[i]);
      });
    },
  ],
  micros: [
    'same, ts as BIGINT epoch-µs (a BigInt per row)',
    async (session, slices) => {
      await session.run('CREATE OR REPLACE TEMP TABLE bench_stage (w INTEGER, m INTEGER, ts_us BIGINT, value DOUBLE)');
      const ids = new Map(METRICS.map((m, i) => [m, i]));
      const appender = await session.connection.createAppender('bench_stage', 'main', 'temp');
      return chunkLoop(appender, [INTEGER, INTEGER, BIGINT, DOUBLE], slices, (s, i, w, v, k) => {
        v[0].setItem(k, w);
        v[1].setItem(k, ids.get(s.metric[i])!);
        v[2].setItem(k, BigInt(s.tsMs[i]) * 1000n);
        const value = s.value[i];
        v[3].setItem(k, value === null ? NaN : value);
      });
    },
  ],
  typed: [
    'data chunks of the final types: UUID (cached values), 3 VARCHAR, TIMESTAMPTZ values, DOUBLE',
    async (session, slices) => {
      await session.run(
        'CREATE OR REPLACE TEMP TABLE bench_stage (venue_id UUID, stream VARCHAR, metric VARCHAR, granularity VARCHAR, ts TIMESTAMPTZ, value DOUBLE)',
      );
      const uuids = new Map<string, DuckDBUUIDValue>();
      const appender = await session.connection.createAppender('bench_stage', 'main', 'temp');
      return chunkLoop(appender, [UUID, VARCHAR, VARCHAR, VARCHAR, TIMESTAMPTZ, DOUBLE], slices, (s, i, _w, v, k) => {
        let uuid = uuids.get(s.venueId);
        if (!uuid) {
          uuid = DuckDBUUIDValue.fromUint128(BigInt(`0x${s.venueId.replace(/-/g, '')}`));
          uuids.set(s.venueId, uuid);
        }
        v[0].setItem(k, uuid);
        v[1].setItem(k, s.stream);
        v[2].setItem(k, s.metric[i]);
        v[3].setItem(k, s.granularity[i]);
        v[4].setItem(k, new DuckDBTimestampTZValue(BigInt(s.tsMs[i]) * 1000n));
        v[5].setItem(k, s.value[i]);
      });
    },
  ],
  typedVarcharUuid: [
    'same, UUID staged as VARCHAR (cast in SQL later)',
    async (session, slices) => {
      await session.run(
        'CREATE OR REPLACE TEMP TABLE bench_stage (venue_id VARCHAR, stream VARCHAR, metric VARCHAR, granularity VARCHAR, ts TIMESTAMPTZ, value DOUBLE)',
      );
      const appender = await session.connection.createAppender('bench_stage', 'main', 'temp');
      return chunkLoop(appender, [VARCHAR, VARCHAR, VARCHAR, VARCHAR, TIMESTAMPTZ, DOUBLE], slices, (s, i, _w, v, k) => {
        v[0].setItem(k, s.venueId);
        v[1].setItem(k, s.stream);
        v[2].setItem(k, s.metric[i]);
        v[3].setItem(k, s.granularity[i]);
        v[4].setItem(k, new DuckDBTimestampTZValue(BigInt(s.tsMs[i]) * 1000n));
        v[5].setItem(k, s.value[i]);
      });
    },
  ],
  rowApi: [
    'appender row API, numbers only (appendInteger/appendDouble/appendNull per value)',
    async (session, slices) => {
      await session.run('CREATE OR REPLACE TEMP TABLE bench_stage (w INTEGER, m INTEGER, ts_ms DOUBLE, value DOUBLE)');
      const ids = new Map(METRICS.map((m, i) => [m, i]));
      const appender = await session.connection.createAppender('bench_stage', 'main', 'temp');
      let rows = 0;
      slices.forEach((commit, w) => {
        const s = commit.series!;
        for (let i = 0; i < s.tsMs.length; i++) {
          appender.appendInteger(w);
          appender.appendInteger(ids.get(s.metric[i])!);
          appender.appendDouble(s.tsMs[i]);
          const value = s.value[i];
          if (value === null) appender.appendNull();
          else appender.appendDouble(value);
          appender.endRow();
          rows++;
        }
      });
      appender.flushSync();
      appender.closeSync();
      return rows;
    },
  ],
};

async function benchStaging(warehouse: Warehouse, sample: SliceCommit[][]): Promise<void> {
  console.log(`\nstaging only, ${large.label}: ${sample.length} group(s) of ${large.groupSize} slices into a temp table (best of 3)`);
  for (const [description, stage] of Object.values(stagers)) {
    let best = Infinity;
    let rows = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      rows = 0;
      let ms = 0;
      for (const group of sample) {
        const [n, t] = await timed(() => warehouse.transaction((session) => stage(session, group)));
        rows += n;
        ms += t;
      }
      best = Math.min(best, ms);
    }
    console.log(`  ${rate(rows, best)}  ${description}`);
  }
}

// ------------------------------------------------------------------------------------------
// End to end: Warehouse.commitSlices.
// ------------------------------------------------------------------------------------------

async function benchCommits(warehouse: Warehouse, shape: Shape, label: string, salt: number): Promise<void> {
  let rows = 0;
  let written = 0;
  let ms = 0;
  let slowest = 0;
  let cpuMs = 0;
  // Slices are generated per group, outside the timed part.
  for (let first = 0; first < shape.sliceCount; first += shape.groupSize) {
    const commits = group(shape, first, salt);
    rows += commits.reduce((n, c) => n + c.series!.tsMs.length, 0);
    const cpuStart = process.cpuUsage();
    const [result, t] = await timed(() => warehouse.commitSlices(`bench-${salt}`, commits));
    const cpu = process.cpuUsage(cpuStart);
    cpuMs += (cpu.user + cpu.system) / 1000;
    written += result.rowsWritten;
    ms += t;
    slowest = Math.max(slowest, t);
  }
  console.log(`  ${rate(rows, ms)}  ${label}`);
  console.log(
    `  ${''.padStart(7)}          rows written ${written.toLocaleString('en')}; slowest group ${slowest.toFixed(0)} ms; ` +
      `CPU ${(cpuMs / 1000).toFixed(2)} s (${(((rows / cpuMs) * 1000) / 1e6).toFixed(2)}M rows per CPU-second)`,
  );
}

async function benchShape(dir: string, shape: Shape): Promise<void> {
  const warehouse = await openWarehouse(join(dir, `${shape.granularity}.duckdb`));
  try {
    console.log(
      `\ncommitSlices end to end, ${shape.label}: ${shape.sliceCount.toLocaleString('en')} slices = ` +
        `${(shape.sliceCount * shape.rowsPerSlice).toLocaleString('en')} rows in groups of ${shape.groupSize} ` +
        `(stage, diff, delete + insert changed windows, cursors; one transaction per group)`,
    );
    await benchCommits(warehouse, shape, 'first load into an empty table', 0);
    await benchCommits(warehouse, shape, 'identical reload (diff only, nothing rewritten)', 0);
    await benchCommits(warehouse, shape, 'reload with every value changed (all windows replaced)', 1);
    if (shape === large) {
      await benchDiff(warehouse);
      await benchDeletes(warehouse);
    }
  } finally {
    await warehouse.close();
  }
}

/**
 * The diff step alone on one staged group against the loaded table: the per-window
 * fingerprint the loader uses vs an exact EXCEPT ALL of staged and stored rows.
 */
async function benchDiff(warehouse: Warehouse): Promise<void> {
  const commits = group(large, 0);
  const rows = commits.reduce((n, s) => n + s.series!.tsMs.length, 0);
  console.log(`\ndiff step: one group of ${commits.length} unchanged windows (${rows.toLocaleString('en')} rows) against the loaded table (best of 3)`);
  const exceptAll = `
    WITH stored AS (
      SELECT w.w, m.m, epoch_ms(s.ts) AS ts_ms, s.value
      FROM series_points AS s
      JOIN stage_series_windows AS w
        ON s.venue_id = w.venue_id AND s.stream = w.stream AND s.ts >= w.ts_from AND s.ts < w.ts_to
      LEFT JOIN stage_series_metrics AS m ON s.metric = m.metric AND s.granularity = m.granularity),
    staged AS (SELECT w, m, CAST(ts_ms AS BIGINT) AS ts_ms, CASE WHEN isnan(value) THEN NULL ELSE value END AS value FROM stage_series)
    SELECT count(DISTINCT w)::INTEGER AS changed FROM (
      (SELECT * FROM staged EXCEPT ALL SELECT * FROM stored) UNION ALL (SELECT * FROM stored EXCEPT ALL SELECT * FROM staged))`;
  const variants: [string, string][] = [
    ['count + two 64-bit hash sums per window  [used]', sql('warehouse/series-changed-windows.sql')],
    ['EXCEPT ALL both ways (exact multiset difference)', exceptAll],
  ];
  for (const [label, statement] of variants) {
    let best = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      await warehouse
        .transaction(async (session) => {
          await stageGroupForDiff(session, commits);
          const [, t] = await timed(() => session.run(statement));
          best = Math.min(best, t);
          throw new Error('rollback');
        })
        .catch(() => undefined);
    }
    console.log(`  ${rate(rows, best)}  ${label}`);
  }
}

/** Fills the loader's staging tables for one group, as replaceSeriesRound does. */
async function stageGroupForDiff(session: Session, group: readonly SliceCommit[]): Promise<void> {
  await session.run(sql('warehouse/series-staging.sql'));
  const windows = await session.connection.createAppender('stage_series_windows', 'main', 'temp');
  group.forEach((commit, w) => {
    windows.appendInteger(w);
    windows.appendVarchar(commit.scopeId);
    windows.appendVarchar(commit.stream);
    windows.appendVarchar(`${commit.windowFrom}T00:00:00Z`);
    windows.appendVarchar(new Date(Date.parse(`${commit.windowTo}T00:00:00Z`) + DAY_MS).toISOString());
    windows.endRow();
  });
  windows.flushSync();
  windows.closeSync();
  await session.run(
    `INSERT INTO stage_series_metrics SELECT i::INTEGER, metric, 'hour' FROM (SELECT unnest($1::JSON::VARCHAR[]) AS metric, generate_subscripts($1::JSON::VARCHAR[], 1) - 1 AS i)`,
    [JSON.stringify(METRICS)],
  );
  const ids = new Map(METRICS.map((m, i) => [m, i]));
  const appender = await session.connection.createAppender('stage_series', 'main', 'temp');
  await chunkLoop(appender, [INTEGER, INTEGER, DOUBLE, DOUBLE], group, (s, i, w, v, k) => {
    v[0].setItem(k, w);
    v[1].setItem(k, ids.get(s.metric[i])!);
    v[2].setItem(k, s.tsMs[i]);
    const value = s.value[i];
    v[3].setItem(k, value === null ? NaN : value);
  });
}

/** The replace step alone: one DELETE joined to the windows vs one DELETE per window. */
async function benchDeletes(warehouse: Warehouse): Promise<void> {
  const count = Math.min(large.groupSize, large.sliceCount);
  const spread = Math.max(1, Math.floor(large.sliceCount / count));
  console.log(
    `\nreplace step on the ${(large.sliceCount * large.rowsPerSlice).toLocaleString('en')}-row table: delete ${count} windows spread over it (rolled back)`,
  );
  const windows = Array.from({ length: count }, (_, i) => slice(large, (i * spread) % large.sliceCount));
  const setup = async (session: Session) => {
    await session.run('CREATE OR REPLACE TEMP TABLE bench_windows (venue_id UUID, stream VARCHAR, ts_from TIMESTAMPTZ, ts_to TIMESTAMPTZ)');
    for (const w of windows) {
      await session.run('INSERT INTO bench_windows VALUES ($1::UUID, $2, $3::TIMESTAMPTZ, $4::TIMESTAMPTZ + INTERVAL 1 DAY)', [
        w.scopeId,
        w.stream,
        `${w.windowFrom}T00:00:00Z`,
        `${w.windowTo}T00:00:00Z`,
      ]);
    }
  };
  const variants: [string, (session: Session) => Promise<number>][] = [
    [
      'one DELETE … USING the windows table  [used]',
      (session) =>
        session.run(`DELETE FROM series_points AS s USING bench_windows AS w
          WHERE s.venue_id = w.venue_id AND s.stream = w.stream AND s.ts >= w.ts_from AND s.ts < w.ts_to`),
    ],
    [
      'one prepared DELETE per window',
      async (session) => {
        const statement = await session.connection.prepare(
          `DELETE FROM series_points WHERE venue_id = $1::UUID AND stream = $2 AND ts >= $3::TIMESTAMPTZ AND ts < $4::TIMESTAMPTZ + INTERVAL 1 DAY`,
        );
        let deleted = 0;
        for (const w of windows) {
          statement.bind([w.scopeId, w.stream, `${w.windowFrom}T00:00:00Z`, `${w.windowTo}T00:00:00Z`]);
          deleted += Number((await statement.run()).rowsChanged);
        }
        return deleted;
      },
    ],
  ];
  for (const [label, run] of variants) {
    let deleted = 0;
    let ms = 0;
    await warehouse
      .transaction(async (session) => {
        await setup(session);
        [deleted, ms] = await timed(() => run(session));
        throw new Error('rollback');
      })
      .catch(() => undefined);
    console.log(`  ${rate(deleted, ms)}  ${label}`);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-'));
  const os = await import('node:os');
  try {
    console.log(`warehouse-load (node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})`);
    const warehouse = await openWarehouse(join(dir, 'staging.duckdb'));
    try {
      const groups = Math.max(1, Math.ceil(500_000 / (large.groupSize * large.rowsPerSlice)));
      const sample = Array.from({ length: groups }, (_, g) => group(large, g * large.groupSize));
      await benchStaging(warehouse, sample);
    } finally {
      await warehouse.close();
    }
    await benchShape(dir, large);
    await benchShape(dir, small);
    console.log(
      `\nload average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other processes share the cores)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
