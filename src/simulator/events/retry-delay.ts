/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter in [50%, 100%] of the step; `jitter` in [0, 1). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, jitter: number): number {
  const step = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(step * (0.5 + 0.5 * jitter));
}

/** Worth another try: the receiver may answer differently later. Other 4xx never will. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}
