import { setTimeout as sleep } from 'node:timers/promises';
import { ruleOf } from '../errors/index.js';
import { ApiError, ApiErrorCode } from './errors.js';

/**
 * The one place that decides whether and when a request is tried again. An attempt throws an
 * `ApiError`; the transient ones (429, 408, 5xx, network, timeout, bad body: `ERROR_RULES`)
 * come back here.
 * undici's retry interceptor is not used: it caps Retry-After at its own maxTimeout.
 */
export interface RetryPolicy {
  /** Attempts after the first. */
  readonly maxRetries: number;
  /** First backoff step; doubles per attempt, full jitter. */
  readonly baseMs: number;
  /** Cap of the exponential backoff. Retry-After may ask for more and gets it. */
  readonly maxBackoffMs: number;
  /** Longest Retry-After honoured; a longer one fails at once. */
  readonly maxRetryAfterMs: number;
}

export interface RetryHooks {
  readonly signal?: AbortSignal | undefined;
  /** Called before each wait; `attempt` is the one that just failed. */
  readonly onRetry?: (error: ApiError, attempt: number, delayMs: number) => void;
  /** For randomness in tests. */
  readonly random?: () => number;
  /** A transient error this caller does not wait out (the access check and a refused connection). */
  readonly giveUp?: ((error: ApiError) => boolean) | undefined;
}

export async function withRetries<T>(policy: RetryPolicy, request: string, attempt: (attemptNumber: number) => Promise<T>, hooks: RetryHooks = {}): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (hooks.giveUp?.(error)) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) {
        throw retryAfterTooLong(error, request, policy.maxRetryAfterMs, attemptNumber);
      }
      if (attemptNumber > policy.maxRetries) throw retriesExhausted(error, request, attemptNumber);
      const delayMs = Math.max(error.retryAfterMs ?? 0, backoffDelay(attemptNumber, policy, hooks.random));
      hooks.onRetry?.(error, attemptNumber, delayMs);
      await abortableSleep(delayMs, hooks.signal, request);
    }
  }
}

/** Errors of one attempt that another attempt may fix (not the loop's own final errors). */
function isTransient(error: unknown): error is ApiError {
  return error instanceof ApiError && ruleOf(error.code).transient;
}

/** Full jitter ("Exponential Backoff and Jitter", AWS): uniform in [0, min(cap, base·2^(n-1))]. */
export function backoffDelay(attemptNumber: number, policy: Pick<RetryPolicy, 'baseMs' | 'maxBackoffMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.baseMs * 2 ** (attemptNumber - 1));
  return Math.round(random() * ceiling);
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form starts with a day name; Date.parse alone accepts '-1' and the like.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Waits the whole delay by the monotonic clock: a Node timer counts from the event loop's cached
 * time, so it can fire up to a millisecond early (a retry sent 999.92 ms after a `Retry-After: 1`
 * refusal, by the server's own clock, in CI). Sleeps again for what is left.
 */
async function abortableSleep(delayMs: number, signal: AbortSignal | undefined, request: string): Promise<void> {
  const until = performance.now() + delayMs;
  try {
    for (let left = delayMs; left > 0; left = until - performance.now()) await sleep(Math.ceil(left), undefined, signal ? { signal } : undefined);
  } catch (error) {
    throw abortedError(request, signal?.reason ?? error);
  }
}

export function abortedError(request: string, cause: unknown): ApiError {
  return new ApiError(ApiErrorCode.aborted, `${request} was aborted`, { request, cause });
}

function retryAfterTooLong(error: ApiError, request: string, maxRetryAfterMs: number, attempts: number): ApiError {
  const seconds = Math.ceil((error.retryAfterMs ?? 0) / 1000);
  return new ApiError(
    ApiErrorCode.retryAfterTooLong,
    `the API asks to wait ${seconds} s before retrying ${request} (status ${error.status}), longer than api.maxRetryAfterMs (${Math.round(maxRetryAfterMs / 1000)} s)`,
    {
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      request,
      cause: error,
      hint: 'Run again later, lower api.concurrency / api.maxRequestsPerSecond, or raise api.maxRetryAfterMs.',
      details: { attempts },
    },
  );
}

function retriesExhausted(error: ApiError, request: string, attempts: number): ApiError {
  return new ApiError(ApiErrorCode.retriesExhausted, `${request} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}; last error: ${error.message}`, {
    status: error.status,
    request,
    cause: error,
    // "Nothing is listening" is better fixed in api.baseUrl than by retrying longer.
    hint:
      error.details.refused === true
        ? error.hint
        : 'The API or the network kept failing. Run again later (failed slices are retried), or raise api.maxRetries / api.timeoutMs.',
    details: { attempts, lastCode: error.code },
  });
}
