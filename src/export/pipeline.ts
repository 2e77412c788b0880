/**
 * Up to `limit` async tasks in flight; `add` waits while the pipeline is full. The first
 * failure is rethrown by `add` or `drain`, after every started task has settled.
 */
export class Pipeline {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  async add(task: () => Promise<void>): Promise<void> {
    this.throwIfFailed();
    const promise: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
    if (this.running.size >= this.limit) await Promise.race(this.running);
    this.throwIfFailed();
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
