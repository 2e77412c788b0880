import { cpSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet, MANIFEST_FILE } from '../../src/export/index.js';
import { emptyManifest } from '../../src/export/manifest.js';
import { openParquetSource, openWarehouseSource, type QuerySource } from '../../src/readside/index.js';
import { tableEntries } from '../../src/readside/lake-manifests.js';
import { createWarehouse, REBUILD_ROLLUP, report, runCli, runOnFile, seededWarehouse, tempDir, V1, V2, writeConfig } from './fixture.js';

const V3 = '33333333-3333-4333-8333-333333333333';
const A3 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa3';
const UNION_TABLES = ['series_points', 'summary_values', 'venue_roles', 'accounts'] as const;

/**
 * A second tenant: its own venue (V3) and account (A3), nothing of the first one's. Neither
 * exports upsert events, so that table exists in the manifests only (a typed empty view).
 */
const TENANT_B_SQL = [
  `DELETE FROM series_points WHERE venue_id = '${V1}'`,
  `DELETE FROM summary_values WHERE venue_id = '${V1}'`,
  `DELETE FROM venue_roles WHERE venue_id = '${V1}'`,
  `UPDATE series_points SET venue_id = '${V3}' WHERE venue_id = '${V2}'`,
  `UPDATE summary_values SET venue_id = '${V3}' WHERE venue_id = '${V2}'`,
  `UPDATE venue_roles SET venue_id = '${V3}', account_id = '${A3}' WHERE venue_id = '${V2}'`,
  `DELETE FROM accounts`,
  `INSERT INTO accounts VALUES ('${A3}', 'b@example.com', 'Beata B', NULL, 'en', ['ADMIN'], '[]', NULL, true, now(), now(), 'run-1')`,
  `DELETE FROM upsert_events`,
  `DELETE FROM venues`,
];

/** One exported folder's files renamed as writer `id` names them (`data-<id>.parquet`, `_venue_etl_manifest-<id>.json`). */
function asWriter(exported: string, id: string): void {
  for (const entry of readdirSync(exported, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name === 'data.parquet') renameSync(join(entry.parentPath, entry.name), join(entry.parentPath, `data-${id}.parquet`));
  }
  renameSync(join(exported, MANIFEST_FILE), join(exported, `_venue_etl_manifest-${id}.json`));
}

async function rows(opening: Promise<QuerySource>, query: string): Promise<string[]> {
  const source = await opening;
  try {
    return ((await source.connection.runAndReadAll(query)).getRowObjectsJson() as unknown[]).map((row) => JSON.stringify(row));
  } finally {
    await source.close();
  }
}

const sorted = (values: readonly string[]) => [...values].sort();

describe('a lake written by several writers', () => {
  const { dir, cleanup } = tempDir();
  const tenantA = join(dir, 'a.duckdb');
  const tenantB = join(dir, 'b.duckdb');
  const both = join(dir, 'both.duckdb');
  const lake = join(dir, 'lake');
  const config = writeConfig(dir, { parquet: { dir: lake }, warehouse: { path: both } });

  beforeAll(async () => {
    await seededWarehouse(tenantA);
    await runOnFile(tenantA, 'DELETE FROM upsert_events');
    await seededWarehouse(tenantB);
    await runOnFile(tenantB, [...TENANT_B_SQL, REBUILD_ROLLUP()]);
    // Writer "tenant-a" and the default writer (today's names), in one folder.
    await exportParquet({ warehouse: tenantA, dir: join(dir, 'export-a') });
    await exportParquet({ warehouse: tenantB, dir: join(dir, 'export-b') });
    asWriter(join(dir, 'export-a'), 'tenant-a');
    mkdirSync(lake);
    cpSync(join(dir, 'export-a'), lake, { recursive: true });
    cpSync(join(dir, 'export-b'), lake, { recursive: true });
    // What the union must equal: one warehouse holding both tenants' rows.
    await createWarehouse(both);
    await runOnFile(both, [
      `ATTACH '${tenantA}' AS a (READ_ONLY)`,
      `ATTACH '${tenantB}' AS b (READ_ONLY)`,
      ...[...UNION_TABLES, 'venues'].map((t) => `INSERT INTO ${t} SELECT * FROM a.${t} UNION ALL SELECT * FROM b.${t}`),
      'INSERT INTO project_roles SELECT * FROM a.project_roles',
      REBUILD_ROLLUP(),
    ]);
  });
  afterAll(cleanup);

  it('reads the union of every writer’s files, in the warehouse’s column types', async () => {
    for (const table of UNION_TABLES) {
      const query = `SELECT * FROM ${table}`;
      const expected = sorted([...(await rows(openWarehouseSource(tenantA), query)), ...(await rows(openWarehouseSource(tenantB), query))]);
      expect(sorted(await rows(openParquetSource(lake), query)), table).toEqual(expected);
      const columns = `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`;
      expect(await rows(openParquetSource(lake), columns), table).toEqual(await rows(openWarehouseSource(tenantA), columns));
    }
    // No rows anywhere: the view still exists, typed from the writers' manifests.
    expect(await rows(openParquetSource(lake), 'SELECT count(*) AS n FROM upsert_events')).toEqual(['{"n":"0"}']);
  });

  it('sql --parquet and report --parquet return the union', async () => {
    const count = await runCli([
      'sql',
      '--config',
      config,
      '--parquet',
      '--format',
      'csv',
      'SELECT count(DISTINCT venue_id) AS venues, count(*) AS n FROM series_points',
    ]);
    expect(count.code, count.stderr).toBe(0);
    const [expected] = await rows(openWarehouseSource(both), 'SELECT count(DISTINCT venue_id) AS venues, count(*) AS n FROM series_points');
    const { venues, n } = JSON.parse(expected ?? '{}') as { venues: string; n: string };
    expect(count.stdout).toBe(`venues,n\r\n${venues},${n}\r\n`);
    expect(venues).toBe('3');

    const cli = await runCli(['report', 'daily-devices', '--config', config, '--parquet', '--format', 'json']);
    expect(cli.code, cli.stderr).toBe(0);
    const onUnion = await report(openWarehouseSource(both), 'daily-devices');
    expect(onUnion.length).toBeGreaterThan(0);
    expect(JSON.parse(cli.stdout)).toEqual(onUnion);
  });

  it('still reads a writer whose manifest is missing (its types then come from another writer’s manifest, or from the files)', async () => {
    const copy = join(dir, 'lake-without-a-manifest');
    cpSync(lake, copy, { recursive: true });
    rmSync(join(copy, MANIFEST_FILE));
    const query = 'SELECT * FROM series_points';
    const expected = sorted(await rows(openWarehouseSource(both), query));
    expect(sorted(await rows(openParquetSource(copy), query))).toEqual(expected);
    for (const table of [...UNION_TABLES, 'upsert_events']) {
      const columns = `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`;
      expect(await rows(openParquetSource(copy), columns), table).toEqual(await rows(openWarehouseSource(both), columns));
    }
    // No manifest at all: every writer's rows, with the types the Parquet files carry.
    rmSync(join(copy, '_venue_etl_manifest-tenant-a.json'));
    const counted = await rows(openParquetSource(copy), 'SELECT count(*) AS n, count(DISTINCT venue_id) AS venues FROM series_points');
    expect(counted).toEqual(await rows(openWarehouseSource(both), 'SELECT count(*) AS n, count(DISTINCT venue_id) AS venues FROM series_points'));
  });
});

describe('the columns of a table over several manifests', () => {
  it('come from the newest export of the table when writers disagree', () => {
    const table = (exportedAt: string, type: string) => ({
      columns: [{ name: 'value', type }],
      partitionedBy: [],
      rows: 1,
      bytes: 1,
      exportedAt,
      partitions: {},
    });
    const older = { ...emptyManifest(), tables: { accounts: table('2026-01-01T00:00:00.000Z', 'INTEGER') } };
    const newer = {
      ...emptyManifest(),
      tables: { accounts: table('2026-02-01T00:00:00.000Z', 'BIGINT'), venues: table('2026-01-01T00:00:00.000Z', 'VARCHAR') },
    };
    expect(tableEntries([newer, older]).accounts?.columns).toEqual([{ name: 'value', type: 'BIGINT' }]);
    expect(tableEntries([older, newer]).accounts?.columns).toEqual([{ name: 'value', type: 'BIGINT' }]);
    expect(Object.keys(tableEntries([older, newer])).sort()).toEqual(['accounts', 'venues']);
  });
});
