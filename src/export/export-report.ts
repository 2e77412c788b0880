/** What one export did to one table. */
export interface TableExportReport {
  readonly table: string;
  readonly partitioned: boolean;
  /** Files rewritten because their rows changed (or were never exported). */
  readonly written: number;
  readonly unchanged: number;
  /** Files deleted because their rows are gone from the warehouse. */
  readonly removed: number;
  /** Partitions whose rows were read (fingerprinted) this time: the marked ones, or all on the full path. */
  readonly checked: number;
  /** Rows in the table now, and how many of them were written this time. */
  readonly rows: number;
  readonly rowsWritten: number;
  /** Bytes of the table's files now, and of the files written this time. */
  readonly bytes: number;
  readonly bytesWritten: number;
  readonly seconds: number;
  /** The warehouse has no such table (an older schema): nothing was written. */
  readonly missing?: boolean;
}

export interface ExportReport {
  readonly dir: string;
  readonly manifest: string;
  /** 'incremental': only the partitions the warehouse marked as changed were read. */
  readonly mode: 'incremental' | 'full';
  /** Why every partition was read (no manifest, another warehouse, --full, …). */
  readonly fullReason?: string;
  /** The marks this export saw were forgotten (else the next export reads them again). */
  readonly changesForgotten: boolean;
  readonly tables: readonly TableExportReport[];
  readonly seconds: number;
}

export function exportTotals(report: ExportReport): Omit<TableExportReport, 'table' | 'partitioned' | 'missing'> {
  const sum = (pick: (t: TableExportReport) => number): number => report.tables.reduce((total, t) => total + pick(t), 0);
  return {
    written: sum((t) => t.written),
    unchanged: sum((t) => t.unchanged),
    removed: sum((t) => t.removed),
    checked: sum((t) => t.checked),
    rows: sum((t) => t.rows),
    rowsWritten: sum((t) => t.rowsWritten),
    bytes: sum((t) => t.bytes),
    bytesWritten: sum((t) => t.bytesWritten),
    seconds: report.seconds,
  };
}
