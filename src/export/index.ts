/** Parquet export of the warehouse (docs/parquet.md): incremental, one atomic file per partition. */
export { exportParquet, selectTables } from './export-parquet.js';
export type { ExportOptions, ExportProgress } from './export-parquet.js';
export type { ExportReport, TableExportReport } from './export-report.js';
export { exportTotals } from './export-report.js';
export { EXPORT_TABLES, dataFileName, isDataFileName, writerId } from './tables.js';
export type { ExportTable } from './tables.js';
export { readManifest, MANIFEST_FILE, manifestFileName } from './manifest.js';
export type { Manifest, TableEntry, PartitionEntry, ColumnInfo } from './manifest.js';
