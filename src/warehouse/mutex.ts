/**
 * Serializes async critical sections. A DuckDB connection has one transaction at a time, so
 * two `await`-interleaved writers on the same connection would mix their statements into one
 * transaction; every write goes through this queue instead.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section);
    // The next section waits for this one whatever its outcome.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
