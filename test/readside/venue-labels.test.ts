/**
 * sql/views/venue-labels.sql, the one rule for how a venue is shown: the config's name, else the
 * events' (venues table), with the short id where names repeat or are missing; every venue the
 * config, the events or a venue stream's cursor knows, and no project. The same on the warehouse
 * and on its Parquet export, also one exported without the tables the labels read.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { formatJson } from '../../src/readside/format-json.js';
import { openParquetSource, openWarehouseSource, runReadOnly, type QuerySource } from '../../src/readside/index.js';
import { BUILT_IN_LABEL_INPUT, type VenueLabelInput } from '../../src/venue-names/index.js';
import { report, runOnFile, seededWarehouse, tempDir, V1, V2 } from './fixture.js';

/** A venue with a cursor of a venue stream only (data of a venue no longer in the config), and a project's cursor. */
const V3 = '33333333-3333-4333-8333-333333333333';
const PROJECT = '44444444-4444-4444-8444-444444444444';

const input = (venues: VenueLabelInput['venues']): VenueLabelInput => ({ ...BUILT_IN_LABEL_INPUT, venues });

async function labels(opening: Promise<QuerySource>): Promise<unknown> {
  const source = await opening;
  try {
    return JSON.parse(formatJson(await runReadOnly(source.connection, 'SELECT venue_id, name, name_from, label FROM venue_labels ORDER BY venue_id')));
  } finally {
    await source.close();
  }
}

describe('venue labels', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  const partial = join(dir, 'parquet-facts-only');

  beforeAll(async () => {
    // V1 is named "Café Central" by the events; V2 has no name.
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, [
      `INSERT INTO sync_cursors VALUES ('venue-devices-history', '${V3}', DATE '2026-01-01', now(), 'run-1'), ('project-roles', '${PROJECT}', DATE '2026-01-01', now(), 'run-1')`,
    ]);
    await exportParquet({ warehouse, dir: parquet });
    await exportParquet({ warehouse, dir: partial, tables: ['series_points', 'summary_values'] });
  });
  afterAll(cleanup);

  it('name from the events, a missing name by the short id, a cursor venue known, a project not', async () => {
    expect(await labels(openWarehouseSource(warehouse))).toEqual([
      { venue_id: V1, name: 'Café Central', name_from: 'events', label: 'Café Central' },
      { venue_id: V2, name: null, name_from: null, label: V2.slice(0, 8) },
      { venue_id: V3, name: null, name_from: null, label: V3.slice(0, 8) },
    ]);
  });

  it("the config's name wins; a name two venues have gets the short id; the same on the export", async () => {
    const named = input([
      { id: V1, name: 'Old Town Café' },
      { id: V2, name: 'Twin' },
      { id: V3, name: 'Twin' },
    ]);
    const expected = [
      { venue_id: V1, name: 'Old Town Café', name_from: 'config', label: 'Old Town Café' },
      { venue_id: V2, name: 'Twin', name_from: 'config', label: `Twin (${V2.slice(0, 8)})` },
      { venue_id: V3, name: 'Twin', name_from: 'config', label: `Twin (${V3.slice(0, 8)})` },
    ];
    expect(await labels(openWarehouseSource(warehouse, { labels: named }))).toEqual(expected);
    expect(await labels(openParquetSource(parquet, undefined, named))).toEqual(expected);
  });

  it('reports show the label beside the id; venue_label() of an unknown id is its short id, of a text the text', async () => {
    const ranking = await report(openWarehouseSource(warehouse, { labels: input([{ id: V2, name: 'Config Two' }]) }), 'venue-ranking');
    expect(ranking.map((r) => [r.venue_id, r.venue])).toEqual(
      expect.arrayContaining([
        [V1, 'Café Central'],
        [V2, 'Config Two'],
      ]),
    );
    const source = await openWarehouseSource(warehouse);
    try {
      const result = await runReadOnly(
        source.connection,
        `SELECT venue_label('ffffffff-0000-4000-8000-000000000001'::UUID) AS unknown, venue_label('all') AS text`,
      );
      expect(JSON.parse(formatJson(result))).toEqual([{ unknown: 'ffffffff', text: 'all' }]);
    } finally {
      await source.close();
    }
  });

  it('a lake exported without the venues and cursors still labels: config names, short ids otherwise', async () => {
    const ranking = await report(openParquetSource(partial, undefined, input([{ id: V2, name: 'Config Two' }])), 'venue-ranking');
    expect(ranking.map((r) => [r.venue_id, r.venue])).toEqual(
      expect.arrayContaining([
        [V1, V1.slice(0, 8)],
        [V2, 'Config Two'],
      ]),
    );
  });
});
