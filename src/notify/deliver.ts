import { setTimeout as delay } from 'node:timers/promises';
import { scrubSecrets } from '../log/index.js';

export interface DeliveryOutcome {
  readonly delivered: boolean;
  readonly attempts: number;
  /** The last answer's status, when there was one. */
  readonly status?: number;
  /** Why the last attempt failed (scrubbed: never the URL's secret part). */
  readonly error?: string;
  readonly durationMs: number;
}

export interface DeliveryLimits {
  /** One attempt's deadline. */
  readonly timeoutMs: number;
  /** No attempt starts after this long; the last one is cut to what is left. */
  readonly retryForMs: number;
}

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * POSTs a JSON body, retrying network errors, timeouts, 429 and 5xx with doubling backoff for at
 * most `retryForMs` in all: a hook that answers 500 or hangs costs the run's process that long
 * at most, and never its outcome. A 4xx other than 429 is not retried (the same body gets the
 * same answer).
 */
export async function deliver(url: string, payload: unknown, limits: DeliveryLimits): Promise<DeliveryOutcome> {
  const started = Date.now();
  const deadline = started + limits.retryForMs;
  const text = JSON.stringify(payload);
  let attempts = 0;
  let backoff = FIRST_BACKOFF_MS;
  let last: { status?: number; error?: string } = {};
  for (;;) {
    attempts += 1;
    const left = Math.max(100, Math.min(limits.timeoutMs, deadline - Date.now()));
    last = await attempt(url, text, left);
    const elapsed = Date.now() - started;
    if (last.status !== undefined && last.status >= 200 && last.status < 300) return { delivered: true, attempts, status: last.status, durationMs: elapsed };
    const retriable = last.status === undefined || last.status === 429 || last.status >= 500;
    if (!retriable || Date.now() + backoff >= deadline) return { delivered: false, attempts, ...last, durationMs: elapsed };
    await delay(backoff);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}

async function attempt(url: string, text: string, timeoutMs: number): Promise<{ status?: number; error?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'venue-etl' },
      body: text,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    // The body is not read past what fetch holds; closing it frees the connection.
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? { status: response.status } : { status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    return { error: scrubSecrets(describe(error, timeoutMs)) };
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause ? String(cause.code) : undefined;
  return code ?? (error instanceof Error ? error.message : String(error));
}
