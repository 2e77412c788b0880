import { describe, expect, it } from 'vitest';
import { ApiError, ApiErrorCode, withRetries } from '../../src/api/index.js';
import { ERROR_RULES, EtlError, ExitCode, isErrorCode, type ErrorCode } from '../../src/errors/index.js';
import { isFatalForRun } from '../../src/runner/fatal.js';

const ALL_CODES = Object.keys(ERROR_RULES).filter(isErrorCode);
const API_CODES: ApiErrorCode[] = Object.values(ApiErrorCode);
const policy = { maxRetries: 1, baseMs: 0, maxBackoffMs: 0, maxRetryAfterMs: 1_000 };

/** How many attempts the retry loop makes when every attempt fails with `code`. */
async function attemptsFor(code: ApiErrorCode): Promise<number> {
  let attempts = 0;
  await withRetries(policy, 'GET /x', async () => {
    attempts += 1;
    throw new ApiError(code, 'failed');
  }).catch(() => undefined);
  return attempts;
}

describe('the error table', () => {
  it('has a row for every code the API client raises', () => {
    expect(API_CODES.filter((code) => !isErrorCode(code))).toEqual([]);
  });

  it('decides what the retry loop tries again', async () => {
    const retried: string[] = [];
    for (const code of API_CODES) if ((await attemptsFor(code)) > 1) retried.push(code);
    expect(retried).toEqual(API_CODES.filter((code) => ERROR_RULES[code].transient));
    expect(retried.sort()).toEqual(['VENUE_API_BAD_BODY', 'VENUE_API_NETWORK', 'VENUE_API_SERVER_ERROR', 'VENUE_API_THROTTLED', 'VENUE_API_TIMEOUT']);
  });

  it('decides which errors stop the run, for errors of any kind carrying the code', () => {
    const fatal = ALL_CODES.filter((code: ErrorCode) => isFatalForRun(new EtlError(code, 'x')));
    expect(fatal).toEqual(ALL_CODES.filter((code) => ERROR_RULES[code].fatalForRun));
    expect(fatal).toContain('VENUE_API_AUTH');
    expect(fatal).toContain('VENUE_API_RETRY_AFTER_TOO_LONG');
    expect(fatal.filter((code) => !code.startsWith('VENUE_WAREHOUSE'))).toEqual([
      'VENUE_API_AUTH',
      'VENUE_API_RETRY_AFTER_TOO_LONG',
      // The object store of an s3:// target: every other object would fail the same way.
      'VENUE_LAKE_UNREACHABLE',
      'VENUE_LAKE_ACCESS_DENIED',
      'VENUE_LAKE_CREDENTIALS',
      'VENUE_LAKE_NO_SUCH_BUCKET',
    ]);
    expect(isFatalForRun(Object.assign(new Error('refused'), { code: 'VENUE_API_AUTH' }))).toBe(true);
    expect(isFatalForRun(Object.assign(new Error('full'), { code: 'ENOSPC' }))).toBe(false);
    expect(isFatalForRun(undefined)).toBe(false);
  });

  it("gives each error its exit status and an API error's retriable flag", () => {
    for (const code of ALL_CODES) expect(new EtlError(code, 'x').exitCode, code).toBe(ERROR_RULES[code].exitCode);
    expect(new EtlError('VENUE_ETL_CONFIG', 'x').exitCode).toBe(ExitCode.usage);
    expect(new EtlError('VENUE_WAREHOUSE_LOCKED', 'x').exitCode).toBe(ExitCode.failed);
    const exhausted = new ApiError(ApiErrorCode.retriesExhausted, 'x');
    expect([exhausted.retriable, exhausted.details.retriable]).toEqual([true, true]);
    const notFound = new ApiError(ApiErrorCode.notFound, 'x');
    expect([notFound.retriable, notFound.details.retriable]).toEqual([false, false]);
  });
});
