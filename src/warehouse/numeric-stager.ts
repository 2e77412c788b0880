import { DuckDBDataChunk, DuckDBVector, type DuckDBAppender, type DuckDBType } from '@duckdb/node-api';

/**
 * Fills data chunks of numeric columns (INTEGER / DOUBLE) and appends them to a staging table.
 *
 * The measured fast path of @duckdb/node-api: `setItem` on the chunk's vectors writes into a
 * typed array, `flush` copies it to DuckDB in one call, and `appendDataChunk` hands 2,048 rows
 * over at once. Numbers only: strings and UUIDs go through small dictionary tables instead,
 * and NULL is staged as NaN (a JSON payload cannot hold NaN), because a validity mask makes
 * every later `setItem` do BigInt arithmetic.
 *
 * Hot loops write `stager.vectors[c].setItem(stager.size, v)` for every column, then call
 * `stager.next()` (which appends a full chunk and swaps in fresh vectors).
 */
export class NumericStager {
  readonly capacity = DuckDBVector.standardSize();
  vectors: DuckDBVector<number>[];
  size = 0;
  rowsAppended = 0;
  private readonly chunk: DuckDBDataChunk;

  constructor(
    private readonly appender: DuckDBAppender,
    types: readonly DuckDBType[],
  ) {
    this.chunk = DuckDBDataChunk.create(types, this.capacity);
    this.vectors = this.takeVectors();
  }

  /** Ends the current row; appends the chunk when it is full. */
  next(): void {
    this.size += 1;
    if (this.size === this.capacity) this.appendChunk();
  }

  /** Appends what is buffered and flushes the appender. */
  finish(): void {
    if (this.size > 0) this.appendChunk();
    this.appender.flushSync();
  }

  private appendChunk(): void {
    for (const vector of this.vectors) vector.flush();
    // Shrinking the row count drops the chunk's cached vectors, so only after the flush above.
    if (this.size !== this.capacity) this.chunk.rowCount = this.size;
    this.appender.appendDataChunk(this.chunk);
    this.rowsAppended += this.size;
    this.size = 0;
    this.chunk.reset();
    this.chunk.rowCount = this.capacity;
    this.vectors = this.takeVectors();
  }

  private takeVectors(): DuckDBVector<number>[] {
    const vectors: DuckDBVector<number>[] = [];
    for (let c = 0; c < this.chunk.columnCount; c++) {
      vectors.push(this.chunk.getColumnVector(c) as DuckDBVector<number>);
    }
    return vectors;
  }
}
