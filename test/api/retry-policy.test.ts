import { describe, expect, it } from 'vitest';
import { ApiError, ApiErrorCode, backoffDelay, parseRetryAfter, withRetries } from '../../src/api/index.js';

const policy = { maxRetries: 3, baseMs: 100, maxBackoffMs: 1_000, maxRetryAfterMs: 5_000 };

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, ignores what it cannot read', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(['5', '9'], now)).toBe(5_000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap, with full jitter', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 1))).toEqual([100, 200, 400, 800, 1_000]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });
});

describe('withRetries', () => {
  const transient = (retryAfterMs?: number) => new ApiError(ApiErrorCode.serverError, 'GET /x failed with 503', { status: 503, retryAfterMs });

  it('retries transient errors and passes others through at once', async () => {
    let calls = 0;
    const value = await withRetries({ ...policy, baseMs: 1 }, 'GET /x', async () => {
      calls += 1;
      if (calls < 3) throw transient();
      return 'ok';
    });
    expect([value, calls]).toEqual(['ok', 3]);

    calls = 0;
    const fatal = new ApiError(ApiErrorCode.notFound, 'gone', { status: 404 });
    await expect(
      withRetries(policy, 'GET /x', async () => {
        calls += 1;
        throw fatal;
      }),
    ).rejects.toBe(fatal);
    expect(calls).toBe(1);
  });

  it('waits at least Retry-After, however small the backoff', async () => {
    const delays: number[] = [];
    let calls = 0;
    await withRetries(
      { ...policy, baseMs: 1, maxBackoffMs: 1 },
      'GET /x',
      async () => {
        if (calls++ === 0) throw transient(40);
      },
      { onRetry: (_error, _attempt, delayMs) => delays.push(delayMs) },
    );
    expect(delays).toEqual([40]);
  });

  it('with maxRetries 0 makes one attempt', async () => {
    let calls = 0;
    const error = await withRetries({ ...policy, maxRetries: 0 }, 'GET /x', async () => {
      calls += 1;
      throw transient();
    }).catch((e: ApiError) => e);
    expect(calls).toBe(1);
    expect(error).toMatchObject({ code: ApiErrorCode.retriesExhausted, details: { attempts: 1 } });
  });

  it('an abort during the wait ends it with a coded error', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await withRetries(
      policy,
      'GET /x',
      async () => {
        throw transient(3_000);
      },
      { signal: controller.signal },
    ).catch((e: ApiError) => e);
    expect(error).toMatchObject({ code: ApiErrorCode.aborted });
  });
});
