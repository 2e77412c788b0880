/**
 * A semaphore over weights: a task runs once its weight fits in what is free. First come,
 * first served: a heavy task at the head is not overtaken by light ones (it would starve).
 * A weight above the capacity counts as the whole capacity (the task then runs alone).
 */
export class WeightedLimit {
  private used = 0;
  private running = 0;
  private readonly waiting: { readonly weight: number; readonly start: () => void }[] = [];

  constructor(readonly capacity: number) {}

  /** Tasks running or waiting. */
  get busy(): boolean {
    return this.running > 0 || this.waiting.length > 0;
  }

  async run<T>(weight: number, task: () => Promise<T>): Promise<T> {
    const w = Math.min(Math.max(1, weight), this.capacity);
    if (this.waiting.length > 0 || this.used + w > this.capacity) {
      await new Promise<void>((start) => this.waiting.push({ weight: w, start }));
    } else {
      this.used += w;
    }
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.used -= w;
      this.startWaiting();
    }
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.weight <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.weight;
      next.start();
    }
  }
}
