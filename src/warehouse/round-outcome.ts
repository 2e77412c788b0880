/** What replacing the windows of one round did. */
export interface RoundOutcome {
  readonly changedWindows: number;
  readonly unchangedWindows: number;
  readonly rowsWritten: number;
  /** Rows of a batch that lay outside the region their slice owns: not stored. */
  readonly rowsOutsideWindow: number;
  /** Rows written per slice of the group (index = position in the group). */
  readonly rowsBySlice: ReadonlyMap<number, number>;
}

export function addRowsBySlice(target: Map<number, number>, slice: number, rows: number): void {
  target.set(slice, (target.get(slice) ?? 0) + rows);
}

/** `changed_*_windows` rows back to the slices they belong to. */
export function outcomeFromChanged(
  changed: readonly { readonly w: number; readonly staged_rows: number }[],
  windowSlice: readonly number[],
  rowsOutsideWindow: number,
): RoundOutcome {
  const rowsBySlice = new Map<number, number>();
  let rowsWritten = 0;
  for (const row of changed) {
    rowsWritten += row.staged_rows;
    addRowsBySlice(rowsBySlice, windowSlice[row.w], row.staged_rows);
  }
  return {
    changedWindows: changed.length,
    unchangedWindows: windowSlice.length - changed.length,
    rowsWritten,
    rowsOutsideWindow,
    rowsBySlice,
  };
}
