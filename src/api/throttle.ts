import pLimit from 'p-limit';
import { createTokenBucket, type TokenBucket } from './token-bucket.js';

export interface ThrottleOptions {
  /** Configured concurrency: the start value and the ceiling of recovery. */
  readonly concurrency: number;
  readonly maxRequestsPerSecond?: number;
  /** Successes in a row that earn one more slot after a decrease. */
  readonly recoverAfterSuccesses?: number;
  /** Told about every change of the limit (for logging). */
  readonly onChange?: (concurrency: number, reason: 'throttled' | 'recovered') => void;
}

/** What a running task reports back about its request. */
export interface ThrottleSlot {
  /** The API answered 429. */
  throttled(): void;
  /** The API answered 2xx. */
  succeeded(): void;
}

export interface Throttle {
  /**
   * Runs `task` when a slot is free (and a token is available under a rate budget). One call is
   * one attempt: retries come back through here, so a retry sleeping its backoff holds no slot.
   */
  run<T>(task: (slot: ThrottleSlot) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** The current limit, between 1 and the configured concurrency. */
  readonly concurrency: number;
  readonly active: number;
  readonly pending: number;
}

const DEFAULT_RECOVER_AFTER_SUCCESSES = 10;

/**
 * Global concurrency limit, adaptive on 429 (AIMD: halve, then +1 per run of successes, never
 * above the configured value), plus an optional requests-per-second budget.
 */
export function createThrottle(options: ThrottleOptions): Throttle {
  const ceiling = options.concurrency;
  const recoverAfter = options.recoverAfterSuccesses ?? DEFAULT_RECOVER_AFTER_SUCCESSES;
  const limit = pLimit(ceiling);
  const bucket: TokenBucket | undefined = options.maxRequestsPerSecond ? createTokenBucket(options.maxRequestsPerSecond) : undefined;
  // Bumped on every decrease. The requests already in flight when the API started throttling
  // all answer 429 together; only the first of them, per decrease, may halve the limit again.
  let epoch = 0;
  let successes = 0;

  function decrease(startedInEpoch: number): void {
    successes = 0;
    if (startedInEpoch !== epoch) return;
    epoch += 1;
    const next = Math.max(1, Math.floor(limit.concurrency / 2));
    if (next === limit.concurrency) return;
    limit.concurrency = next;
    options.onChange?.(next, 'throttled');
  }

  function increase(): void {
    if (limit.concurrency >= ceiling) return;
    successes += 1;
    if (successes < recoverAfter) return;
    successes = 0;
    limit.concurrency += 1;
    options.onChange?.(limit.concurrency, 'recovered');
  }

  return {
    run(task, signal) {
      return limit(async () => {
        signal?.throwIfAborted();
        if (bucket) await bucket.take(signal);
        const startedInEpoch = epoch;
        return task({ throttled: () => decrease(startedInEpoch), succeeded: increase });
      });
    },
    get concurrency() {
      return limit.concurrency;
    },
    get active() {
      return limit.activeCount;
    },
    get pending() {
      return limit.pendingCount;
    },
  };
}
