import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { readChangeState, whyFull, type ChangeState } from './changes.js';
import type { ExportOptions } from './export-options.js';
import type { TableExportReport } from './export-report.js';
import { manifestText, parseManifest, withChanges, type Manifest, type ManifestChanges } from './manifest.js';
import type { ExportStore } from './store.js';
import { dirtyOf, planTable, type TablePlan } from './table-plan.js';
import { describeWriter, type ExportTable } from './tables.js';
import { exportAborted, exportTable } from './write-table.js';

/** What one pass over the warehouse's snapshot did: the manifest it left and what it read. */
export interface ExportPass {
  readonly manifest: Manifest;
  readonly state: ChangeState | undefined;
  /** Why every partition was read; undefined when only the marked ones were. */
  readonly fullReason: string | undefined;
  readonly reports: readonly TableExportReport[];
}

/** Where a pass starts: the manifest as it may stand while files are written, and the claim it keeps. */
interface PassStart {
  readonly manifest: Manifest;
  readonly state: ChangeState | undefined;
  readonly fullReason: string | undefined;
  /** The warehouse state the manifest keeps claiming during the pass (undefined: none). */
  readonly claim: ManifestChanges | undefined;
}

/**
 * Inside one read transaction (so every file reflects one snapshot): decide what to read, plan
 * every table, then write them, saving the manifest after each.
 */
export async function exportPass(
  connection: DuckDBConnection,
  store: ExportStore,
  tables: readonly ExportTable[],
  options: ExportOptions,
): Promise<ExportPass> {
  const start = await startPass(connection, store, options);
  const plans = await planTables(connection, tables, store, start, options.logger);
  const { manifest, reports } = await writeTables(connection, plans, store, start, options);
  return { manifest, state: start.state, fullReason: start.fullReason, reports };
}

async function startPass(connection: DuckDBConnection, store: ExportStore, options: ExportOptions): Promise<PassStart> {
  let manifest = parseManifest(await store.readManifest());
  const state = await readChangeState(connection);
  if (state !== undefined) {
    assertWriterFree(manifest, state.warehouseId, store, options.takeOver ?? false);
    manifest = { ...manifest, writerId: store.writer, warehouseId: state.warehouseId };
  }
  const fullReason = whyFull(manifest, state, options.full ?? false);
  if (fullReason !== undefined) options.logger?.info({ reason: fullReason }, 'reading every partition');
  // While the export runs, the manifest claims the warehouse state it claimed before
  // only when that claim stays true: the marks since it are not forgotten until the end.
  const claim = fullReason === undefined ? manifest.changes : undefined;
  if (claim === undefined && manifest.changes !== undefined) {
    // A full export that stops midway (--full after a change made with plain SQL) must be
    // finished in full by the next export too: withdraw the claim before the first file.
    manifest = withChanges(manifest, undefined);
    await store.writeManifest(manifestText(manifest));
  }
  return { manifest, state, fullReason, claim };
}

/**
 * Every table is planned before the first file is written: the progress line counts files of
 * the whole export, not of one table at a time.
 */
async function planTables(
  connection: DuckDBConnection,
  tables: readonly ExportTable[],
  store: ExportStore,
  start: PassStart,
  logger: Logger | undefined,
): Promise<TablePlan[]> {
  const plans: TablePlan[] = [];
  for (const table of tables) {
    const dirty = start.fullReason === undefined ? dirtyOf(table, start.state) : undefined;
    plans.push(await planTable(connection, table, store, start.manifest, dirty, logger));
  }
  return plans;
}

async function writeTables(
  connection: DuckDBConnection,
  plans: readonly TablePlan[],
  store: ExportStore,
  start: PassStart,
  options: ExportOptions,
): Promise<{ manifest: Manifest; reports: TableExportReport[] }> {
  const progress = options.progress?.(plans.reduce((n, plan) => n + plan.toWrite, 0));
  let manifest = start.manifest;
  const reports: TableExportReport[] = [];
  try {
    for (const plan of plans) {
      if (options.signal?.aborted) throw exportAborted();
      const { report, entry } = await exportTable(connection, plan, store, options, progress);
      reports.push(report);
      if (entry === undefined) continue;
      // Saved after every table: an interrupted export keeps what it finished.
      manifest = withChanges({ ...manifest, exportedAt: new Date().toISOString(), tables: { ...manifest.tables, [plan.table.name]: entry } }, start.claim);
      await store.writeManifest(manifestText(manifest));
    }
  } finally {
    progress?.stop();
  }
  return { manifest, reports };
}

/**
 * Refuses to export as a writer whose manifest another warehouse wrote: two workers with one
 * writer id (a copied config without its own parquet.writer, a shard run twice from two
 * machines) would each delete the other's files as rows that are gone. A manifest that says no
 * warehouse (absent, unreadable, or older) is no conflict.
 */
function assertWriterFree(manifest: Manifest, warehouseId: string, store: ExportStore, takeOver: boolean): void {
  if (takeOver || manifest.warehouseId === undefined || manifest.warehouseId === warehouseId) return;
  const writer = describeWriter(store.writer);
  throw new EtlError(
    'VENUE_EXPORT_WRITER_TAKEN',
    `${writer} of ${store.location} is another warehouse's: its manifest (${store.manifestLocation}) was written by warehouse ${manifest.warehouseId}, not by this one (${warehouseId})`,
    {
      hint: 'give this worker a writer of its own (set parquet.writer to a name of its own, e.g. the tenant), or run `venue-etl export --take-over` if this warehouse replaces that one (its files of this writer are then rewritten from this warehouse)',
      details: { writer: store.writer, manifestWarehouse: manifest.warehouseId, warehouse: warehouseId },
    },
  );
}
