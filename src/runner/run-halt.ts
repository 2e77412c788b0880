import { setMaxListeners } from 'node:events';

/**
 * The signal a run's slices listen on: aborted when the run is interrupted (the caller's
 * signal) or stopped by its first fatal error. A fatal error used to stop only the start of
 * new slices: the thousands of chains in flight each went on extracting and failing to commit
 * (2,167 "could not record the failed slice" lines on a full disk). Aborting ends their requests
 * and backoff waits at once, so no request is sent after the error.
 */
export class RunHalt {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal;

  constructor(interruption: AbortSignal | undefined) {
    this.signal = interruption ? AbortSignal.any([interruption, this.controller.signal]) : this.controller.signal;
    // Every request in flight listens on it (see executeRun): more than 10 at once is normal.
    setMaxListeners(0, this.signal);
  }

  /** Whether a fatal error stopped the run (an interruption is not one). */
  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  /** Stops the run: what listens on `signal` ends with an AbortError (counted as not run). */
  stop(code: string | undefined): void {
    this.controller.abort(new DOMException(`the run stopped at ${code ?? 'a fatal error'}`, 'AbortError'));
  }

  /** Throws an AbortError when the run is over, before a slice starts its requests. */
  throwIfStopped(): void {
    if (this.signal.aborted) throw new DOMException('the run stopped before this slice started', 'AbortError');
  }
}
