import { alignedTable } from '../infra/text-table.js';
import { exportTotals, type ExportReport } from './export-report.js';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** Per table: files written / unchanged / removed, rows, size on disk, seconds; then the totals. */
export function formatExportReport(report: ExportReport): string {
  const rows = report.tables.map((t) => [
    t.missing ? `${t.table} (not in warehouse)` : t.table,
    String(t.written),
    String(t.unchanged),
    String(t.removed),
    String(t.rows),
    String(t.rowsWritten),
    formatBytes(t.bytes),
    t.seconds.toFixed(2),
  ]);
  const totals = exportTotals(report);
  rows.push([
    'total',
    String(totals.written),
    String(totals.unchanged),
    String(totals.removed),
    String(totals.rows),
    String(totals.rowsWritten),
    formatBytes(totals.bytes),
    report.seconds.toFixed(2),
  ]);
  const table = alignedTable(['table', 'written', 'unchanged', 'removed', 'rows', 'rows written', 'size', 'seconds'], rows, {
    rightAlign: [false, true, true, true, true, true, true, true],
  });
  return `${table}\nParquet in ${report.dir} (manifest ${report.manifest})\n`;
}
